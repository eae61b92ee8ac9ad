import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../types.js";
import { collect } from "../testing/events.js";
import { reconstructMessages } from "./final.js";

describe("reconstructMessages", () => {
  it("orders blocks by index, sums usage, keeps the vendor stop reason and skips failed calls", async () => {
    const events: AgentEvent[] = [
      { type: "turn_start", turn: 1 },
      { type: "toolcall_start", index: 1, id: "t", name: "n" },
      { type: "text_start", index: 0 },
      { type: "toolcall_end", index: 1, id: "t", name: "n", input: { a: 1 } },
      { type: "text_end", index: 0, text: "hi" },
      { type: "usage", usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 } },
      { type: "usage", usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "tool_use", vendorStopReason: "tool_use" },
      { type: "turn_start", turn: 2 },
      { type: "thinking_end", index: 0, thinking: "t", signature: "s" },
      { type: "turn_end", turn: 2, stopReason: "end_turn" },
      { type: "turn_start", turn: 3 },
      { type: "text_end", index: 0, text: "partial" },
      { type: "turn_end", turn: 3, stopReason: "error" },
    ];
    expect(await collect(reconstructMessages(events))).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "hi" },
          { type: "tool_use", id: "t", name: "n", input: { a: 1 } },
        ],
        stopReason: "tool_use",
        usage: { input: 2, output: 2, cacheRead: 3, cacheWrite: 4 },
      },
      {
        role: "assistant",
        content: [{ type: "thinking", thinking: "t", signature: "s" }],
        stopReason: null,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      },
    ]);
  });
});
