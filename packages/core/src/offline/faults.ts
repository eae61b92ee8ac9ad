// Failure rehearsal for operators (`--faults` on the offline connector). Each fault is injected at
// the provider boundary — around the scripted model's stream function, which answers both the
// agent's calls and Pi's own compaction-summary requests — and looks exactly like the vendor failure
// pi-ai would surface: an assistant message with stopReason "error" and the vendor SDK's own text,
// or, for `compact-empty-summary`, a summary reply with no text. Nothing in the session knows a
// rehearsal is running: it sees a provider misbehave and applies its rules (MC-9..MC-11).
//
// Each fault fires once, at its first opportunity, in the order listed. Core knows no product tool:
// which tools count as side effects (for `overflow-after-tool`) is the caller's to say.

import type { StreamFn } from "@mariozechner/pi-agent-core";
import {
  type AssistantMessage,
  type AssistantMessageEventStream,
  type Context,
  createAssistantMessageEventStream,
  type Model,
  type Usage as PiUsage,
} from "@mariozechner/pi-ai";
import { InternalError, UserInputError } from "../errors.js";
import { REHEARSAL_PROMPT_TIMEOUT } from "../harness/pi/prompt-timeout.js";
import { isSummaryRequest } from "../harness/pi/summary-request.js";

export const FAULT_NAMES = Object.freeze([
  "overflow-before-output",
  "overflow-after-tool",
  "compact-empty-summary",
  "compact-overloaded",
  "timeout",
  "stream-cut",
  "prompt-timeout",
] as const);

export type FaultName = (typeof FAULT_NAMES)[number];

/** The Pi prompt timeout a `prompt-timeout` rehearsal runs with (the default is ten minutes). */
export const REHEARSAL_PROMPT_TIMEOUT_MS = 1_000;

/** What each fault does, for help texts. */
export const FAULT_DESCRIPTIONS: Readonly<Record<FaultName, string>> = Object.freeze({
  "overflow-before-output": "the first model call fails with an explicit context overflow before any output",
  "overflow-after-tool":
    "the model call right after the first successful side-effecting tool call fails with a context overflow",
  "compact-empty-summary":
    "the window fills up; Pi's compaction at the end of the turn gets an empty summary from the model",
  "compact-overloaded":
    "the window fills up; Pi's compaction at the end of the turn fails with 529 overloaded",
  timeout: "the first model call times out (an ordinary request timeout: report only)",
  "stream-cut": "the first model call's stream ends mid-message",
  "prompt-timeout": `the first model call stalls; the Pi prompt timeout (${REHEARSAL_PROMPT_TIMEOUT_MS / 1000} s in rehearsal) aborts it and the next send hands off`,
});

/** Parses `--faults LIST` (comma-separated). Unknown or empty names are refused with the allowed ones. */
export function parseFaultList(list: string): FaultName[] {
  const names = list.split(",").map((n) => n.trim());
  const out: FaultName[] = [];
  for (const name of names) {
    if (!(FAULT_NAMES as readonly string[]).includes(name)) {
      throw new UserInputError(
        `unknown fault "${name}"; allowed: ${FAULT_NAMES.join(", ")} (comma-separated)`,
        { faults: `one of ${FAULT_NAMES.join(", ")}` },
      );
    }
    if (!out.includes(name as FaultName)) out.push(name as FaultName);
  }
  return out;
}

// The vendor's own texts, as pi-ai surfaces them (Anthropic SDK: "STATUS {json body}").
const REQUEST_ID = "req_cadre_fault_rehearsal";
export const OVERLOADED_529 = `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"${REQUEST_ID}"}`;
export const REQUEST_TIMED_OUT = "Request timed out.";
export const STREAM_ENDED = "Anthropic stream ended before message_stop";

export function overflowText(contextWindow: number): string {
  const tokens = contextWindow + 1_873;
  return `400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: ${tokens} tokens > ${contextWindow} maximum"},"request_id":"${REQUEST_ID}"}`;
}

