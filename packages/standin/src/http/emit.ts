// Writes one response: a JSON body or a stream of SSE events, with the latency and the mid-response
// faults a reply asked for (reset the connection, end early, stall, or an in-stream error event).
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Latency, StreamCut } from "../types.js";
import { type SseFrame, serialiseFrame } from "./sse.js";

export interface EmitPlan {
  status: number;
  headers: Record<string, string>;
  /** A JSON body, or… */
  json?: unknown;
  /** …the events of a stream. */
  events?: SseFrame[];
  latency?: Latency;
  cut?: StreamCut;
  /** The in-stream error events for `cut.then === "error"`. */
  failure?: SseFrame[];
}

/** Resolves false when the wait was cut short by the client or the server going away. */
async function wait(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (!ms || ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Resolves once the chunk is handed to the socket, so a reset after it cannot swallow it. */
function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => res.write(chunk, () => resolve()));
}

async function stop(res: ServerResponse, cut: StreamCut, failure: SseFrame[], signal: AbortSignal) {
  if (cut.then === "reset") res.destroy();
  else if (cut.then === "hang") await untilAborted(signal);
  else {
    if (cut.then === "error") for (const f of failure) await write(res, serialiseFrame(f));
    res.end();
  }
}

export async function emit(res: ServerResponse, plan: EmitPlan, signal: AbortSignal): Promise<void> {
  if (!(await wait(plan.latency?.firstByteMs, signal))) return;
  const { cut } = plan;
  if (plan.events) {
    res.writeHead(plan.status, {
      ...plan.headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    for (const [i, frame] of plan.events.entries()) {
      if (cut && i === cut.afterEvents) return stop(res, cut, plan.failure ?? [], signal);
      if (i > 0 && !(await wait(plan.latency?.perEventMs, signal))) return;
      await write(res, serialiseFrame(frame));
    }
    // A cut at (or past) the last event still happens: after everything, instead of a clean end.
    if (cut) return stop(res, cut, plan.failure ?? [], signal);
    res.end();
    return;
  }
  const body = JSON.stringify(plan.json ?? null);
  if (cut) {
    res.writeHead(plan.status, { ...plan.headers, "content-type": "application/json" });
    if (cut.afterEvents > 0) await write(res, body.slice(0, Math.floor(body.length / 2)));
    return stop(res, cut, [], signal);
  }
  res.writeHead(plan.status, {
    ...plan.headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
  });
  res.end(body);
}
