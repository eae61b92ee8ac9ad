// Faults the real Claude Code binary cannot be made to produce, through real process boundaries: the
// real Agent SDK `query()` starts an OFFLINE stand-in executable (__fixtures__/offline-claude-code.mjs)
// that speaks Claude Code's stream-json control protocol and replays a recorded scenario. Only two
// cases stay here: a process that dies in the middle of a message (the real binary retries a cut
// stream and then reports an error result; it never exits mid-line), and a process that ignores the
// SDK's interrupt (the real binary honours it). Everything else runs on the real binary against a
// stand-in model server: claude-code-agent.test.ts. Nothing reaches a vendor.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../../agent/tool.js";
import { resolveModel } from "../../models/registry.js";
import type { AgentEvent } from "../../types.js";
import { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./claude-code-agent.js";
import { collect, ofType } from "../../testing/events.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const STAND_IN = join(FIXTURES, "offline-claude-code.mjs");

const calls: Array<{ input: unknown; toolCallId: string }> = [];
const addTool = defineTool({
  name: "add",
  label: "Add",
  description: "Adds two integers.",
  parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }, { additionalProperties: false }),
  validate(raw) {
    const r = raw as { a?: unknown; b?: unknown };
    if (!Number.isInteger(r?.a) || !Number.isInteger(r?.b))
      return {
        ok: false,
        message: "add was not run. `a` and `b` must be integers.",
        fields: { a: "integer", b: "integer" },
      };
    return { ok: true, value: { a: r.a as number, b: r.b as number } };
  },
  async execute(input, context) {
    calls.push({ input, toolCallId: context.toolCallId });
    return textOutcome(String(input.a + input.b));
  },
});

let dir: string;
let logFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-claude-code-"));
  logFile = join(dir, "stand-in.log.jsonl");
  calls.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function agent(scenario: string, options: Partial<ClaudeCodeAgentOptions> = {}) {
  return new ClaudeCodeAgent(
    {
      sessionId: "run_test",
      systemPrompt: "You are the CEO of Acme.\n\n## Company\nName: Acme",
      model: resolveModel("claude-sonnet-4-5-20250929"),
      tools: [addTool],
    },
    {
      executablePath: STAND_IN,
      env: {
        PATH: process.env["PATH"],
        HOME: dir,
        CLAUDE_CONFIG_DIR: dir,
        CADRE_OFFLINE_CLAUDE_SCENARIO: join(FIXTURES, scenario),
        CADRE_OFFLINE_CLAUDE_LOG: logFile,
      },
      cwd: dir,
      ...options,
    },
  );
}

describe("Claude Code faults a real binary cannot produce (offline stand-in executable)", () => {
  it("a stream cut mid-message is reported as an error event and fails the open message closed (no hang)", async () => {
    const events = await collect(agent("cut.jsonl").send("hi"));
    expect(ofType(events, "text_delta").map((e) => e.delta)).toEqual(["Working on ", "it"]);
    const error = ofType(events, "error").at(-1)!;
    expect(error.code).toBe("truncated");
    expect(error.message).toMatch(/Claude Code process exited with code 1.*ECONNRESET/s);
    expect(ofType(events, "turn_end")).toEqual([{ type: "turn_end", turn: 1, stopReason: "error" }]);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringContaining("exited with code 1") },
    ]);
  });

  it("cancel still ends the turn when Claude Code ignores the interrupt: the process is stopped after the grace period", async () => {
    const a = agent("hang.jsonl", { interruptGraceMs: 200 });
    const events: AgentEvent[] = [];
    for await (const e of a.send("hi")) {
      events.push(e);
      if (e.type === "unknown" && e.vendorType === "system:init") a.cancel();
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(a.isRunning).toBe(false);
  });
});
