// A sample's tool-call sequence in path-independent words, so a candidate on the company tools can be
// compared with a legacy baseline that acted over HTTP from a shell: each call becomes the company
// action it performed (hire_agent, file_approval, …). A harness's MCP prefix is dropped; a shell
// call that is not one of the legacy write routes is how the legacy path reads, not an action, and
// is left out.
import type { Trace, TraceToolCall } from "../trace/types.js";

/** The legacy HTTP write routes (resource under /api/companies/<id>/) and the tool each one is. */
const LEGACY_ROUTES: Readonly<Record<string, string>> = {
  "POST agents": "hire_agent",
  "POST approvals": "file_approval",
};

function shellAction(command: string): string | null {
  const resource = /\/api\/companies\/[^/\s"'\\]+\/([a-z_-]+)/.exec(command)?.[1];
  if (!resource) return null;
  const method = /method:\s*\\?["']([A-Za-z]+)/.exec(command)?.[1] ?? /-X\s+([A-Za-z]+)/.exec(command)?.[1];
  return LEGACY_ROUTES[`${(method ?? "GET").toUpperCase()} ${resource}`] ?? null;
}

/** The company action a call performed, or null for a shell call that performed none. */
export function actionOf(call: Pick<TraceToolCall, "name" | "args">): string | null {
  if (call.name === "bash") {
    const command = (call.args as { command?: unknown } | null)?.command;
    return typeof command === "string" ? shellAction(command) : null;
  }
  return call.name.replace(/^mcp__.+?__/, "");
}

/**
 * The sequence of actions performed: calls that succeeded (a refused call did nothing; refusals are
 * their own dimension), consecutive repeats of one action counted once — how many hires a sample
 * made is the hire-count dimension's question.
 */
export function actionSequence(trace: Pick<Trace, "toolCalls">): string[] {
  const out: string[] = [];
  for (const call of trace.toolCalls) {
    if (!call.ok) continue;
    const action = actionOf(call);
    if (action !== null && out[out.length - 1] !== action) out.push(action);
  }
  return out;
}

/** Calls refused (ok false), and retries: a refused call followed later by a call of the same action. */
export function refusalsOf(trace: Pick<Trace, "toolCalls">): { refused: number; retries: number } {
  let refused = 0;
  let retries = 0;
  const pending = new Map<string, number>();
  for (const call of trace.toolCalls) {
    const action = actionOf(call) ?? call.name;
    const waiting = pending.get(action) ?? 0;
    if (waiting > 0) {
      retries++;
      pending.set(action, waiting - 1);
    }
    if (!call.ok) {
      refused++;
      pending.set(action, (pending.get(action) ?? 0) + 1);
    }
  }
  return { refused, retries };
}
