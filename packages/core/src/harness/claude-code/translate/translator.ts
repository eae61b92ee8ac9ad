// Claude Code stream-json lines → AgentEvents.
//
// One model call reaches us in up to two copies: `stream_event` partials (raw Anthropic
// events, with --include-partial-messages) and `assistant` lines (one per finished content
// block, all sharing the call's message.id, each repeating its usage). Lines that share a
// message.id are one message: their blocks are numbered in order, their usage is counted once
// (at the message's end). When partials carry a message, they produce its events and the
// lines' copies of the same blocks produce none.
import type { AgentEvent } from "../../../types.js";
import {
  createAnthropicState,
  endAnthropic,
  failOpenMessage,
  translateAnthropicEvent,
  type AnthropicState,
} from "../../../translators/anthropic-sse/events.js";
import { cutMessage, interrupted } from "../../../translators/errors.js";
import { anthropicStopReason } from "../../../translators/anthropic-sse/stop-reason.js";
import type { AnthropicEvent, AnthropicUsage } from "../../../translators/anthropic-sse/wire.js";
import { runJsonl, type ByteStream, type RecordTranslator } from "../../../translators/drive.js";
import { anthropicUsage } from "../../../translators/usage.js";
import { emitWholeBlock } from "./blocks.js";
import {
  closeOpenCompaction,
  compactBoundary,
  compactionStatus,
  type CompactionState,
  settleReportedSuccess,
} from "./compaction.js";
import { toolResultContent } from "./tool-result.js";
import type { ClaudeCodeLine } from "./wire.js";

const VENDOR = "claude-code";

interface Message {
  id: string;
  /** Its events come from stream_event partials (the Anthropic state), not from the lines. */
  viaPartials: boolean;
  /** The partials' message_stop has closed it. */
  ended: boolean;
  /** Blocks of this message seen in assistant lines so far: the index of the next one. */
  cursor: number;
  usage: AnthropicUsage | undefined;
  stopReason: string | null;
  calledTool: boolean;
}

interface ClaudeCodeState extends CompactionState {
  /** Translates partials; its turn counter numbers line-built messages too. */
  anth: AnthropicState;
  current: Message | undefined;
  /** tool_use id → tool name, so a tool_result can name its tool. */
  toolNames: Map<string, string>;
  /** A result line closed the last run; nothing is pending. */
  settled: boolean;
  /** Partials of a message whose lines came first are duplicates: skipped until its message_stop. */
  skipPartialsOf: string | undefined;
  /** The last API failure reported (its synthetic message): the error result repeating it is not a second error. */
  lastApiError: string | undefined;
}

export function claudeCodeTranslator(): RecordTranslator {
  const s: ClaudeCodeState = {
    anth: createAnthropicState(VENDOR),
    current: undefined,
    toolNames: new Map(),
    settled: false,
    skipPartialsOf: undefined,
    compacting: false,
    lastApiError: undefined,
  };
  return {
    record: (record, _line, out) => translateClaudeCodeLine(s, record as ClaudeCodeLine, out),
    end: (out, cut) => endClaudeCode(s, out, cut),
  };
}

export function translateClaudeCodeJsonl(input: ByteStream): AsyncGenerator<AgentEvent> {
  return runJsonl(input, claudeCodeTranslator());
}

function translateClaudeCodeLine(s: ClaudeCodeState, line: ClaudeCodeLine, out: AgentEvent[]): void {
  // A compaction reported successful waits for its boundary; the init line may come between them.
  const waitsForBoundary =
    line.type === "system" &&
    (line.subtype === "compact_boundary" || line.subtype === "init" || line.subtype === "status");
  if (!waitsForBoundary) settleReportedSuccess(s, out);
  switch (line.type) {
    case "stream_event":
      s.settled = false;
      if (line.event !== undefined) return partial(s, line.event, out);
      break;
    case "assistant":
      s.settled = false;
      return assistant(s, line, out);
    case "user":
      s.settled = false;
      return user(s, line, out);
    case "result":
      return result(s, line, out);
    case "system":
      if (line.subtype === "compact_boundary") {
        closeCurrent(s, out);
        return compactBoundary(s, line, out);
      }
      if (line.subtype === "api_retry") return void out.push(retrying(line));
      if (line.subtype === "status") {
        if (line.status === "compacting" || line.compact_result !== undefined) closeCurrent(s, out);
        if (compactionStatus(s, line, out)) return;
      }
      break;
  }
  out.push(unknown(line.subtype ? `${line.type}:${line.subtype}` : String(line.type), line));
}