/** Fill reported by the provider while the window still holds the first request's opening message. */
const FILL = 0.95;

const ZERO: PiUsage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function failedMessage(
  model: Model<any>,
  errorMessage: string,
  content: AssistantMessage["content"] = [],
  usage: PiUsage = ZERO,
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage,
    stopReason: "error",
    errorMessage,
    timestamp: Date.now(),
  };
}

/** A request refused before the stream started: pi-ai pushes the error and nothing else. */
function refused(model: Model<any>, text: string): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  const message = failedMessage(model, text);
  stream.push({ type: "error", reason: "error", error: message });
  stream.end(message);
  return stream;
}

function openingText(context: Context): string | undefined {
  const first = context.messages[0];
  if (!first || first.role !== "user") return undefined;
  return typeof first.content === "string"
    ? first.content
    : first.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** The request's last message is a successful result of one of `tools`. */
function afterSuccessOf(context: Context, tools: ReadonlySet<string>): boolean {
  const last = context.messages.at(-1);
  return last !== undefined && last.role === "toolResult" && tools.has(last.toolName) && !last.isError;
}

export interface FaultedProvider {
  /** The provider with the faults in front of it: agent calls and Pi's summary requests alike. */
  streamFn: StreamFn;
  /** Faults that fired so far, in order. */
  fired(): FaultName[];
}

export interface FaultTarget {
  streamFn: StreamFn;
  /**
   * Tools whose success is a side effect a replay would repeat (a company names its hire tool):
   * `overflow-after-tool` fires on the call right after the first successful one. Required for it.
   */
  sideEffectTools?: readonly string[];
}

export function injectFaults(faults: readonly FaultName[], provider: FaultTarget): FaultedProvider {
  const sideEffects = new Set(provider.sideEffectTools ?? []);
  // Our bug, not the operator's: the rehearsal would otherwise never fire and pass silently.
  if (faults.includes("overflow-after-tool") && sideEffects.size === 0)
    throw new InternalError("the overflow-after-tool fault needs the caller's side-effecting tool names");
  const pending = new Set<FaultName>(faults);
  const fired: FaultName[] = [];
  const fillsWindow = faults.includes("compact-empty-summary") || faults.includes("compact-overloaded");
  let opening: string | undefined;
  let calls = 0;
  // A compaction fault holds for the summary requests of the compaction it hit (a split turn makes two).
  let compacting: FaultName | undefined;

  const take = (name: FaultName): boolean => {
    if (!pending.has(name)) return false;
    pending.delete(name);
    fired.push(name);
    return true;
  };

  const streamFn: StreamFn = async (model, context, options) => {
    if (isSummaryRequest(context)) {
      if (compacting === undefined) {
        compacting = faults.find(
          (name) => (name === "compact-empty-summary" || name === "compact-overloaded") && take(name),
        );
        // Pi sends a compaction's summary requests together (history and split-turn prefix): the
        // fault holds for those, and a later compaction (Pi's retry) meets a healthy provider.
        queueMicrotask(() => (compacting = undefined));
      }
      if (compacting === "compact-empty-summary") return emptySummary(model);
      if (compacting === "compact-overloaded") return refused(model, OVERLOADED_529);
      return provider.streamFn(model, context, options);
    }
    if (calls++ === 0) opening = openingText(context);
    for (const name of faults) {
      if (!pending.has(name)) continue;
      if (name === "overflow-before-output" && take(name))
        return refused(model, overflowText(model.contextWindow));
      if (name === "overflow-after-tool" && afterSuccessOf(context, sideEffects) && take(name))
        return refused(model, overflowText(model.contextWindow));
      if (name === "timeout" && take(name)) return refused(model, REQUEST_TIMED_OUT);
      if (name === "stream-cut" && take(name))
        return cut(model, await provider.streamFn(model, context, options));
      if (name === "prompt-timeout" && take(name)) return stalled(model, options?.signal);
    }
    const inner = await provider.streamFn(model, context, options);
    // The compaction faults need a full window: until a compaction or a rollover replaces the
    // opening message, the provider reports the window 95% full (a big pasted document would).
    if (!fillsWindow || opening === undefined || openingText(context) !== opening) return inner;
    return filled(inner, Math.floor(FILL * model.contextWindow));
  };

  // A stall is only a failure once the session's prompt timeout gives up on it: rehearse it fast.
  if (faults.includes("prompt-timeout"))
    Object.defineProperty(streamFn, REHEARSAL_PROMPT_TIMEOUT, { value: REHEARSAL_PROMPT_TIMEOUT_MS });
  return { streamFn, fired: () => [...fired] };
}

/** A summary reply that arrives normally and says nothing: Pi would store it as the summary. */
function emptySummary(model: Model<any>): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  const message: AssistantMessage = {
    ...failedMessage(model, ""),
    content: [{ type: "text", text: "" }],
    stopReason: "stop",
  };
  delete message.errorMessage;
  stream.push({ type: "start", partial: { ...message, content: [] } });
  stream.push({ type: "done", reason: "stop", message });
  stream.end(message);
  return stream;
}

