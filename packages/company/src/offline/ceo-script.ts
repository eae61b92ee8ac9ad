// The offline CEO: a deterministic script (see @cadre/core's scripted model) that behaves the way
// a good model behaves under our prompts. It reads the phase, goal, connectors and directory from
// the system prompt, acts only through the tools it is offered, reads every tool result, and
// adapts to refusals. Seeded variation (team size 3–5, role wording) makes samples differ.
// The offline connector's model is core's scripted model (`@cadre/core/offline`); this is its script.
import { between, pick, type Script, type ScriptReply, seededRandom } from "@cadre/core/offline";
import { currentTurn, type PromptView, readPrompt, type ToolCallRecord, toolHistory } from "./read-prompt.js";
import { rankRoles, type RoleOption } from "./roles.js";
import { ceoOperating, memberOperating } from "./operating-script.js";
import { replyToOperatorMessage } from "./operator-reply.js";

const MAX_TOOL_CALLS = 16;
/** The low end of the "three to five roles" the team-building document calls reasonable. */
const MIN_TEAM = 3;

function text(t: string): ScriptReply {
  return { content: [{ type: "text", text: t }] };
}

function call(name: string, args: Record<string, unknown>, say: string): ScriptReply {
  return {
    content: [
      { type: "text", text: say },
      { type: "toolCall", name, arguments: args },
    ],
  };
}

interface Plan {
  roles: Array<{ option: RoleOption; name: string; role: string }>;
}

export function planTeam(view: PromptView, seed: number | string): Plan {
  const random = seededRandom(`${seed}:team`);
  const size = between(random, 3, 5);
  const taken = new Set(view.directory.filter((m) => !m.self).map((m) => m.department));
  const wanted = rankRoles(`${view.goal} ${view.operatorNote ?? ""}`).filter((r) => !taken.has(r.department));
  const existing = view.directory.filter((m) => !m.self).length;
  const count = Math.max(0, size - existing);
  return {
    roles: wanted.slice(0, count).map((option) => {
      const [name, role] = pick(random, option.wordings);
      return { option, name, role };
    }),
  };
}

/** The first ready connector and its first model, unless a refusal told us otherwise. */
export function chooseRoute(view: PromptView): { connectorId: string; model: string } | undefined {
  const ready = view.connectors.find((c) => c.ready && c.models.length > 0);
  return ready ? { connectorId: ready.id, model: ready.models[0] as string } : undefined;
}

function afterColon(message: string, label: string): string[] {
  const m = new RegExp(`${label}: ([^;.]+?)(?:[;.]|$)`).exec(message);
  return m
    ? (m[1] as string)
        .split(", ")
        .map((s) => s.trim())
        .filter((s) => s && s !== "none")
    : [];
}

/** Adjusts the last refused hire from what the refusal says; undefined = give up on that role. */
export function repairHire(last: ToolCallRecord, view: PromptView): Record<string, unknown> | undefined {
  const args = { ...last.arguments };
  const message = last.resultText;
  if (message.includes("`model`")) {
    const allowed = afterColon(message, "allowed");
    if (allowed.length === 0) return undefined;
    args["model"] = allowed[0];
    return args;
  }
  if (message.includes("`connectorId`")) {
    const ready = afterColon(message, "ready connectors");
    const next = view.connectors.find((c) => ready.includes(c.id) && c.models.length > 0);
    if (!next) return undefined;
    return { ...args, connectorId: next.id, model: next.models[0] };
  }
  if (message.includes("`name`"))
    return {
      ...args,
      name: `${String(args["name"])} (${String(args["department"] ?? "lead")})`.slice(0, 50),
    };
  return undefined;
}

export function strategyText(view: PromptView, team: string[]): string {
  const lines = [
    `# Strategy for ${view.companyName}`,
    "",
    `Goal: ${view.goal || "to be refined with the operator"}`,
    "",
    "## Team and first responsibilities",
    ...team.map((t) => `- ${t}`),
    "",
    "## First milestones",
    "- Agree the plan with each lead and set their first deliverable.",
    "- Ship a first version the earliest customers can use, and learn from them.",
    "- Review progress with the operator and adjust the team if the goal needs it.",
  ];
  if (view.operatorNote)
    lines.push("", "## Changes in answer to the operator's note", `- ${view.operatorNote}`);
  return lines.join("\n");
}