function partial(s: ClaudeCodeState, ev: AnthropicEvent, out: AgentEvent[]): void {
  if (ev.type === "message_start") {
    const id = ev.message?.id ?? "";
    if (s.current?.id === id && !s.current.viaPartials) {
      s.skipPartialsOf = id;
      return;
    }
    s.skipPartialsOf = undefined;
    closeCurrent(s, out);
    translateAnthropicEvent(s.anth, ev, out);
    s.current = {
      id,
      viaPartials: true,
      ended: false,
      cursor: 0,
      usage: undefined,
      stopReason: null,
      calledTool: false,
    };
    return;
  }
  if (s.skipPartialsOf !== undefined) {
    if (ev.type === "message_stop") s.skipPartialsOf = undefined;
    return;
  }
  translateAnthropicEvent(s.anth, ev, out);
  if (ev.type === "message_stop" && s.current?.viaPartials) s.current.ended = true;
}

function assistant(s: ClaudeCodeState, line: ClaudeCodeLine, out: AgentEvent[]): void {
  const msg = line.message;
  if (msg?.model === "<synthetic>") return synthetic(s, line, out);
  const id = msg?.id ?? "";
  let m = s.current;
  if (m !== undefined && m.id !== id) {
    closeCurrent(s, out);
    m = undefined;
  }
  if (m === undefined) {
    s.anth.turn++;
    const start: AgentEvent = { type: "turn_start", turn: s.anth.turn };
    if (id) start.messageId = id;
    if (msg?.model) start.model = msg.model;
    out.push(start);
    m = s.current = {
      id,
      viaPartials: false,
      ended: false,
      cursor: 0,
      usage: undefined,
      stopReason: null,
      calledTool: false,
    };
  }
  const blocks = Array.isArray(msg?.content) ? msg.content : [];
  for (const b of blocks) {
    const index = m.cursor++;
    if (b.type === "tool_use" && b.id) s.toolNames.set(b.id, b.name ?? "");
    if (m.viaPartials && s.anth.blocks[index] !== undefined) continue; // the partials' copy already made its events
    if (m.ended) {
      // Partials closed the message without this block: carried rather than added after turn_end.
      out.push(unknown("assistant_block_after_message_stop", b));
      continue;
    }
    if (b.type === "tool_use") m.calledTool = true;
    if (!emitWholeBlock(b, index, out)) out.push(unknown(String(b.type), b));
  }
  if (!m.viaPartials) {
    if (msg?.usage) m.usage = msg.usage; // each line repeats the message's usage: keep the latest, count once
    if (msg?.stop_reason) m.stopReason = msg.stop_reason;
  }
}

/** Claude Code's own messages (model "<synthetic>"): API failures become errors, not model calls. */
function synthetic(s: ClaudeCodeState, line: ClaudeCodeLine, out: AgentEvent[]): void {
  closeCurrent(s, out);
  if (line.error === undefined && line.isApiErrorMessage !== true) {
    out.push(unknown("assistant:synthetic", line));
    return;
  }
  const content = line.message?.content;
  const text = Array.isArray(content) ? content.map((b) => b.text ?? "").join("") : (content ?? "");
  const error: AgentEvent = { type: "error", message: text || line.error || "API error" };
  if (line.error) error.code = line.error;
  s.lastApiError = error.message;
  out.push(error);
}

