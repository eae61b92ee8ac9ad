import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { translateCommand } from "./translate.js";

const fixture = (path: string) => readFile(new URL(`../../../core/src/${path}`, import.meta.url));

async function translate(args: string[], input: Uint8Array | string = "") {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stdin = (async function* () {
    // Small chunks, as a pipe would deliver them.
    const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
    for (let i = 0; i < bytes.length; i += 64) yield bytes.subarray(i, i + 64);
  })();
  const code = await translateCommand(args, {
    stdin,
    stdout: (l) => stdout.push(l),
    stderr: (l) => stderr.push(l),
  });
  return { code, stdout, stderr, json: () => stdout.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("cadre translate", () => {
  it("prints help listing every format", async () => {
    const { code, stdout } = await translate(["--help"]);
    expect(code).toBe(0);
    expect(stdout.join("\n")).toMatch(
      /Usage: cadre translate --from FORMAT \[--final\][\s\S]*anthropic-sse, openai-chat-sse, openai-responses-sse, claude-code-jsonl, codex-jsonl/,
    );
  });

  it.each([
    [[], "--from FORMAT is required"],
    [["--from", "gemini-sse"], 'unknown format "gemini-sse"'],
  ])("exits 2 for %j, listing the allowed formats", async (args, message) => {
    const { code, stderr, stdout } = await translate(args);
    expect(code).toBe(2);
    expect(stdout).toEqual([]);
    expect(stderr).toEqual([
      `cadre translate: ${message}; allowed formats: anthropic-sse, openai-chat-sse, openai-responses-sse, claude-code-jsonl, codex-jsonl, pi-jsonl`,
    ]);
  });

  it("exits 2 for an unknown option", async () => {
    const { code, stderr } = await translate(["--from", "anthropic-sse", "--fast"]);
    expect(code).toBe(2);
    expect(stderr).toEqual(["cadre translate: unknown option --fast (see cadre translate --help)"]);
  });

  it("streams one AgentEvent JSON line per event", async () => {
    const { code, json, stderr } = await translate(
      ["--from", "anthropic-sse"],
      await fixture("translators/anthropic-sse/__fixtures__/text.sse"),
    );
    expect([code, stderr]).toEqual([0, []]);
    expect(json().map((e) => e.type)).toEqual([
      "turn_start",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "usage",
      "turn_end",
    ]);
  });

  it("writes one SPEC §4 message per line with --final", async () => {
    const { code, json } = await translate(
      ["--from", "openai-chat-sse", "--final"],
      await fixture("translators/openai-chat-sse/__fixtures__/parallel-tool-calls.sse"),
    );
    expect(code).toBe(0);
    expect(json()).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking both cities." },
          { type: "tool_use", id: "call_aaa111", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "call_bbb222", name: "get_weather", input: { city: "Berlin" } },
          { type: "tool_use", id: "call_ccc333", name: "get_time", input: {} },
        ],
        stopReason: "tool_calls",
        usage: { input: 86, output: 300, cacheRead: 1920, cacheWrite: 0 },
      },
    ]);
  });

  it("counts Claude Code lines sharing a message.id as one message with --final", async () => {
    const { code, json } = await translate(
      ["--from", "claude-code-jsonl", "--final"],
      await fixture("harness/claude-code/translate/__fixtures__/session.jsonl"),
    );
    expect(code).toBe(0);
    expect(json().map((m) => [(m.content as { type: string }[]).map((c) => c.type), m.usage])).toEqual([
      [["text", "tool_use"], { input: 3, output: 112, cacheRead: 12988, cacheWrite: 4210 }],
      [["text"], { input: 5, output: 41, cacheRead: 17198, cacheWrite: 180 }],
    ]);
  });

  it("writes everything valid before a malformed line, then exits 2 naming the line", async () => {
    const input =
      '{"type":"thread.started","thread_id":"t"}\n{"type":"turn.started"}\nnot json\n{"type":"turn.started"}\n';
    const { code, json, stderr } = await translate(["--from", "codex-jsonl"], input);
    expect(code).toBe(2);
    expect(json().map((e) => e.type)).toEqual(["unknown", "turn_start"]);
    expect(stderr).toEqual(['cadre translate: line 3: expected one JSON object per line, got "not json"']);
  });

  it("keeps a cut stream's error event in the output and exits 2", async () => {
    const { code, json, stderr } = await translate(
      ["--from", "anthropic-sse"],
      await fixture("translators/anthropic-sse/__fixtures__/truncated.sse"),
    );
    expect(code).toBe(2);
    expect(
      json()
        .slice(-3)
        .map((e) => [e.type, e.code]),
    ).toEqual([
      ["error", "truncated"],
      ["usage", undefined],
      ["turn_end", undefined],
    ]);
    expect(stderr[0]).toMatch(/^cadre translate: line 11: .*before message_stop$/);
  });

  it("notes a vendor error on stderr with --final and still exits 0", async () => {
    const { code, stdout, stderr } = await translate(
      ["--from", "anthropic-sse", "--final"],
      await fixture("translators/anthropic-sse/__fixtures__/mid-stream-error.sse"),
    );
    expect([code, stdout]).toEqual([0, []]);
    expect(stderr).toEqual(["cadre translate: the stream reports an error (overloaded_error): Overloaded"]);
  });

  it.each([
    ["openai-chat-sse", "translators/anthropic-sse/__fixtures__/tool-use.sse", "anthropic-sse"],
    ["anthropic-sse", "translators/openai-chat-sse/__fixtures__/cached-usage.sse", "openai-chat-sse"],
    ["codex-jsonl", "translators/anthropic-sse/__fixtures__/tool-use.sse", "anthropic-sse"],
    ["claude-code-jsonl", "harness/pi/__fixtures__/tool-round-trip.jsonl", "pi-jsonl"],
  ])(
    "on the wrong format (--from %s) says it is not that format and names the one it looks like",
    async (from, path, actual) => {
      const { code, stderr } = await translate(["--from", from], await fixture(path));
      expect(code).toBe(2);
      expect(stderr[0]).toMatch(
        new RegExp(
          `^cadre translate: this is not ${from} \\(it looks like ${actual}: try --from ${actual}\\); `,
        ),
      );
    },
  );

  it("on input of no known format says it does not read as the format asked for", async () => {
    const { code, stderr } = await translate(["--from", "anthropic-sse"], "hello\n");
    expect(code).toBe(2);
    expect(stderr).toEqual([
      "cadre translate: this does not read as anthropic-sse; the stream ended before message_start",
    ]);
  });
});
