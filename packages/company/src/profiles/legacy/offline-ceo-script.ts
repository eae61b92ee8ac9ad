// The offline CEO under the legacy profile (C4-7): offered a `bash` tool and no company tools, it
// does what the old hard-coded turn told it to — `node -e` fetch POSTs of its hires against the API
// named in that turn, then one approve_ceo_strategy POST — and reads each HTTP answer back. It plans
// the same team as the semantic CEO (same seed, same roles), so that an evaluation comparing the two
// profiles measures the path, not a different plan.
// A script for the offline connector's scripted model (`@cadre/core/offline`).
import type { ScriptReply, ScriptRequest } from "@cadre/core/offline";
import type { Context } from "@mariozechner/pi-ai";
import { fetchPostCommand, readFetchOutput, readFetchPostCommand } from "./fetch-command.js";
import { chooseRoute, planTeam, repairHire, strategyText } from "../../offline/ceo-script.js";
import { currentTurn, type PromptView, readPrompt, toolHistory } from "../../offline/read-prompt.js";

const MAX_TOOL_CALLS = 16;
/** As for the semantic CEO: the low end of the "three to five" roles. */
const MIN_TEAM = 3;

/** What the old turn names: where to POST hires and the strategy. */
interface LegacyApi {
  agentsUrl: string;
  approvalsUrl: string;
}

interface HttpCall {
  kind: "hire" | "strategy" | "other";
  body: Record<string, unknown>;
  /** The HTTP status the command printed; undefined when it printed none (e.g. a network error). */
  status: number | undefined;
  /** The API's error message, or the raw output when it printed none. */
  message: string;
}

function text(t: string): ScriptReply {
  return { content: [{ type: "text", text: t }] };
}

function post(url: string, body: Record<string, unknown>, say: string): ScriptReply {
  return {
    content: [
      { type: "text", text: say },
      { type: "toolCall", name: "bash", arguments: { command: fetchPostCommand(url, body) } },
    ],
  };
}

/** Reads the endpoints from the first user turn, the way a model reads its instructions. */
function readLegacyApi(context: Context): LegacyApi | undefined {
  const first = context.messages.find((m) => m.role === "user");
  const content = first?.content ?? "";
  const turn =
    typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "")).join("");
  const agents = /POST (https?:\/\/\S+\/agents) /.exec(turn);
  const approvals = /POST (https?:\/\/\S+\/approvals) /.exec(turn);
  return agents && approvals
    ? { agentsUrl: agents[1] as string, approvalsUrl: approvals[1] as string }
    : undefined;
}

function apiMessage(output: string): string {
  const answer = readFetchOutput(output);
  if (!answer) return output;
  try {
    const parsed = JSON.parse(answer.text) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === "string" ? parsed.error.message : answer.text;
  } catch {
    return answer.text;
  }
}

function httpCalls(context: Context, api: LegacyApi): HttpCall[] {
  return toolHistory(context.messages)
    .filter((h) => h.name === "bash")
    .map((h) => {
      const sent = readFetchPostCommand(String(h.arguments["command"] ?? ""));
      const kind =
        sent?.url === api.agentsUrl ? "hire" : sent?.url === api.approvalsUrl ? "strategy" : "other";
      return {
        kind,
        body: sent?.body ?? {},
        status: readFetchOutput(h.resultText)?.status,
        message: apiMessage(h.resultText),
      };
    });
}

/** The hires still to make in this phase, as the semantic CEO would plan them. */
function plannedHires(view: PromptView, seed: number | string) {
  const plan = planTeam(view, seed);
  const others = view.directory.filter((m) => !m.self).length;
  if (view.mode === "strategy-drafting") return plan.roles.slice(0, Math.max(0, MIN_TEAM - others));
  if (view.mode === "team-building" || (view.mode === "revising" && Boolean(view.operatorNote)))
    return plan.roles;
  return [];
}

