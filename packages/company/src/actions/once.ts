// Tool-call idempotency (MC-10 across machines). A side-effecting tool call of a run (a hire, a
// filed approval) records its result under (run, tool-call id) in the transaction of its side
// effect. The same call executed again — a retried or duplicated run, a redelivered call, on this
// machine or another — finds the record and returns it, writing nothing. Calls outside a run (the
// HTTP routes) or without an id have no key and run as they always did.
import { createHash } from "node:crypto";
import { ConflictError, type Store, type StoreQueries } from "@cadre/store";
import type { ActionResult, Actor } from "./actor.js";
import { canonicalJson } from "./canonical-json.js";

/** The call being executed, as the harness identified it (ToolContext.toolCallId). */
export interface ToolCallRef {
  toolCallId?: string;
}

interface CallKey {
  runId: string;
  toolCallId: string;
  tool: string;
  inputHash: string;
}

function callKey(actor: Actor, tool: string, input: unknown, call: ToolCallRef): CallKey | undefined {
  if (actor.runId === null || !call.toolCallId) return undefined;
  return {
    runId: actor.runId,
    toolCallId: call.toolCallId,
    tool,
    inputHash: createHash("sha256").update(canonicalJson(input)).digest("hex"),
  };
}

export interface Once<T> {
  result: ActionResult<T>;
  /** True when the result is the recorded one of an earlier execution: nothing was done now. */
  replayed: boolean;
}

/**
 * Runs `act` in one transaction and, when it succeeds, records its value under the call's key in
 * the same transaction. A refusal records nothing (it wrote nothing, and may pass on a later try).
 */
export async function runOnce<T>(
  store: Store,
  actor: Actor,
  tool: string,
  input: unknown,
  call: ToolCallRef,
  act: (tx: StoreQueries) => Promise<ActionResult<T>>,
): Promise<Once<T>> {
  const key = callKey(actor, tool, input, call);
  if (!key) return { result: await store.transaction(act), replayed: false };
  try {
    return await store.transaction(async (tx): Promise<Once<T>> => {
      const done = await tx.getToolCall(key.runId, key.toolCallId);
      if (done) return { result: recorded<T>(key, done), replayed: true };
      const result = await act(tx);
      if (result.ok) await tx.insertToolCall({ ...key, result: result.value });
      return { result, replayed: false };
    });
  } catch (error) {
    // A concurrent execution of the same call committed first (PostgreSQL, several machines): the
    // key refused our record and our side effect rolled back with it. Its result is the answer.
    if (!(error instanceof ConflictError)) throw error;
    const done = await store.getToolCall(key.runId, key.toolCallId);
    if (!done) throw error;
    return { result: recorded<T>(key, done), replayed: true };
  }
}

/** The earlier execution's result; a refusal when the id was used by another call (a harness bug). */
function recorded<T>(
  key: CallKey,
  done: { tool: string; inputHash: string; result: unknown },
): ActionResult<T> {
  if (done.tool === key.tool && done.inputHash === key.inputHash)
    return { ok: true, value: done.result as T };
  const why = `"${key.toolCallId}" was already used in this run by another ${done.tool === key.tool ? `${done.tool} call with other arguments` : `tool (${done.tool})`}; tool-call ids are unique per call`;
  return {
    ok: false,
    message: `${key.tool} was not run, nothing was written. \`toolCallId\` ${why}.`,
    fields: { toolCallId: why },
  };
}