/** The offline CEO under the semantic profile (a profile's own offline CEO goes first: profiles/offline-ceo-script.ts). */
export const semanticCeoScript: Script = (request) => {
  const { seed } = request;
  const context = currentTurn(request.context);
  const view = readPrompt(context);
  const history = toolHistory(context.messages);
  const last = history.at(-1);
  const lastMessage = context.messages.at(-1);
  const hires = history.filter((h) => h.name === "hire_agent" && h.ok);
  const filed = history.find((h) => h.name === "file_approval" && h.ok);
  const canHire = view.tools.includes("hire_agent");
  const canFile = view.tools.includes("file_approval");

  // The operator wrote: answered first, in every mode; then the mode's own work goes on.
  const answer = replyToOperatorMessage(view, context);
  if (answer) return answer;
  if (filed)
    return text(
      `I filed the strategy for the operator's decision with a team of ${view.directory.filter((m) => !m.self).length + hires.length} leads. I will continue once it is decided.`,
    );
  if (history.length >= MAX_TOOL_CALLS)
    return text(
      "I stopped here: too many of my requests were refused. The operator should review the connectors and limits.",
    );
  if (lastMessage?.role === "toolResult" && last?.name === "file_approval" && !last.ok)
    return text(`The strategy could not be filed: ${last.resultText}`);

  switch (view.mode) {
    case "awaiting-approval":
      return text("My strategy is with the operator. I will not hire or file anything until it is decided.");
    case "operating":
      return ceoOperating({ ...request, context }, view);
    case undefined:
      return text("I could not find my phase instructions in the system prompt, so I will not act.");
    default:
      break;
  }

  // team-building, strategy-drafting, revising
  const plan = planTeam(view, seed);
  const needsHires =
    view.mode === "team-building" ||
    (view.mode === "revising" && plan.roles.length > 0 && Boolean(view.operatorNote));
  // Drafting a strategy with a team below the smallest reasonable size (three), a model fills the
  // roles the goal clearly needs first; a hire it cannot make there is no reason not to file.
  const missing = Math.max(0, MIN_TEAM - view.directory.filter((m) => !m.self).length);
  const instructed =
    view.mode === "strategy-drafting"
      ? canHire
        ? plan.roles.slice(0, missing)
        : []
      : needsHires
        ? plan.roles
        : [];
  // Instructions that never say to hire (a mode document that lost its hiring step) leave a model
  // with a tool but no reason to build a team: it hires the one lead it cannot file without.
  const planned = view.hiringInstructed
    ? instructed
    : view.mode === "team-building" && canHire
      ? plan.roles.slice(0, 1)
      : [];
  if (planned.length > 0 && !canHire)
    return text("I need to hire my team, but no way to hire is available to me in this session.");

  // Retry a refused hire once the refusal says how.
  if (lastMessage?.role === "toolResult" && last?.name === "hire_agent" && !last.ok) {
    const attempts = history.filter(
      (h) => h.name === "hire_agent" && h.arguments["department"] === last.arguments["department"],
    ).length;
    const stop = /`(mode|team|agent)`/.test(last.resultText);
    const repaired = !stop && attempts < 3 ? repairHire(last, view) : undefined;
    if (repaired) return call("hire_agent", repaired, `That hire was refused; correcting it.`);
    if (stop && hires.length === 0 && view.mode === "team-building")
      return text(`I cannot hire right now: ${last.resultText}`);
  }

  const attempted = new Set(
    history.filter((h) => h.name === "hire_agent").map((h) => h.arguments["department"]),
  );
  const next = planned.find((r) => !attempted.has(r.option.department));
  const route = chooseRoute(view);
  if (next && route && !(last && !last.ok && /`(mode|team)`/.test(last.resultText))) {
    return call(
      "hire_agent",
      {
        name: next.name,
        role: next.role,
        description: next.option.duty,
        connectorId: route.connectorId,
        model: route.model,
        department: next.option.department,
      },
      `Hiring a ${next.role}.`,
    );
  }
  if (next && !route && hires.length === 0)
    return text(
      "No connector is ready, so I cannot hire anyone yet. The operator needs to make a connector ready.",
    );

  if (!canFile)
    return text("My team is in place, but no way to file the strategy is available to me in this session.");
  const team = [
    ...view.directory.filter((m) => !m.self).map((m) => `${m.name} (${m.role}): continues in the role.`),
    ...hires.map(
      (h) =>
        `${String(h.arguments["name"])} (${String(h.arguments["role"])}): ${String(h.arguments["description"])}`,
    ),
  ];
  return call(
    "file_approval",
    {
      type: "approve_ceo_strategy",
      title:
        view.mode === "revising"
          ? `Revised strategy for ${view.companyName}`
          : `Strategy for ${view.companyName}`,
      payload: strategyText(view, team),
    },
    "Filing the strategy for the operator's decision.",
  );
};

/** The offline member agent: works the tasks assigned to it, through the task tools. */
export const offlineMemberScript: Script = (request) => {
  // A session lives across wakes: the member reads this wake's turn (its cue, briefing, results).
  const turn = { ...request, context: currentTurn(request.context) };
  return memberOperating(turn, readPrompt(turn.context));
};
