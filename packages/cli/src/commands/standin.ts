// `cadre standin`: a stand-in model server on loopback (@cadre/standin), for pointing Cadre's
// connectors, Claude Code or Codex at an offline model that answers by script. It says what it
// is on every line it prints, and logs one line per request to stderr until SIGINT/SIGTERM.
import {
  echo,
  hireLeads,
  loadPolicyFile,
  type LoggedRequest,
  type Policy,
  PolicyFileError,
  startStandin,
  toolNames,
} from "@cadre/standin";
import { parse } from "../args.js";
import { type CliIO, UsageError } from "../io.js";
import { untilSignal } from "../until-signal.js";

export const STANDIN_HELP = `Usage: cadre standin [--port N] [--policy hire-leads|echo|FILE.json] [--connector ID --model M]
                     [--log FILE] [--latency-ms N] [--context-window N] [--models ID,…]

Starts a stand-in model server on 127.0.0.1: offline, scripted answers, not a real model. It
says so on the wire — every response carries the x-cadre-standin header, every id it makes starts
with standin_, its model list names it as the models' owner — so \`cadre eval\` counts its answers
as scripted on any connector kind (behaviour not measured). It speaks the vendors' real wire
protocols, so any client can be pointed at it:
  Anthropic Messages        POST /v1/messages (SSE or JSON), /v1/messages/count_tokens
  OpenAI Chat Completions   POST /v1/chat/completions, GET /v1/models
  OpenAI Responses          POST /v1/responses (what Codex speaks)
Usage numbers are counted (o200k tokens of the request and the reply) with a simulated prompt
cache. Prints the URL and the base URLs to use, then one line per request on stderr (wire, model,
tools offered, what it answered). Stops on SIGINT or SIGTERM.

Options:
  --port N             port to listen on (default 0: a free port)
  --policy P           how it answers (default hire-leads):
                         hire-leads  a team-building CEO: hires a CTO, a Head of Product and a Head
                                     of Sales through any offered tool ending in hire_agent, files
                                     the strategy through one ending in file_approval, then stops;
                                     says so in text when no such tool is offered
                         echo        answers with the last user text (or tool results)
                         FILE.json   a list of scripted replies, one per model call, e.g.
                                     ["Hello", {"content": [{"type": "tool_call", "name": "hire_agent",
                                     "input": {…}}]}, {"type": "error", "error": {"kind": "rate_limit"},
                                     "retryAfterSeconds": 1}, {"type": "hang"}]
                                     (see packages/standin/README.md for every field)
  --connector ID       hire-leads: hire on this connector (default: the prompt's first ready one)
  --model M            hire-leads: with this model (needs --connector; default: its first model)
  --log FILE           also append every request, as one JSON line, to FILE
  --latency-ms N       wait N ms before the first byte of every answer
  --context-window N   refuse longer prompts with the vendor's context-overflow error
  --models ID,…        serve (and list) only these model ids; others get the vendor's 404
  -h, --help           this help

Example: cadre standin --port 8787, then ANTHROPIC_BASE_URL=http://127.0.0.1:8787 for Claude
Code or the Anthropic SDK, or http://127.0.0.1:8787/v1 as an openai-compatible connector's
--base-url or a Codex model provider's base_url (wire_api = "responses").`;

function wholeNumber(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > max)
    throw new UsageError(`standin: ${flag} must be a whole number from 0 to ${max} (got "${value}")`);
  return Number(value);
}

async function policyOf(
  name: string,
  connector?: string,
  model?: string,
): Promise<{ policy: Policy; label: string }> {
  if (name !== "hire-leads" && (connector || model))
    throw new UsageError("standin: --connector and --model apply to --policy hire-leads only");
  if (model && !connector)
    throw new UsageError("standin: --model needs --connector (the connector it is enabled on)");
  if (name === "hire-leads") {
    const label = connector
      ? `hire-leads (hires on connector ${connector}${model ? `, model ${model}` : ", its first model in the prompt"})`
      : "hire-leads (hires on the prompt's first ready connector)";
    return {
      policy: hireLeads({ ...(connector ? { connectorId: connector } : {}), ...(model ? { model } : {}) }),
      label,
    };
  }
  if (name === "echo") return { policy: echo, label: "echo" };
  if (!name.endsWith(".json"))
    throw new UsageError(
      `standin: --policy must be hire-leads, echo or a FILE.json of scripted replies (got "${name}")`,
    );
  try {
    return { policy: await loadPolicyFile(name), label: `scripted from ${name}` };
  } catch (error) {
    if (error instanceof PolicyFileError) throw new UsageError(`standin: ${error.message}`);
    throw error;
  }
}

/** One stderr line per request: what came in and what went out. */
export function requestLine(e: LoggedRequest): string {
  const head = `stand-in #${e.seq} ${e.method} ${e.path}`;
  const r = e.request;
  const what = r
    ? `${r.wire} ${r.model}${r.stream ? " stream" : ""} tools: ${toolNames(r).join(", ") || "none"}` +
      (r.tools.some((t) => t.deferred) ? ` (+${r.tools.filter((t) => t.deferred).length} deferred)` : "")
    : e.endpoint;
  const a = e.answered;
  const out =
    a?.kind === "answer"
      ? (a.blocks ?? []).map((b) => (b.name ? `${b.type} ${b.name}` : b.type)).join(" + ")
      : (a?.kind ?? "?");
  return `${head} ${what} → ${e.status || "-"} ${out}`;
}

export async function standinCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("standin", args, {
    help: { type: "boolean", short: "h" },
    port: { type: "string" },
    policy: { type: "string" },
    connector: { type: "string" },
    model: { type: "string" },
    log: { type: "string" },
    "latency-ms": { type: "string" },
    "context-window": { type: "string" },
    models: { type: "string" },
  });
  if (values.help) return (io.out(`${STANDIN_HELP}\n`), 0);
  const port = wholeNumber("--port", values.port, 65535) ?? 0;
  const latency = wholeNumber("--latency-ms", values["latency-ms"], 600_000);
  const contextWindow = wholeNumber("--context-window", values["context-window"], 100_000_000);
  const models = values.models
    ?.split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (models && models.length === 0) throw new UsageError("standin: --models needs at least one model id");
  const { policy, label } = await policyOf(values.policy ?? "hire-leads", values.connector, values.model);
  const server = await startStandin({
    policy,
    port,
    ...(values.log ? { logFile: values.log } : {}),
    ...(latency ? { latency: { firstByteMs: latency } } : {}),
    ...(contextWindow ? { contextWindow } : {}),
    ...(models ? { models } : {}),
    onRequest: (entry) => io.err(`${requestLine(entry)}\n`),
  });
  // One write, so a reader sees the whole banner at once.
  io.out(
    [
      `stand-in model server (offline: scripted answers, not a real model; every response says so: x-cadre-standin) listening on ${server.url}`,
      `policy: ${label}`,
      `Anthropic Messages (Claude Code, Anthropic SDK): ANTHROPIC_BASE_URL=${server.anthropicBaseUrl}`,
      `OpenAI Chat Completions and Responses (openai-compatible --base-url, Codex base_url): ${server.openaiBaseUrl}`,
      ...(values.log ? [`request log: ${values.log}`] : []),
      "",
    ].join("\n"),
  );
  const signal = await untilSignal();
  await server.close();
  io.err(`stand-in: ${signal}, stopped after ${server.requests.length} requests\n`);
  return 0;
}
