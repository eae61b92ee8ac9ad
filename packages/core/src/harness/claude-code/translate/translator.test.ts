import { describe, expect, it } from "vitest";
import { chunked, readFixtures } from "../../../testing/translator-fixtures.js";
import { collect, ofType } from "../../../testing/events.js";
import { reconstructMessages } from "../../../translators/final.js";
import type { AgentEvent } from "../../../types.js";
import { claudeCodeTranslator, translateClaudeCodeJsonl } from "./translator.js";

const fixtures = await readFixtures("claude-code-jsonl");
const bytesOf = (name: string) => fixtures.find((f) => f.name === name)!.bytes;
const runBytes = (bytes: Uint8Array) => collect(translateClaudeCodeJsonl(chunked(bytes, 1 << 20)));
const run = (name: string) => runBytes(bytesOf(name));
/** The fixture without its stream_event partials: what Claude Code writes without --include-partial-messages. */
const withoutPartials = (name: string) =>
  new TextEncoder().encode(
    new TextDecoder()
      .decode(bytesOf(name))
      .split("\n")
      .filter((l) => !l.includes('"type":"stream_event"'))
      .join("\n"),
  );

describe("claude-code-jsonl translator", () => {
  it("makes assistant lines that share a message.id one message, usage counted once", async () => {
    const events = (await run("session.jsonl")).filter((e) => e.type !== "unknown");
    expect(events.slice(0, 11)).toEqual([
      { type: "turn_start", turn: 1, messageId: "msg_01AbCdEfGh", model: "claude-sonnet-4-5-20250929" },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: "I'll list the files first." },
      { type: "text_end", index: 0, text: "I'll list the files first." },
      { type: "toolcall_start", index: 1, id: "toolu_01Ls", name: "Bash" },
      { type: "toolcall_delta", index: 1, delta: '{"command":"ls","description":"List files"}' },
      {
        type: "toolcall_end",
        index: 1,
        id: "toolu_01Ls",
        name: "Bash",
        input: { command: "ls", description: "List files" },
      },
      { type: "usage", usage: { input: 3, output: 112, cacheRead: 12988, cacheWrite: 4210 } },
      { type: "turn_end", turn: 1, stopReason: "tool_use" },
      {
        type: "tool_result",
        toolUseId: "toolu_01Ls",
        name: "Bash",
        content: [{ type: "text", text: "README.md\npackage.json\nsrc" }],
        isError: false,
        details: { stdout: "README.md\npackage.json\nsrc", stderr: "", interrupted: false, isImage: false },
      },
      { type: "turn_start", turn: 2, messageId: "msg_01IjKlMnOp", model: "claude-sonnet-4-5-20250929" },
    ]);
    expect(ofType(events, "usage")).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: "turn_end", turn: 2, stopReason: "end_turn" });
  });

  it("carries the init and result lines (with run usage and cost) as unknown, never as usage", async () => {
    const unknown = ofType(await run("session.jsonl"), "unknown");
    expect(unknown.map((u) => u.vendorType)).toEqual(["system:init", "result"]);
    expect(unknown[1]!.raw).toMatchObject({ total_cost_usd: 0.0331, usage: { output_tokens: 153 } });
  });

  it("deduplicates stream_event partials against the assistant lines of the same message", async () => {
    const events = await run("partials.jsonl");
    expect(ofType(events, "text_start")).toHaveLength(2);
    expect(ofType(events, "toolcall_start")).toHaveLength(1);
    expect(ofType(events, "text_delta").map((d) => d.delta)).toEqual([
      "Let me ",
      "check.",
      "Two TypeScript files.",
    ]);
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", usage: { input: 3, output: 58, cacheRead: 14000, cacheWrite: 500 } },
      { type: "usage", usage: { input: 6, output: 7, cacheRead: 14500, cacheWrite: 0 } },
    ]);
    const withPartials = await collect(reconstructMessages(events));
    const linesOnly = await collect(reconstructMessages(await runBytes(withoutPartials("partials.jsonl"))));
    expect(withPartials.map((m) => m.content)).toEqual(linesOnly.map((m) => m.content));
    expect(withPartials.map((m) => m.stopReason)).toEqual(["tool_use", "end_turn"]);
  });

  it("adds no second copy when a message's partials arrive after its assistant line", async () => {
    const lines = new TextDecoder().decode(bytesOf("partials.jsonl")).split("\n");
    const [init, ...rest] = lines;
    const firstLine = rest.findIndex((l) => l.startsWith('{"type":"assistant"'));
    // The first assistant line moved ahead of the partials that carry the same block.
    const reordered = [init, rest[firstLine], ...rest.filter((_, i) => i !== firstLine)].join("\n");
    const events = await runBytes(new TextEncoder().encode(reordered));
    expect(ofType(events, "text_start").length).toBe(2);
    expect(ofType(events, "toolcall_end").map((e) => e.input)).toEqual([{ pattern: "**/*.ts" }]);
    expect(ofType(events, "turn_start").map((e) => e.messageId)).toEqual(["msg_01PaRtIaL", "msg_01SeCoNd"]);
  });

  it("keeps thinking signatures, names tool results after their call, maps error and image results", async () => {
    const events = await run("thinking-tools.jsonl");
    expect(ofType(events, "thinking_end")).toEqual([
      {
        type: "thinking_end",
        index: 0,
        thinking: "The CEO needs a CTO first.",
        signature: "EqMCCkYIBxgCKkBsig==",
      },
    ]);
    expect(
      ofType(events, "tool_result").map(({ name, isError, content }) => ({ name, isError, content })),
    ).toEqual([
      {
        name: "mcp__cadre__hire_agent",
        isError: true,
        content: [{ type: "text", text: "connectorId: connector offline is not ready" }],
      },
      {
        name: "Read",
        isError: false,
        content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }],
      },
    ]);
    const messages = await collect(reconstructMessages(events));
    expect(messages.map((m) => [m.content.map((c) => c.type), m.stopReason, m.usage.output])).toEqual([
      [["thinking", "text", "tool_use"], "tool_use", 230],
      [["tool_use"], null, 20],
      [["text"], "end_turn", 12],
    ]);
  });

  it("turns compact_boundary into compaction_start/compaction_end", async () => {
    const events = await run("compaction.jsonl");
    expect(events.filter((e) => e.type.startsWith("compaction"))).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true, tokensBefore: 167012 },
      { type: "compaction_start", reason: "manual" },
      { type: "compaction_end", ok: true, tokensBefore: 9050 },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "unknown", vendorType: "result" });
  });

  it("MC-8: status lines open and close a compaction once; the boundary's post_tokens is the window after it", async () => {
    const events = await run("compaction-status.jsonl");
    expect(events.filter((e) => e.type.startsWith("compaction"))).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: true, tokensBefore: 182400, tokensAfter: 12650 },
    ]);
    // The statuses were consumed, not carried twice; the local command's echo and the result are carried.
    expect(ofType(events, "unknown").map((e) => e.vendorType)).toEqual(["user", "result"]);
  });

  it("MC-8: Claude Code 2.1.332's own order (compacting → success → init → boundary, recorded from the real binary) is one compaction with its token counts", async () => {
    const events = await run("compaction-2.1.332.jsonl");
    expect(events.filter((e) => e.type.startsWith("compaction"))).toEqual([
      { type: "compaction_start", reason: "threshold" }, // the status line opens it; the adapter names a /compact
      { type: "compaction_end", ok: true, tokensBefore: 347, tokensAfter: 444 },
    ]);
    expect(ofType(events, "unknown").map((e) => e.vendorType)).toEqual([
      "system:init",
      "user",
      "user",
      "result",
    ]);
  });

  it("MC-8: a failed compaction is one compaction_end with the CLI's error; one cut mid-compaction is closed failed", async () => {
    const events = await run("compaction-failed.jsonl");
    expect(events.filter((e) => e.type.startsWith("compaction"))).toEqual([
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: false, error: expect.stringContaining("overloaded_error") },
      { type: "compaction_start", reason: "threshold" },
      { type: "compaction_end", ok: false, error: expect.any(String) },
    ]);
    expect(ofType(events, "unknown").map((e) => e.vendorType)).toEqual(["system:notification"]);
  });

  it("turns synthetic API error messages and error results into error events, not model calls", async () => {
    const events = await run("errors.jsonl");
    expect(ofType(events, "error")).toEqual([
      {
        type: "error",
        code: "server_error",
        message: 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      },
      { type: "error", code: "error_max_turns", message: "Reached maximum number of turns (2)" },
    ]);
    expect(ofType(events, "turn_start")).toHaveLength(1);
  });

  it("reports a stream cut mid-line as truncated and fails the open message closed", async () => {
    const events = await run("truncated.jsonl");
    expect(events.slice(-3)).toEqual([
      {
        type: "error",
        code: "truncated",
        retryable: false,
        message: expect.stringMatching(/^line 3: the stream was cut inside a line .*before the result line$/),
      },
      { type: "usage", usage: { input: 3, output: 5, cacheRead: 0, cacheWrite: 0 } },
      { type: "turn_end", turn: 1, stopReason: "error" },
    ]);
    expect(await collect(reconstructMessages(events))).toEqual([]);
  });

  it("stops at a malformed line, naming it, after the valid lines before it", async () => {
    const text = new TextDecoder().decode(bytesOf("session.jsonl")).split("\n");
    text.splice(2, 0, '{"type":"assistant",');
    const events = await runBytes(new TextEncoder().encode(text.join("\n")));
    expect(events.at(-1)).toEqual({
      type: "error",
      code: "malformed_input",
      message: 'line 3: expected one JSON object per line, got "{\\"type\\":\\"assistant\\","',
    });
    expect(ofType(events, "turn_end")).toEqual([]);
  });

  it("gives the same events for one-byte chunks and CRLF line endings", async () => {
    for (const { name, bytes } of fixtures) {
      const whole = await runBytes(bytes);
      expect(await collect(translateClaudeCodeJsonl(chunked(bytes, 1))), name).toEqual(whole);
      const crlf = new TextEncoder().encode(new TextDecoder().decode(bytes).replaceAll("\n", "\r\n"));
      if (name !== "truncated.jsonl")
        expect(await collect(translateClaudeCodeJsonl(chunked(crlf, 5))), name).toEqual(whole);
    }
  });

  it("each retry Claude Code makes is said as it happens, with the provider's status; the failure is said once", () => {
    const t = claudeCodeTranslator();
    const out: AgentEvent[] = [];
    t.record(
      {
        type: "system",
        subtype: "api_retry",
        attempt: 1,
        max_retries: 2,
        retry_delay_ms: 531,
        error_status: 429,
        error: "rate_limit",
      },
      1,
      out,
    );
    t.record(
      {
        type: "system",
        subtype: "api_retry",
        attempt: 2,
        max_retries: 2,
        error_status: null,
        error: "connection_error",
      },
      2,
      out,
    );
    const text = "API Error: Request rejected (429) · rate limited";
    t.record(
      {
        type: "assistant",
        error: "rate_limit",
        isApiErrorMessage: true,
        message: { model: "<synthetic>", content: [{ type: "text", text }] },
      },
      3,
      out,
    );
    t.record({ type: "result", subtype: "success", is_error: true, result: text }, 4, out);
    expect(ofType(out, "error")).toEqual([
      {
        type: "error",
        code: "retrying",
        retryable: true,
        message: "retrying (1 of 2): the provider answered 429 (rate_limit); next try in 0.5 s",
      },
      {
        type: "error",
        code: "retrying",
        retryable: true,
        message: "retrying (2 of 2): the provider could not be reached (connection_error)",
      },
      { type: "error", code: "rate_limit", message: text },
    ]);
  });
});
