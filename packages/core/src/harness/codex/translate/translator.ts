// Codex `exec --json` lines → AgentEvents. A Codex turn (turn.started … turn.completed) is
// one AgentEvent turn: its usage is reported once, for the whole turn. Items are keyed by id;
// an item is counted once, and an item without an id only on its completion snapshot
// (started/updated lines without an id cannot be matched to anything, MC-14).
import type { AgentEvent } from "../../../types.js";
import { retryNotice } from "./retry-notice.js";
import { runJsonl, type ByteStream, type RecordTranslator } from "../../../translators/drive.js";
import { cutMessage, interrupted, truncated } from "../../../translators/errors.js";
import { openaiUsage } from "../../../translators/usage.js";
import { compactionEventsOf, isCompactionFailure, isCompactionWarning } from "./compaction.js";
import { TOOL_ITEM_TYPES, toolInput, toolName, toolOutcome } from "./tool-items.js";
import type { CodexItem, CodexLine } from "./wire.js";

const VENDOR = "codex";

type Phase = "started" | "updated" | "completed";

interface ItemState {
  index: number;
  /** Text or reasoning received so far, to turn snapshots into deltas. */
  body: string;
  done: boolean;
}

interface Totals {
  input: number;
  cached: number;
  output: number;
}

interface CodexState {
  turn: number;
  open: boolean;
  /** Next block index in the current turn. */
  next: number;
  items: Map<string, ItemState>;
  /** Codex reports thread-cumulative totals; the previous turn's, to report increments. */
  totals: Totals | undefined;
  /**
   * The totals come from the thread's rollout (a resume's baseline, each call's record): Codex's own
   * running total may then be lower — a resumed Codex restarts from its last `token_count`, which a
   * cancelled turn's last call never reached — and a lower total is not a new thread.
   */
  fromRollout: boolean;
  sawError: boolean;
  /** This turn already reported a failed compaction (the error event and turn.failed repeat it). */
  compactionFailed: boolean;
  /** The last error line's text: turn.failed repeats it, and an error is said once. */
  lastError: string | undefined;
  /**
   * The model the endpoint said served this turn's calls, when it named another than the one asked
   * for (Codex reads OpenAI's `openai-model` response header and says "model rerouted: A -> B").
   */
  served: string | undefined;
  /** The reroute was said: Codex's own account-flagging text that follows it is no error of the run. */
  rerouted: boolean;
}

/** The codex translator, plus what a session does when it starts a new thread. */
export interface CodexTranslator extends RecordTranslator {
  /** A new thread starts its own cumulative totals: forget the old thread's (MC-9 rollover). */
  newThread(): void;
  /** The thread's cumulative totals last reported (a record for the session row; a resume's baseline is the rollout's). */
  totals(): Readonly<Record<string, number>> | undefined;
  /** A resumed thread's totals already counted (its rollout's last token_count, MC-15): increments start from them. */
  resumeFrom(totals: { input: number; cached: number; output: number }): void;
  /**
   * A running total read elsewhere (the rollout file's `token_count` after each model call): what it
   * adds to the totals counted so far becomes one usage event, so the turn.completed that follows adds
   * only what the rollout did not show yet. A total below the one counted is ignored (never counted twice).
   */
  advance(totals: { input: number; cached: number; output: number }, out: AgentEvent[]): void;
  /** One model call's own usage (the rollout's record of its response): added to the totals, one usage event. */
  addCall(usage: { input: number; cached: number; output: number }, out: AgentEvent[]): void;
}

export function codexTranslator(): CodexTranslator {
  const s: CodexState = {
    turn: 0,
    open: false,
    next: 0,
    items: new Map(),
    totals: undefined,
    fromRollout: false,
    sawError: false,
    compactionFailed: false,
    lastError: undefined,
    served: undefined,
    rerouted: false,
  };
  return {
    newThread: () => {
      s.totals = undefined;
      s.fromRollout = false;
    },
    totals: () => (s.totals ? { ...s.totals } : undefined),
    resumeFrom: (totals) => {
      s.totals = { ...totals };
      s.fromRollout = true;
    },
    addCall: (usage, out) => {
      s.fromRollout = true;
      const prev = s.totals ?? { input: 0, cached: 0, output: 0 };
      s.totals = {
        input: prev.input + usage.input,
        cached: prev.cached + usage.cached,
        output: prev.output + usage.output,
      };
      if (!isZero(usage)) out.push(usageEvent(s, usage));
    },
    advance: (totals, out) => {
      s.fromRollout = true;
      const prev = s.totals;
      if (prev !== undefined && !grewFrom(prev, totals)) return;
      s.totals = { ...totals };
      const inc = prev === undefined ? totals : minus(totals, prev);
      if (!isZero(inc)) out.push(usageEvent(s, inc));
    },
    record: (record, _line, out) => translateCodexLine(s, record as CodexLine, out),
    end(out, cut) {
      if (s.open) {
        out.push(cutMessage(cut, "turn.completed or turn.failed"));
        closeTurn(s, out, false, undefined);
      } else if (cut !== undefined) {
        out.push(truncated(cut));
      } else if (s.turn === 0 && !s.sawError) {
        out.push(cutMessage(cut, "turn.started"));
      }
    },
  };
}

