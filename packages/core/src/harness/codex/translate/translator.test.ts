import { describe, expect, it } from "vitest";
import { chunked, readFixtures } from "../../../testing/translator-fixtures.js";
import { collect, ofType } from "../../../testing/events.js";
import { reconstructMessages } from "../../../translators/final.js";
import type { AgentEvent } from "../../../types.js";
import { codexTranslator, translateCodexJsonl } from "./translator.js";

const fixtures = await readFixtures("codex-jsonl");
const bytesOf = (name: string) => fixtures.find((f) => f.name === name)!.bytes;
const run = (name: string) => collect(translateCodexJsonl(chunked(bytesOf(name), 1 << 20)));

describe("codex-jsonl translator", () => {
  it("MC-8: Codex's compaction messages become compaction events; a lone stripped-reasoning 400 is only an error", async () => {
    const events = await run("compaction-failed.jsonl");
    const turns = [1, 2, 3].map((turn) => {
      const from = events.findIndex((e) => e.type === "turn_start" && e.turn === turn);
      const to = events.findIndex((e, i) => i > from && e.type === "turn_end");
      return events.slice(from, to + 1).filter((e) => e.type.startsWith("compaction") || e.type === "error");
    });
    // The warning Codex writes after a local compaction is a finished compaction, not an error.
    expect(turns[0]).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true },
    ]);
    // A failed remote compaction: reported once although the error event and turn.failed repeat it;
    // so is its error text (each error said once).
    expect(turns[1]!.map((e) => e.type)).toEqual(["compaction_start", "compaction_end", "error"]);
    expect(turns[1]![1]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Error running remote compact task: .*invalid_encrypted_content/),
    });
    expect(turns[2]!.map((e) => e.type)).toEqual(["error"]);
  });

  it("translates the documented exec example, usage with cached input subtracted", async () => {
    const events = await run("exec.jsonl");
    expect(events.slice(0, 10)).toEqual([
      {
        type: "unknown",
        vendor: "codex",
        vendorType: "thread.started",
        raw: { type: "thread.started", thread_id: "0199a213-81c0-7800-8aa1-bbab2a035a53" },
      },
      { type: "turn_start", turn: 1 },
      { type: "thinking_start", index: 0 },
      { type: "thinking_delta", index: 0, delta: "**Searching for README files**" },
      { type: "thinking_end", index: 0, thinking: "**Searching for README files**" },
      { type: "toolcall_start", index: 1, id: "item_1", name: "command_execution" },
      {
        type: "toolcall_end",
        index: 1,
        id: "item_1",
        name: "command_execution",
        input: { command: "bash -lc ls" },
      },
      { type: "tool_use", id: "item_1", name: "command_execution", input: { command: "bash -lc ls" } },
      {
        type: "tool_result",
        toolUseId: "item_1",
        name: "command_execution",
        content: [{ type: "text", text: expect.stringContaining("README.md") }],
        isError: false,
        details: { exit_code: 0, status: "completed" },
      },
      { type: "thinking_start", index: 2 },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: "usage", usage: { input: 315, output: 122, cacheRead: 24448, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "end_turn", vendorStopReason: "turn.completed" },
    ]);
    const [message] = await collect(reconstructMessages(events));
    expect(message!.content.map((c) => c.type)).toEqual(["thinking", "tool_use", "thinking", "text"]);
  });

  it("maps MCP calls, file changes, web searches and command failures to tool calls and results", async () => {
    const events = await run("tools.jsonl");
    expect(ofType(events, "tool_use").map((t) => t.name)).toEqual([
      "mcp__cadre__hire_agent",
      "mcp__cadre__file_approval",
      "file_change",
      "web_search",
      "command_execution",
      "command_execution",
    ]);
    expect(ofType(events, "tool_result").map((r) => [r.toolUseId, r.isError])).toEqual([
      ["item_1", false],
      ["item_2", true],
      ["item_3", false],
      ["item_4", false],
      ["item_5", true],
      ["item_6", true],
    ]);
    const hire = ofType(events, "tool_result")[0]!;
    expect(hire.details).toEqual({ agentId: "agt_cto", name: "CTO", role: "Chief Technology Officer" });
    expect(ofType(events, "tool_result")[2]!.content).toEqual([
      { type: "text", text: "add docs/strategy.md\nupdate README.md" },
    ]);
    expect(ofType(events, "tool_result")[4]!.content).toEqual([
      { type: "text", text: "> test\n1 failing\n" },
    ]);
    // Codex's reroute notice is no error: the turn's usage names the model that served it (a drift).
    expect(ofType(events, "error")).toEqual([]);
    expect(ofType(events, "usage").map((u) => u.servedModel)).toEqual(["gpt-5"]);
    expect(ofType(events, "unknown").map((u) => u.vendorType)).toEqual([
      "thread.started",
      "item.started",
      "item.updated",
      "item.completed",
    ]);
  });

  it("reports thread-cumulative usage as per-turn increments and streams agent message snapshots as deltas", async () => {
    const events = await run("multi-turn.jsonl");
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", usage: { input: 2000, output: 100, cacheRead: 8000, cacheWrite: 0 } },
      { type: "usage", usage: { input: 1000, output: 60, cacheRead: 11000, cacheWrite: 0 } },
    ]);
    const secondTurn = events.slice(events.findLastIndex((e) => e.type === "turn_start"));
    expect(ofType(secondTurn, "text_delta").map((d) => d.delta)).toEqual([
      "Second",
      " answer,",
      " streamed.",
    ]);
    expect(ofType(events, "text_end").map((e) => e.text)).toEqual([
      "First answer.",
      "Second answer, streamed.",
    ]);
  });

  it("counts items without ids only on completion and counts every item once", async () => {
    const events = await run("no-ids.jsonl");
    expect(ofType(events, "tool_use")).toEqual([
      { type: "tool_use", id: "", name: "command_execution", input: { command: "bash -lc pwd" } },
    ]);
    expect(ofType(events, "tool_result")).toHaveLength(1);
    expect(ofType(events, "text_end").map((e) => e.text)).toEqual(["You are in /work.", "Done."]);
  });

  it("turns errors and turn.failed into error events and a failed turn", async () => {
    const events = await run("failed.jsonl");
    expect(ofType(events, "error").map((e) => e.message)).toEqual([
      "retrying (1 of 5): stream disconnected before completion: error sending request",
      "stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)",
    ]);
    expect(events.at(-1)).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "error",
      vendorStopReason: "turn.failed",
    });
    expect(await collect(reconstructMessages(events))).toEqual([]);
  });

  it("reports a cut stream as truncated, never inventing the command's result", async () => {
    const events = await run("truncated.jsonl");
    expect(ofType(events, "tool_result")).toEqual([]);
    expect(events.slice(-2)).toEqual([
      {
        type: "error",
        code: "truncated",
        retryable: false,
        message: expect.stringMatching(/^line 4: the stream was cut inside a line/),
      },
      { type: "turn_end", turn: 1, stopReason: "error" },
    ]);
  });

  it("gives the same events for one-byte chunks", async () => {
    for (const { name, bytes } of fixtures) {
      expect(await collect(translateCodexJsonl(chunked(bytes, 1))), name).toEqual(
        await collect(translateCodexJsonl(chunked(bytes, bytes.length))),
      );
    }
  });

  it("an error Codex repeats in turn.failed is said once; a rollout's per-call usage and totals are counted once, whatever order turn.completed comes in", () => {
    const t = codexTranslator();
    const out: AgentEvent[] = [];
    t.record({ type: "turn.started" }, 1, out);
    t.record({ type: "error", message: "exceeded retry limit, last status: 429 Too Many Requests" }, 2, out);
    t.record(
      { type: "turn.failed", error: { message: "exceeded retry limit, last status: 429 Too Many Requests" } },
      3,
      out,
    );
    expect(ofType(out, "error").map((e) => e.message)).toEqual([
      "exceeded retry limit, last status: 429 Too Many Requests",
    ]);
    out.length = 0;
    // Two calls from the rollout (each call's record, then the running total), then turn.completed.
    t.record({ type: "turn.started" }, 4, out);
    t.addCall({ input: 100, cached: 0, output: 10 }, out);
    t.advance({ input: 100, cached: 0, output: 10 }, out);
    t.addCall({ input: 150, cached: 100, output: 5 }, out);
    t.record(
      { type: "turn.completed", usage: { input_tokens: 250, cached_input_tokens: 100, output_tokens: 15 } },
      5,
      out,
    );
    t.advance({ input: 250, cached: 100, output: 15 }, out); // the total written after the turn: nothing new
    // A third call the rollout did not show as a record: its total's growth is counted.
    t.advance({ input: 300, cached: 100, output: 20 }, out);
    expect(ofType(out, "usage").map((e) => e.usage)).toEqual([
      { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 },
      { input: 50, output: 5, cacheRead: 100, cacheWrite: 0 },
      { input: 50, output: 5, cacheRead: 0, cacheWrite: 0 },
    ]);
  });

  it("Codex's reroute notice names the model that served the turn's calls, on their usage; it is no error of the run", () => {
    const t = codexTranslator();
    const out: AgentEvent[] = [];
    t.record({ type: "turn.started" }, 1, out);
    // What the real 0.163 binary writes when the response's `openai-model` header names another model.
    const reroute = "model rerouted: gpt-5-2025-08-07 -> gpt-5-mini-2025-08-07 (HighRiskCyberActivity)";
    t.record({ type: "item.completed", item: { id: "e1", type: "error", message: reroute } }, 2, out);
    t.record(
      {
        type: "item.completed",
        item: { id: "e2", type: "error", message: "Your request was routed to gpt-5.2 as a fallback." },
      },
      3,
      out,
    );
    t.addCall({ input: 100, cached: 0, output: 10 }, out);
    t.record(
      { type: "turn.completed", usage: { input_tokens: 120, cached_input_tokens: 0, output_tokens: 12 } },
      4,
      out,
    );
    expect(ofType(out, "error")).toEqual([]);
    expect(ofType(out, "usage").map((e) => e.servedModel)).toEqual([
      "gpt-5-mini-2025-08-07",
      "gpt-5-mini-2025-08-07",
    ]);
    // The next turn, with no notice, was served as asked: its usage names no other model.
    out.length = 0;
    t.record({ type: "turn.started" }, 5, out);
    t.record({ type: "error", message: "stream disconnected: routed to nowhere" }, 6, out);
    t.addCall({ input: 10, cached: 0, output: 1 }, out);
    expect(ofType(out, "usage").map((e) => e.servedModel)).toEqual([undefined]);
    expect(ofType(out, "error").map((e) => e.message)).toEqual(["stream disconnected: routed to nowhere"]);
  });
});
