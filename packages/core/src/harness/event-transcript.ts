// What a handoff is built from for harnesses that keep their transcript in their own process
// (Claude Code, Codex): the host only sees the events, so it records transcript items from them
// (MC-9). Same rules as Pi's window: a tool result gives a name and an outcome, never its body; a
// tool call that succeeded is a decision with the call's own input, so a fresh window never does it twice.
import type { TranscriptItem } from "../context/index.js";
import type { AgentEvent } from "../types.js";
import { boundItems, succeededCall } from "./pi/transcript.js";

export class EventTranscript {
  #items: TranscriptItem[];
  readonly #calls = new Map<string, { name: string; input: unknown }>();

  /** `carried`: what earlier wakes of the agent's session left (its digest), or a handoff's items. */
  constructor(carried: readonly TranscriptItem[] = []) {
    this.#items = [...carried];
  }

  /** The user's prompt of a product turn. */
  prompt(text: string): void {
    this.#items.push({ kind: "user", text });
  }

  record(event: AgentEvent): void {
    switch (event.type) {
      case "text_end":
        if (event.text.trim() !== "") this.#items.push({ kind: "assistant", text: event.text });
        break;
      // Every harness ends a model's tool call with toolcall_end (Codex also sends tool_use: once is enough).
      case "toolcall_end":
        this.#calls.set(event.id, { name: event.name, input: event.input });
        this.#items.push({ kind: "tool_call", name: event.name });
        break;
      case "tool_result": {
        this.#items.push({ kind: "tool_result", name: event.name, isError: event.isError, body: "" });
        const call = this.#calls.get(event.toolUseId);
        this.#calls.delete(event.toolUseId);
        if (!event.isError && call) this.#items.push(succeededCall(call));
        break;
      }
      default:
        break;
    }
  }

  items(): readonly TranscriptItem[] {
    return this.#items;
  }

  /** After a rollover the handoff's items are the fresh window's memory; bounded like Pi's. */
  rebase(items: readonly TranscriptItem[] = this.#items): void {
    this.#items = boundItems(items);
    this.#calls.clear();
  }
}