export function translateCodexJsonl(input: ByteStream): AsyncGenerator<AgentEvent> {
  return runJsonl(input, codexTranslator());
}

function translateCodexLine(s: CodexState, line: CodexLine, out: AgentEvent[]): void {
  switch (line.type) {
    case "turn.started":
      if (s.open) {
        out.push(interrupted("turn.completed", "turn.started"));
        closeTurn(s, out, false, undefined);
      }
      startTurn(s, out);
      return;
    case "item.started":
    case "item.updated":
    case "item.completed":
      if (line.item !== undefined) return item(s, line.type.slice(5) as Phase, line.item, line, out);
      break;
    case "turn.completed":
      if (s.open) return closeTurn(s, out, true, line.usage);
      break;
    case "turn.failed": {
      s.sawError = true;
      if (!s.compactionFailed) compaction(s, line.error?.message ?? "", out);
      const message = line.error?.message ?? "turn failed";
      if (message !== s.lastError) out.push({ type: "error", message });
      s.lastError = undefined;
      if (s.open) closeTurn(s, out, false, undefined, "turn.failed");
      return;
    }
    case "error":
      if (aboutReroute(s, line.message ?? "")) return errorItem(s, line.message ?? "", out);
      s.sawError = true;
      compaction(s, line.message ?? "", out);
      out.push(retryNotice(line.message ?? "") ?? { type: "error", message: line.message ?? "stream error" });
      s.lastError = line.message;
      return;
  }
  // thread.started (the thread id), item.plan.delta, request_user_input, future types
  out.push({ type: "unknown", vendor: VENDOR, vendorType: String(line.type), raw: line });
}

function startTurn(s: CodexState, out: AgentEvent[]): void {
  s.turn++;
  s.open = true;
  s.next = 0;
  s.items.clear();
  s.compactionFailed = false;
  s.served = undefined;
  s.rerouted = false;
  out.push({ type: "turn_start", turn: s.turn });
}

function item(s: CodexState, phase: Phase, raw: CodexItem, line: CodexLine, out: AgentEvent[]): void {
  const id = raw.id || undefined;
  if (id === undefined && phase !== "completed") return; // no identity: only its completion counts
  const type = raw.type ?? "";
  const isText = type === "agent_message" || type === "reasoning";
  if (!isText && !TOOL_ITEM_TYPES.has(type)) {
    if (type === "error" && phase === "completed") errorItem(s, raw.message ?? "error", out);
    else out.push({ type: "unknown", vendor: VENDOR, vendorType: line.type ?? "item", raw: line }); // todo_list, plan, collab calls
    return;
  }
  if (!s.open) startTurn(s, out); // items outside turn.started … turn.completed still belong to a turn
  let st = id === undefined ? undefined : s.items.get(id);
  if (st?.done) return; // counted once
  if (st === undefined) {
    st = { index: s.next++, body: "", done: false };
    if (id !== undefined) s.items.set(id, st);
    if (isText)
      out.push(
        type === "agent_message"
          ? { type: "text_start", index: st.index }
          : { type: "thinking_start", index: st.index },
      );
    else {
      const name = toolName(raw);
      const input = toolInput(raw);
      const callId = id ?? "";
      out.push({ type: "toolcall_start", index: st.index, id: callId, name });
      out.push({ type: "toolcall_end", index: st.index, id: callId, name, input });
      out.push({ type: "tool_use", id: callId, name, input }); // Codex runs it itself: handed to execution
    }
  }
  if (isText) return textItem(type, st, raw.text ?? "", phase === "completed", out);
  if (phase !== "completed") return; // progress snapshots (growing output) are not results
  st.done = true;
  const outcome = toolOutcome(raw);
  const result: AgentEvent = {
    type: "tool_result",
    toolUseId: id ?? "",
    name: toolName(raw),
    content: outcome.content,
    isError: outcome.isError,
  };
  if (outcome.details !== undefined) result.details = outcome.details;
  out.push(result);
}

