// The Pi session's native window (MC-8, MC-9): which part of Pi's transcript the next model call
// sees. A compaction replaces everything before the latest exchange with a summary message; a
// rollover closes the whole window and bootstraps a fresh one from a code-built handoff. Both are
// a window "rebase": a bootstrap message plus the transcript from an index on. Pi's loop keeps its
// own copy of the transcript during a run, so the window is applied as a view before each model
// call (transformContext) and written back into Pi's state when the run ends.

import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { Message, UserMessage } from "@mariozechner/pi-ai";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { TranscriptItem } from "../../context/index.js";

/** Bounds of what a bootstrap carries forward from earlier windows (its items are its memory). */
const MAX_DECISIONS = 200;
const MAX_GISTS = 60;

function textOf(content: UserMessage["content"]): string {
  return typeof content === "string"
    ? content
    : content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
}

function isMessage(m: AgentMessage): m is Message {
  const role = (m as { role?: unknown }).role;
  return role === "user" || role === "assistant" || role === "toolResult";
}

/** Keeps the task, every decision (newest MAX_DECISIONS) and the newest gists: bounded memory. */
export function boundItems(items: readonly TranscriptItem[]): TranscriptItem[] {
  const task = items.find((i) => i.kind === "task") ?? items.find((i) => i.kind === "user");
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

export class PiWindow {
  /** Items a bootstrap message stands for: what the summary or handoff was built from. */
  readonly #itemsOf = new WeakMap<object, TranscriptItem[]>();
  #bootstrap: UserMessage | undefined;
  #from = 0;

  /** The messages the next model call sees, out of the loop's transcript. */
  view(messages: AgentMessage[]): AgentMessage[] {
    if (this.#bootstrap === undefined && this.#from === 0) return messages;
    const tail = messages.slice(this.#from);
    return this.#bootstrap ? [this.#bootstrap, ...tail] : tail;
  }

  /** True when a view message is a bootstrap (a summary or a handoff this window started from). */
  isBootstrap(message: AgentMessage): boolean {
    return this.#itemsOf.has(message);
  }

  /**
   * Rebase: the window becomes `text` (as a user message) followed by the loop transcript from the
   * absolute index `keepFrom` on. `items` is what the text was built from, kept for the next rebase.
   */
  rebase(keepFrom: number, text: string, items: readonly TranscriptItem[]): UserMessage {
    const bootstrap: UserMessage = { role: "user", content: [{ type: "text", text }], timestamp: Date.now() };
    this.#itemsOf.set(bootstrap, boundItems(items));
    this.#bootstrap = bootstrap;
    this.#from = keepFrom;
    return bootstrap;
  }

  /** Absolute index in the loop transcript of a position in the view. */
  absoluteIndex(viewIndex: number): number {
    return this.#from + viewIndex - (this.#bootstrap ? 1 : 0);
  }

  /** The run ended: the window becomes Pi's transcript; returns it when it changed. */
  materialize(messages: AgentMessage[]): AgentMessage[] | undefined {
    if (this.#bootstrap === undefined && this.#from === 0) return undefined;
    const next = this.view(messages);
    this.#bootstrap = undefined;
    this.#from = 0;
    return next;
  }

  /** Pi messages → the handoff's transcript items. Tool results contribute a name and an outcome only. */
  items(messages: readonly AgentMessage[]): TranscriptItem[] {
    const out: TranscriptItem[] = [];
    const calls = new Map<string, { name: string; input: unknown }>();
    for (const message of messages) {
      const carried = this.#itemsOf.get(message);
      if (carried) {
        out.push(...carried);
        continue;
      }
      if (!isMessage(message)) continue;
      if (message.role === "user") {
        out.push({ kind: "user", text: textOf(message.content) });
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
}

/** The decision item of a tool call that succeeded: its name and its own input (shared with EventTranscript). */
export function succeededCall(call: { name: string; input: unknown }): TranscriptItem {
  return { kind: "decision", text: `${call.name} succeeded: ${JSON.stringify(call.input)}` };
}

/**
 * Where a compaction may cut the view: the start of the latest exchange (the last user message or
 * assistant message), so no tool result is parted from its call. Undefined when there is nothing
 * before it but a bootstrap — nothing new to summarise.
 */
export function compactionCut(
  view: readonly AgentMessage[],
  isBootstrap: (m: AgentMessage) => boolean,
): number | undefined {
  let cut = -1;
  for (let i = view.length - 1; i >= 0; i--) {
    const role = (view[i] as { role?: unknown }).role;
    if (role === "user" || role === "assistant") {
      cut = i;
      break;
    }
  }
  if (cut <= 0) return undefined;
  const before = view.slice(0, cut);
  return before.some((m) => !isBootstrap(m)) ? cut : undefined;
}

/** Token estimate of messages (o200k_base): compaction and rollover only, never per event. */
export function estimateTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) {
    if (!isMessage(message)) continue;
    total += countTokens(message.role === "user" ? textOf(message.content) : JSON.stringify(message.content));
  }
  return total;
}