/** Claude Code retries a model request: said as it happens, with the provider's status. */
function retrying(line: ClaudeCodeLine): AgentEvent {
  const attempt = line.attempt ?? 0;
  const of = line.max_retries !== undefined ? ` of ${line.max_retries}` : "";
  const answer =
    typeof line.error_status === "number"
      ? `the provider answered ${line.error_status}${line.error ? ` (${line.error})` : ""}`
      : `the provider could not be reached${line.error ? ` (${line.error})` : ""}`;
  const delay =
    line.retry_delay_ms !== undefined ? `; next try in ${(line.retry_delay_ms / 1000).toFixed(1)} s` : "";
  return {
    type: "error",
    code: "retrying",
    retryable: true,
    message: `retrying (${attempt}${of}): ${answer}${delay}`,
  };
}

function user(s: ClaudeCodeState, line: ClaudeCodeLine, out: AgentEvent[]): void {
  closeCurrent(s, out);
  const content = line.message?.content;
  if (!Array.isArray(content)) {
    out.push(unknown("user", line)); // a prompt or a synthetic user text
    return;
  }
  let results = 0;
  for (const b of content) if (b.type === "tool_result") results++;
  for (const b of content) {
    if (b.type !== "tool_result") {
      out.push(unknown(`user:${b.type}`, b));
      continue;
    }
    const id = b.tool_use_id ?? "";
    const name = s.toolNames.get(id) ?? "";
    s.toolNames.delete(id);
    const ev: AgentEvent = {
      type: "tool_result",
      toolUseId: id,
      name,
      content: toolResultContent(b.content),
      isError: b.is_error === true,
    };
    // tool_use_result belongs to the line; it is unambiguous only when the line answers one call.
    if (results === 1 && line.tool_use_result !== undefined) ev.details = line.tool_use_result;
    out.push(ev);
  }
}

/** The run's end. Its usage and cost are run totals: carried raw, never a second usage event. */
function result(s: ClaudeCodeState, line: ClaudeCodeLine, out: AgentEvent[]): void {
  closeCurrent(s, out);
  if (s.anth.open) failOpenMessage(s.anth, out, interrupted("message_stop", "the result line"));
  closeOpenCompaction(s, "the run ended before the compaction did", out);
  s.settled = true;
  if (line.is_error) {
    const error: AgentEvent = {
      type: "error",
      message: line.result || line.errors?.join("; ") || line.subtype || "run failed",
    };
    if (line.subtype) error.code = line.subtype;
    // The result repeats the API failure just reported: one error, said once.
    if (error.message !== s.lastApiError) out.push(error);
  }
  s.lastApiError = undefined;
  out.push(unknown("result", line));
}

function endClaudeCode(s: ClaudeCodeState, out: AgentEvent[], cut: string | undefined): void {
  closeOpenCompaction(s, cut ?? "the stream ended during the compaction", out);
  if (s.anth.open) {
    endAnthropic(s.anth, out, cut);
    s.current = undefined;
    return;
  }
  if (s.settled && cut === undefined) return;
  out.push(cutMessage(cut, "the result line"));
  const m = s.current;
  s.current = undefined;
  // Without the next line we cannot know the message was complete: fail closed.
  if (m !== undefined && !m.viaPartials) closeLineMessage(s, m, out, true);
}

/** Ends the line-built message in progress (partials end theirs with message_stop). */
function closeCurrent(s: ClaudeCodeState, out: AgentEvent[]): void {
  const m = s.current;
  s.current = undefined;
  if (m !== undefined && !m.viaPartials) closeLineMessage(s, m, out, false);
}

function closeLineMessage(s: ClaudeCodeState, m: Message, out: AgentEvent[], failed: boolean): void {
  if (m.usage) out.push({ type: "usage", usage: anthropicUsage(m.usage) });
  // Lines often carry stop_reason null: then the message's own content says why it stopped.
  const stopReason = failed
    ? "error"
    : m.stopReason
      ? anthropicStopReason(m.stopReason)
      : m.calledTool
        ? "tool_use"
        : "end_turn";
  const end: AgentEvent = { type: "turn_end", turn: s.anth.turn, stopReason };
  if (m.stopReason && !failed) end.vendorStopReason = m.stopReason;
  out.push(end);
}

function unknown(vendorType: string, raw: unknown): AgentEvent {
  return { type: "unknown", vendor: VENDOR, vendorType, raw };
}