export function offlineLegacyCeoScript({
  context,
  seed,
}: Pick<ScriptRequest, "context" | "seed">): ScriptReply {
  const view = readPrompt(context);
  const api = readLegacyApi(context);
  if (!api) return text("My instructions name no API to send my requests to, so I cannot hire.");
  const calls = httpCalls(context, api);
  const hired = calls.filter((c) => c.kind === "hire" && c.status === 201);
  const last = calls.at(-1);
  const lastWasResult = context.messages.at(-1)?.role === "toolResult";

  if (calls.some((c) => c.kind === "strategy" && c.status === 201)) {
    return text(
      `I filed the strategy for the operator's decision with a team of ${view.directory.filter((m) => !m.self).length + hired.length} leads.`,
    );
  }
  if (calls.length >= MAX_TOOL_CALLS) return text("I stopped here: too many of my requests were refused.");
  if (lastWasResult && last?.kind === "strategy")
    return text(`The strategy could not be filed: ${last.message}`);
  if (lastWasResult && last && last.status === undefined)
    return text(`My request did not reach the API: ${last.message}`);
  if (lastWasResult && (last?.status === 401 || last?.status === 403))
    return text(`The API refused my credentials (${last.status}): ${last.message}`);
  if (view.mode === undefined)
    return text("I could not find my phase instructions in the system prompt, so I will not act.");
  if (view.mode === "awaiting-approval")
    return text("My strategy is with the operator. I will not hire or file anything until it is decided.");
  if (view.mode === "operating")
    return text("The strategy is approved; my team starts on its first milestones.");

  // Retry a refused hire once the refusal says how.
  if (lastWasResult && last?.kind === "hire" && last.status !== 201) {
    const stop = /`(mode|team|agent)`/.test(last.message);
    const attempts = calls.filter(
      (c) => c.kind === "hire" && c.body["department"] === last.body["department"],
    ).length;
    const repaired =
      !stop && attempts < 3
        ? repairHire({ name: "hire_agent", arguments: last.body, ok: false, resultText: last.message }, view)
        : undefined;
    if (repaired) return post(api.agentsUrl, repaired, "That hire was refused; correcting it.");
    if (stop && hired.length === 0 && view.mode === "team-building")
      return text(`I cannot hire right now: ${last.message}`);
  }

  const attempted = new Set(calls.filter((c) => c.kind === "hire").map((c) => c.body["department"]));
  const next = plannedHires(view, seed).find((r) => !attempted.has(r.option.department));
  const route = chooseRoute(view);
  const blocked = last?.kind === "hire" && /`(mode|team)`/.test(last.message);
  if (next && route && !blocked) {
    const body = {
      name: next.name,
      role: next.role,
      description: next.option.duty,
      connectorId: route.connectorId,
      model: route.model,
      department: next.option.department,
    };
    return post(api.agentsUrl, body, `Hiring a ${next.role}.`);
  }
  if (next && !route && hired.length === 0)
    return text("No connector is ready, so I cannot hire anyone yet.");

  const team = [
    ...view.directory.filter((m) => !m.self).map((m) => `${m.name} (${m.role}): continues in the role.`),
    ...hired.map(
      (h) => `${String(h.body["name"])} (${String(h.body["role"])}): ${String(h.body["description"])}`,
    ),
  ];
  const title =
    view.mode === "revising"
      ? `Revised strategy for ${view.companyName}`
      : `Strategy for ${view.companyName}`;
  return post(
    api.approvalsUrl,
    { type: "approve_ceo_strategy", title, payload: strategyText(view, team) },
    "Filing the strategy for the operator's decision.",
  );
}

/** The legacy CEO's reply when it is offered a shell and no company tools; undefined otherwise. */
export function offlineLegacyCeo(request: ScriptRequest): ScriptReply | undefined {
  const context = currentTurn(request.context);
  const offered = (context.tools ?? []).map((t) => t.name);
  if (!offered.includes("bash") || offered.includes("hire_agent")) return undefined;
  return offlineLegacyCeoScript({ context, seed: request.seed });
}