/** A provider that accepted the request and then says nothing at all, until the call is aborted. */
function stalled(model: Model<any>, signal: AbortSignal | undefined): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  const abort = () => {
    const message: AssistantMessage = {
      ...failedMessage(model, "Request was aborted"),
      stopReason: "aborted",
    };
    stream.push({ type: "error", reason: "aborted", error: message });
    stream.end(message);
  };
  if (signal?.aborted) abort();
  else signal?.addEventListener("abort", abort, { once: true });
  return stream;
}

/** Passes a stream through, reporting `tokens` in the window on its final message. */
function filled(inner: AssistantMessageEventStream, tokens: number): AssistantMessageEventStream {
  const out = createAssistantMessageEventStream();
  const pad = (message: AssistantMessage): AssistantMessage => {
    const read = message.usage.input + message.usage.cacheRead + message.usage.cacheWrite;
    const cacheRead = message.usage.cacheRead + Math.max(0, tokens - read);
    return {
      ...message,
      usage: {
        ...message.usage,
        cacheRead,
        totalTokens: message.usage.totalTokens + (cacheRead - message.usage.cacheRead),
      },
    };
  };
  void (async () => {
    for await (const event of inner) {
      if (event.type === "done") out.push({ ...event, message: pad(event.message) });
      else if (event.type === "error") out.push({ ...event, error: pad(event.error) });
      else out.push(event);
    }
    out.end();
  })();
  return out;
}

/** The stream starts, a first text delta arrives, then the connection ends before the message does. */
function cut(model: Model<any>, inner: AssistantMessageEventStream): AssistantMessageEventStream {
  const out = createAssistantMessageEventStream();
  void (async () => {
    const whole = await inner.result();
    const text = whole.content.find((b) => b.type === "text")?.text ?? "";
    const half = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    const partial: AssistantMessage = {
      ...whole,
      content: [],
      usage: { ...whole.usage, output: 0 },
      stopReason: "stop",
    };
    out.push({ type: "start", partial });
    if (text !== "") {
      const started: AssistantMessage = { ...partial, content: [{ type: "text", text: "" }] };
      out.push({ type: "text_start", contentIndex: 0, partial: started });
      out.push({
        type: "text_delta",
        contentIndex: 0,
        delta: half,
        partial: { ...partial, content: [{ type: "text", text: half }] },
      });
    }
    const failed = failedMessage(
      model,
      STREAM_ENDED,
      text === "" ? [] : [{ type: "text", text: half }],
      partial.usage,
    );
    out.push({ type: "error", reason: "error", error: failed });
    out.end(failed);
  })();
  return out;
}
