// MC-11: the Pi prompt timeout, the one timeout that may hand off. A model call that produces
// nothing (no stream event at all) for `ms` is aborted and ends as a failed call with our own text;
// the session recognises it by identity, never by parsing text (stderr and look-alike vendor texts
// never drive recovery). Ordinary request timeouts and network failures keep their own paths.

import {
  type AssistantMessage,
  type AssistantMessageEventStream,
  createAssistantMessageEventStream,
  type Model,
} from "@mariozechner/pi-ai";

import { promptTimeoutText } from "./constants.js";

export {
  DEFAULT_PROMPT_TIMEOUT_MS,
  promptTimeoutText,
  REHEARSAL_PROMPT_TIMEOUT,
  rehearsalPromptTimeoutOf,
} from "./constants.js";

type Stream = AssistantMessageEventStream;

function emptyMessage(model: Model<any>): AssistantMessage {
  const zero = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: zero,
    stopReason: "stop",
    timestamp: Date.now(),
  };
}

/**
 * Runs one model call under an idle watchdog. Every event re-arms it; when it fires, the call is
 * aborted through its own signal (the turn's signal is untouched) and the stream ends with a failed
 * message carrying what had streamed so far; `onTimeout` gets that message. A start that throws
 * still throws, as it would without the watchdog.
 */
export async function withPromptTimeout(
  model: Model<any>,
  ms: number,
  parent: AbortSignal | undefined,
  start: (signal: AbortSignal) => Stream | Promise<Stream>,
  onTimeout: (failed: AssistantMessage) => void,
): Promise<Stream> {
  const out = createAssistantMessageEventStream();
  const call = new AbortController();
  const onParentAbort = () => call.abort(parent?.reason);
  if (parent?.aborted) call.abort(parent.reason);
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  let partial: AssistantMessage | undefined;
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fired: () => void = () => undefined;
  const timedOut = new Promise<undefined>((resolve) => (fired = () => resolve(undefined)));
  const settle = () => {
    settled = true;
    clearTimeout(timer);
    parent?.removeEventListener("abort", onParentAbort);
  };
  const fire = () => {
    if (settled) return;
    settle();
    const failed: AssistantMessage = {
      ...(partial ?? emptyMessage(model)),
      stopReason: "error",
      errorMessage: promptTimeoutText(ms),
      timestamp: Date.now(),
    };
    onTimeout(failed);
    call.abort(new Error(failed.errorMessage));
    out.push({ type: "error", reason: "error", error: failed });
    out.end(failed);
    fired();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  };
  arm();
  let inner: Stream | undefined;
  try {
    inner = await Promise.race([Promise.resolve(start(call.signal)), timedOut]);
  } catch (error) {
    if (settled) return out;
    settle();
    throw error;
  }
  if (inner === undefined) return out; // the watchdog fired before the stream even existed
  const source = inner;
  void (async () => {
    try {
      for await (const event of source) {
        if (settled) return;
        if (event.type === "done" || event.type === "error") {
          settle(); // the call is over: a provider that ends its stream late is not a stall
          out.push(event);
          out.end(event.type === "done" ? event.message : event.error);
          return;
        }
        arm();
        if ("partial" in event) partial = event.partial;
        out.push(event);
      }
      if (settled) return;
      settle();
      out.end(await source.result());
    } catch (error) {
      if (settled) return;
      settle();
      // A pi-ai stream never throws; should one, it still ends as a failed call, never a hang.
      const failed: AssistantMessage = {
        ...(partial ?? emptyMessage(model)),
        stopReason: "error",
        errorMessage: error instanceof Error ? error.message : String(error),
      };
      out.push({ type: "error", reason: "error", error: failed });
      out.end(failed);
    }
  })();
  return out;
}