/** Codex's compaction messages become compaction events (MC-8); the error text itself is kept. */
function compaction(s: CodexState, message: string, out: AgentEvent[]): void {
  const events = compactionEventsOf(message);
  if (events.length === 0) return;
  if (isCompactionFailure(message)) s.compactionFailed = true;
  out.push(...events);
}

/** Non-fatal error items; the post-compaction warning is a finished compaction, not an error. */
function errorItem(s: CodexState, message: string, out: AgentEvent[]): void {
  if (isCompactionWarning(message)) {
    out.push(...compactionEventsOf(message));
    return;
  }
  const reroute = REROUTE.exec(message);
  if (reroute) {
    // Not an error of the run: a served model other than the declared one is a drift (MC-6), which
    // the wake says itself from the usage that names it.
    s.served = reroute[2];
    s.rerouted = true;
    return;
  }
  // Codex follows a reroute with its own explanation for ChatGPT accounts (an account "flagged for
  // high-risk cyber activity"), which says nothing true of another endpoint: the drift says what happened.
  if (s.rerouted && aboutReroute(s, message)) return;
  compaction(s, message, out);
  out.push(retryNotice(message) ?? { type: "error", message });
}

/** Codex's notice that the response named another model than the one requested. */
const REROUTE = /^model rerouted: (\S+) -> (\S+)/;

/** Codex's reroute notice, or (after one) its explanation of where the request was routed. */
function aboutReroute(s: CodexState, message: string): boolean {
  return REROUTE.test(message) || (s.rerouted && /\brouted to\b/.test(message));
}

/** One usage event; it names the model that served it when the endpoint said it was another. */
function usageEvent(s: CodexState, t: Totals): AgentEvent {
  const usage = openaiUsage(t.input, t.cached, t.output);
  return s.served !== undefined ? { type: "usage", usage, servedModel: s.served } : { type: "usage", usage };
}

/** Snapshots of a text become deltas (the new suffix); completion closes the block. */
function textItem(type: string, st: ItemState, text: string, completed: boolean, out: AgentEvent[]): void {
  if (text.length > st.body.length && text.startsWith(st.body)) {
    const delta = text.slice(st.body.length);
    st.body = text;
    out.push(
      type === "agent_message"
        ? { type: "text_delta", index: st.index, delta }
        : { type: "thinking_delta", index: st.index, delta },
    );
  }
  if (!completed) return;
  st.done = true;
  out.push(
    type === "agent_message"
      ? { type: "text_end", index: st.index, text }
      : { type: "thinking_end", index: st.index, thinking: text },
  );
}

function closeTurn(
  s: CodexState,
  out: AgentEvent[],
  completed: boolean,
  usage: CodexLine["usage"],
  vendorStopReason = completed ? "turn.completed" : undefined,
): void {
  s.open = false;
  if (usage !== undefined) {
    const total: Totals = {
      input: usage.input_tokens ?? 0,
      cached: usage.cached_input_tokens ?? 0,
      output: usage.output_tokens ?? 0,
    };
    const prev = s.totals;
    s.totals = total;
    const grew = prev !== undefined && grewFrom(prev, total);
    // Below what the rollout showed: every call of it was counted from there; Codex's total is the
    // baseline from now on (its next totals grow from it), and nothing is counted twice (MC-15).
    const lower = prev !== undefined && !grew && s.fromRollout;
    const inc = grew && prev !== undefined ? minus(total, prev) : total;
    // Nothing new since the totals the rollout already showed (advance): no second, empty usage event.
    if (!lower && !(grew && isZero(inc))) out.push(usageEvent(s, inc));
  }
  const end: AgentEvent = { type: "turn_end", turn: s.turn, stopReason: completed ? "end_turn" : "error" };
  if (vendorStopReason !== undefined) end.vendorStopReason = vendorStopReason;
  out.push(end);
}

function grewFrom(prev: Totals, total: Totals): boolean {
  return total.input >= prev.input && total.cached >= prev.cached && total.output >= prev.output;
}

function minus(total: Totals, prev: Totals): Totals {
  return {
    input: total.input - prev.input,
    cached: total.cached - prev.cached,
    output: total.output - prev.output,
  };
}

function isZero(t: Totals): boolean {
  return t.input === 0 && t.cached === 0 && t.output === 0;
}
