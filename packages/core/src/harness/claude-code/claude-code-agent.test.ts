// The Claude Code harness through real process boundaries: the real Agent SDK `query()` starts an
// OFFLINE stand-in executable (__fixtures__/offline-claude-code.mjs) that speaks Claude Code's
// stream-json control protocol and replays a recorded scenario; the SDK's in-process MCP server, our
// adapter and the claude-code translator all run for real. Nothing reaches a vendor.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../../agent/tool.js";
import { resolveModel } from "../../models/registry.js";
import { reconstructMessages } from "../../translators/final.js";
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

async function standInLog(): Promise<Array<Record<string, any>>> {
  return (await readFile(logFile, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("Claude Code harness over the real Agent SDK and an offline stand-in executable", () => {
  it("streams text, tool calls, MCP tool results and usage; our validation runs before execute", async () => {
    const events = await collect(agent("tool-calls.jsonl").send("Add 2 and 40."));
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(events.at(-1)).toEqual({ type: "terminal", status: "done" });
    // Three model calls, each with its blocks, usage and stop reason.
    expect(ofType(events, "turn_start").map((e) => e.messageId)).toEqual([
      "msg_01AdDtOoL",
      "msg_01BaDiNpUt",
      "msg_01AnSwEr",
    ]);
    expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["tool_use", "tool_use", "end_turn"]);
    expect(ofType(events, "text_delta").map((e) => e.delta)).toEqual([
      "Let me ",
      "add those.",
      "The sum is 42; ",
      "the second input was refused.",
    ]);
    expect(ofType(events, "toolcall_end").map((e) => [e.name, e.input])).toEqual([
      ["mcp__cadre__add", { a: 2, b: 40 }],
      ["mcp__cadre__add", { a: "x", b: 1 }],
    ]);
    expect(ofType(events, "usage").map((e) => e.usage)).toEqual([
      { input: 3, output: 41, cacheRead: 0, cacheWrite: 1200 },
      { input: 6, output: 22, cacheRead: 1200, cacheWrite: 80 },
      { input: 9, output: 14, cacheRead: 1280, cacheWrite: 60 },
    ]);
    // The valid call ran our handler (with Claude Code's tool_use id); the invalid one was refused before execute.
    expect(calls).toEqual([{ input: { a: 2, b: 40 }, toolCallId: "toolu_01Add" }]);
    expect(
      ofType(events, "tool_result").map(({ toolUseId, name, isError, content }) => ({
        toolUseId,
        name,
        isError,
        content,
      })),
    ).toEqual([
      {
        toolUseId: "toolu_01Add",
        name: "mcp__cadre__add",
        isError: false,
        content: [{ type: "text", text: "42" }],
      },
      {
        toolUseId: "toolu_01Bad",
        name: "mcp__cadre__add",
        isError: true,
        content: [{ type: "text", text: "add was not run. `a` and `b` must be integers." }],
      },
    ]);
    // Partials and the full assistant lines make one copy of each message.
    const messages = await collect(reconstructMessages(events));
    expect(messages.map((m) => m.content.map((c) => c.type))).toEqual([
      ["text", "tool_use"],
      ["tool_use"],
      ["text"],
    ]);
  });

  it("hands Claude Code the Cadre prompt as the preset's append, the policy's permission mode and the frozen tool list", async () => {
    const a = agent("tool-calls.jsonl");
    await collect(a.send("Add 2 and 40."));
    const log = await standInLog();
    const argv = log.find((e) => e.kind === "argv")!.argv as string[];
    expect(argv).toEqual(
      expect.arrayContaining([
        "--include-partial-messages",
        "--strict-mcp-config",
        "--setting-sources=",
        "--permission-mode=dontAsk",
        "--model=claude-sonnet-4-5-20250929",
        "--allowedTools=mcp__cadre__add",
      ]),
    );
    const init = log.find((e) => e.kind === "control_request" && e.subtype === "initialize")!.request;
    expect(init.appendSystemPrompt).toBe("You are the CEO of Acme.\n\n## Company\nName: Acme");
    expect(init.systemPrompt).toBeUndefined(); // the preset stays Claude Code's own
    expect(init.excludeDynamicSections).toBe(true);
    expect(init.sdkMcpServers).toEqual(["cadre"]);
    const tools = log.find((e) => e.kind === "mcp_tools")!.tools;
    expect(tools).toEqual([
      {
        name: "add",
        title: "Add",
        description: "Adds two integers.",
        inputSchema: JSON.parse(JSON.stringify(addTool.parameters)),
      },
    ]);
    expect(log.find((e) => e.kind === "user")!.prompt).toBe("Add 2 and 40.");
    expect(a.vendorSessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("resumes the same Claude Code session on the next product turn", async () => {
    const a = agent("resume.jsonl");
    const first = await collect(a.send("First question"));
    const session = a.vendorSessionId;
    const second = await collect(a.send("Second question"));
    expect(ofType(first, "text_end").map((e) => e.text)).toEqual(["First answer."]);
    expect(ofType(second, "text_end").map((e) => e.text)).toEqual(["Second answer, same session."]);
    expect([...ofType(first, "terminal"), ...ofType(second, "terminal")]).toEqual([
      { type: "terminal", status: "done" },
      { type: "terminal", status: "done" },
    ]);
    // Turn numbers run on across product turns; usage is counted once per model call.
    expect(ofType(second, "turn_start").map((e) => e.turn)).toEqual([2]);
    expect(a.usage).toEqual({ input: 7, output: 10, cacheRead: 900, cacheWrite: 930 });
    const users = (await standInLog()).filter((e) => e.kind === "user");
    expect(users.map((u) => [u.resume, u.sessionId])).toEqual([
      [null, session],
      [session, session],
    ]);
    const argvs = (await standInLog()).filter((e) => e.kind === "argv").map((e) => e.argv as string[]);
    expect(argvs[0]!.some((a) => a.startsWith("--resume"))).toBe(false);
    expect(argvs[1]).toContain(`--resume=${session}`);
  });

  it("a vendor error becomes an error event and one failed terminal, never a throw", async () => {
    const events = await collect(agent("vendor-error.jsonl").send("hi"));
    const errors = ofType(events, "error");
    expect(errors[0]).toMatchObject({
      code: "server_error",
      message: expect.stringContaining("API Error: 529"),
    });
    expect(errors.at(-1)).toMatchObject({
      code: "success",
      message: expect.stringContaining("overloaded_error"),
    });
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringContaining("API Error: 529") },
    ]);
    expect(events.at(-1)!.type).toBe("terminal");
  });

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

  it("cancel sends Claude Code an interrupt; the turn ends cancelled exactly once", async () => {
    const a = agent("interrupt.jsonl");
    const events: AgentEvent[] = [];
    for await (const e of a.send("Build the team")) {
      events.push(e);
      if (e.type === "text_delta") a.cancel();
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(events.at(-1)!.type).toBe("terminal");
    expect((await standInLog()).some((e) => e.kind === "control_request" && e.subtype === "interrupt")).toBe(
      true,
    );
    expect(a.isRunning).toBe(false);
  });

  it("cancel still ends the turn when Claude Code ignores the interrupt: the process is stopped after the grace period", async () => {
    const a = agent("hang.jsonl", { interruptGraceMs: 200 });
    const events: AgentEvent[] = [];
    const started = Date.now();
    for await (const e of a.send("hi")) {
      events.push(e);
      if (e.type === "unknown" && e.vendorType === "system:init") a.cancel();
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a missing executable is one readable error and a failed terminal", async () => {
    const events = await collect(
      agent("tool-calls.jsonl", { executablePath: join(dir, "no-such-claude") }).send("hi"),
    );
    expect(ofType(events, "error")).toEqual([
      { type: "error", code: "harness_start_failed", message: expect.stringContaining("no-such-claude") },
    ]);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringContaining("no-such-claude") },
    ]);
  });
});

describe("a Claude Code session across session objects (wakes), through the stand-in executable", () => {
  it("a new session object resumes the persisted session id: verified on its init line, the session continues", async () => {
    const first = agent("resume.jsonl");
    await collect(first.send("First question"));
    const state = first.sessionState!;
    expect(state).toMatchObject({ harness: "claude-code", resumed: false });
    const id = state.ref!.id;
    const second = agent("resume.jsonl", { resume: { id }, digest: state.digest });
    const events = await collect(second.send("Second question"));
    expect(ofType(events, "session")).toEqual([
      { type: "session", action: "resumed", harness: "claude-code", id },
    ]);
    expect(ofType(events, "text_end").map((e) => e.text)).toEqual(["Second answer, same session."]);
    expect(second.sessionState).toMatchObject({ ref: { id }, resumed: true });
    const argvs = (await standInLog()).filter((e) => e.kind === "argv").map((e) => e.argv as string[]);
    expect(argvs[1]).toContain(`--resume=${id}`);
  });

  it("MC-9 a resume Claude Code refuses ('No conversation found') heals once: a fresh session from the handoff digest, recorded; it never loops", async () => {
    const digest = [
      { kind: "task" as const, text: "Run the company." },
      { kind: "decision" as const, text: 'hire_agent succeeded: {"name":"CTO"}' },
    ];
    const a = agent("hire.jsonl", { resume: { id: "8f0c2d6e-0000-4000-8000-000000000000" }, digest });
    const events = await collect(a.send("Build the team."));
    expect(ofType(events, "session")).toEqual([
      {
        type: "session",
        action: "self-healed",
        harness: "claude-code",
        previousId: "8f0c2d6e-0000-4000-8000-000000000000",
        reason:
          "claude-code session 8f0c2d6e-0000-4000-8000-000000000000 could not be resumed (No conversation found with session ID: 8f0c2d6e-0000-4000-8000-000000000000); a fresh session starts from the handoff digest, once",
      },
    ]);
    // The refusal is not the turn's outcome: no error event for it, one done terminal.
    expect(ofType(events, "error")).toEqual([]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const users = (await standInLog()).filter((e) => e.kind === "user");
    expect(users).toHaveLength(1); // the refused resume never started a turn
    expect(users[0]!.resume).toBeNull();
    expect(users[0]!.prompt).toMatch(
      /^# Handoff\n[\s\S]*- hire_agent succeeded: \{"name":"CTO"\}[\s\S]*\n---\n\nBuild the team\.$/,
    );
    const state = a.sessionState!;
    expect(state.ref!.id).not.toBe("8f0c2d6e-0000-4000-8000-000000000000");
    expect(state.selfHealed).toMatch(/could not be resumed/);
  });

  it("MC-9 a handoff left for the session (a window closed between wakes): the fresh session's first prompt carries it, the rollover is reported, the old session is not resumed", async () => {
    const a = agent("hire.jsonl", {
      resume: { id: "old-session" },
      bootstrap: {
        handoff: "# Handoff\nContext rebuilt by the host.",
        items: [{ kind: "task", text: "Run the company." }],
        reason: "MC-13: switch to claude-haiku-4-5-20251001: rebuilt from a handoff first",
        fromSession: "old-session",
      },
    });
    const events = await collect(a.send("Carry on."));
    expect(ofType(events, "rollover")).toMatchObject([
      {
        reason: "MC-13: switch to claude-haiku-4-5-20251001: rebuilt from a handoff first",
        fromSession: "old-session",
      },
    ]);
    const users = (await standInLog()).filter((e) => e.kind === "user");
    expect(users[0]).toMatchObject({
      resume: null,
      prompt: "# Handoff\nContext rebuilt by the host.\n---\n\nCarry on.",
    });
    expect(a.sessionState).toMatchObject({ rolledOver: true, resumed: false });
  });
});
