// What a handoff is built from in a Pi session (MC-9, MC-12, MC-13): Pi's messages as transcript
// items. A tool result contributes its name and outcome only, never its body; a tool call that
// succeeded is a decision with the call's own input, so a fresh window never does the work twice.
// A fresh window's bootstrap keeps the items its handoff was built from (in the session file, as a
// `cadre-bootstrap` entry), so no decision is lost across several rollovers.

import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Message, UserMessage } from "@mariozechner/pi-ai";
import { countTokens } from "../../tokens.js";
import type { TranscriptItem } from "../../context/index.js";

/** Handoff bounds shared by Pi's rollovers and model-switch handoffs. */
export const PI_HANDOFF_OPTIONS = Object.freeze({ lineBytes: 1_200 });

/** Between a handoff and the prompt that follows it in a fresh window's first message. */
export const BOOTSTRAP_SEPARATOR = "\n---\n\n";

/** Bounds of what a bootstrap carries forward from earlier windows (its items are its memory). */
const MAX_DECISIONS = 200;
const MAX_GISTS = 60;

export function textOf(content: UserMessage["content"]): string {
  return typeof content === "string"
    ? content
    : content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
}

function isMessage(m: AgentMessage): m is Message {
  const role = (m as { role?: unknown }).role;
  return role === "user" || role === "assistant" || role === "toolResult";
}

/**
 * Keeps the task, every decision (newest MAX_DECISIONS) and the newest gists: bounded memory. The
 * task is the latest user turn — what the session is being asked now — not its first: a long-lived
 * agent's first turn (its team-building cue) is stale once it works on.
 */
export function boundItems(items: readonly TranscriptItem[]): TranscriptItem[] {
  const task = items.findLast((i) => i.kind === "user") ?? items.find((i) => i.kind === "task");
  const decisions = items
    .filter((i) => i.kind === "decision" || i.kind === "open-work")
    .slice(-MAX_DECISIONS);
  const gists = items
    .filter((i) => i.kind !== "decision" && i.kind !== "open-work" && i.kind !== "task")
    .slice(-MAX_GISTS);
  const out: TranscriptItem[] = [];
  if (task) out.push(task.kind === "task" ? task : { kind: "task", text: task.text });
  return out.concat(decisions, gists);
}

/**
 * Pi messages → transcript items. `handoff` is the text a fresh window's first user message began
 * with: that part is already in the carried items, so only the prompt after it becomes a user item.
 */
export function transcriptItems(messages: readonly AgentMessage[], handoff?: string): TranscriptItem[] {
  const out: TranscriptItem[] = [];
  const calls = new Map<string, { name: string; input: unknown }>();
  let pendingHandoff = handoff;
  for (const message of messages) {
    if (!isMessage(message)) continue;
    if (message.role === "user") {
      let text = textOf(message.content);
      if (pendingHandoff !== undefined && text.startsWith(pendingHandoff)) {
        text = text.slice(pendingHandoff.length).replace(/^\n---\n\n/, "");
        pendingHandoff = undefined;
      }
      if (text.trim() !== "") out.push({ kind: "user", text });
    } else if (message.role === "assistant") {
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      for (const block of message.content) {
        if (block.type === "text" && block.text.trim() !== "")
          out.push({ kind: "assistant", text: block.text });
        else if (block.type === "toolCall") {
          calls.set(block.id, { name: block.name, input: block.arguments });
          out.push({ kind: "tool_call", name: block.name });
        }
      }
    } else {
      // The body is never copied into an item that the handoff reads (MC-9: no tool_result bodies).
      out.push({ kind: "tool_result", name: message.toolName, isError: message.isError, body: "" });
      const call = calls.get(message.toolCallId);
      // A tool that ran to success is a decision already taken: the fresh window must know it, or
      // the work (a hire, an approval) would be done twice. Its input is the assistant's own call.
      if (!message.isError && call) out.push(succeededCall(call));
    }
  }
  return out;
}

/** The decision item of a tool call that succeeded: its name and its own input (shared with EventTranscript). */
export function succeededCall(call: { name: string; input: unknown }): TranscriptItem {
  return { kind: "decision", text: `${call.name} succeeded: ${JSON.stringify(call.input)}` };
}

/** Token estimate of messages (o200k_base): compaction and rollover only, never per event. */
export function estimateTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) {
    const m = message as { role?: unknown; content?: unknown; summary?: unknown };
    if (m.role === "compactionSummary" && typeof m.summary === "string") total += countTokens(m.summary);
    else if (!isMessage(message)) continue;
    else
      total += countTokens(
        message.role === "user" ? textOf(message.content) : JSON.stringify(message.content),
      );
  }
  return total;
}
