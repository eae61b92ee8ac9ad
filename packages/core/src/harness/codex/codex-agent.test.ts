// The Codex harness through real process boundaries: the real @openai/codex-sdk starts an OFFLINE
// stand-in executable (__fixtures__/offline-codex.mjs) that reads `codex exec --experimental-json`
// arguments, replays a recorded JSONL stream, and calls MCP tools on the servers named in its
// `--config`, started as real child processes and reached with the real MCP client. The SDK, our
// adapter and the codex translator all run for real. Nothing reaches a vendor.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "typebox";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defineTool } from "../../agent/tool.js";
import { resolveModel } from "../../models/registry.js";
import type { AgentEvent } from "../../types.js";
import { CodexAgent, type CodexAgentOptions } from "./codex-agent.js";
import { collect, ofType } from "../../testing/events.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const STAND_IN = join(FIXTURES, "offline-codex.mjs");
const ADD_SERVER = join(FIXTURES, "add-tool-server.mjs");

// The session's tool list (MC-3); Codex reaches the tools through the MCP server, which runs them.
const addTool = defineTool({
  name: "add",
  label: "Add",
  description: "Adds two integers.",
  parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }),
  validate: () => ({ ok: false, message: "runs in the MCP server process", fields: {} }),
  execute: async () => ({ content: [], isError: true }),
});

let dir: string;
let logFile: string;
beforeAll(() => {
  // The MCP server fixture serves the tool with the built core package.
  if (!existsSync(fileURLToPath(new URL("../../../dist/mcp/index.js", import.meta.url))))
    throw new Error("packages/core is not built; run `npx tsc -b packages/cli` first");
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-"));
  logFile = join(dir, "stand-in.log.jsonl");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function agent(scenario: string, options: Partial<CodexAgentOptions> = {}) {
  return new CodexAgent(
    {
      sessionId: "run_test",
      systemPrompt: "You are the CEO of Acme.\n\n## Company\nName: Acme",
      model: resolveModel("gpt-5-2025-08-07"),
      tools: [addTool],
    },
    {
      executablePath: STAND_IN,
      env: {
        PATH: process.env["PATH"],
        HOME: dir,
        CODEX_HOME: dir,
        CADRE_OFFLINE_CODEX_SCENARIO: join(FIXTURES, scenario),
        CADRE_OFFLINE_CODEX_LOG: logFile,
        CADRE_TEST_MARKER: "passed-on",
      },
      cwd: dir,
      mcpServers: {
        cadre: { command: process.execPath, args: [ADD_SERVER], envVars: ["CADRE_TEST_MARKER"] },
      },
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

describe("Codex harness over the real Codex SDK and an offline stand-in executable", () => {
  it("streams reasoning, a command, MCP tool calls with their results, the answer and usage", async () => {
    const events = await collect(agent("tool-calls.jsonl").send("Add 2 and 40."));
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(events.at(-1)!.type).toBe("terminal");
    expect(ofType(events, "thinking_end").map((e) => e.thinking)).toEqual([
      "**Adding the numbers with the add tool**",
    ]);
    expect(ofType(events, "tool_use").map((e) => [e.name, e.input])).toEqual([
      ["command_execution", { command: "bash -lc 'echo 2+40'" }],
      ["mcp__cadre__add", { a: 2, b: 40 }],
      ["mcp__cadre__add", { a: "x", b: 1 }],
    ]);
    // The MCP server validated before executing: the second call is an error result with our text.
    expect(
      ofType(events, "tool_result").map(({ toolUseId, name, isError, content }) => ({
        toolUseId,
        name,
        isError,
        content,
      })),
    ).toEqual([
      {
        toolUseId: "item_1",
        name: "command_execution",
        isError: false,
        content: [{ type: "text", text: "2+40\n" }],
      },
      {
        toolUseId: "item_2",
        name: "mcp__cadre__add",
        isError: false,
        content: [{ type: "text", text: "42" }],
      },
      {
        toolUseId: "item_3",
        name: "mcp__cadre__add",
        isError: true,
        content: [{ type: "text", text: "add was not run. `a` and `b` must be integers." }],
      },
    ]);
    expect(ofType(events, "text_end").map((e) => e.text)).toEqual([
      "The sum is 42; the second input was refused.",
    ]);
    expect(ofType(events, "usage").map((e) => e.usage)).toEqual([
      { input: 4283, output: 122, cacheRead: 20480, cacheWrite: 0 },
    ]);
    expect(ofType(events, "turn_end")).toEqual([
      { type: "turn_end", turn: 1, stopReason: "end_turn", vendorStopReason: "turn.completed" },
    ]);
  });

  it("starts Codex with the Cadre prompt as developer instructions, the policy, and the MCP server for the session's tools", async () => {
    const a = agent("tool-calls.jsonl");
    await collect(a.send("Add 2 and 40."));
    const run = (await standInLog()).find((e) => e.kind === "run")!;
    expect(run.prompt).toBe("Add 2 and 40.");
    expect(run.config.developer_instructions).toBe("You are the CEO of Acme.\n\n## Company\nName: Acme");
    expect(run.config.approval_policy).toBe("never");
    expect(run.config.web_search).toBe("disabled");
    expect(run.config.mcp_servers).toEqual({
      cadre: {
        command: process.execPath,
        args: [ADD_SERVER],
        enabled_tools: ["add"],
        default_tools_approval_mode: "approve",
        startup_timeout_sec: 30,
        env_vars: ["CADRE_TEST_MARKER"],
      },
    });
    expect(run.options).toMatchObject({
      model: "gpt-5-2025-08-07",
      sandbox: "read-only",
      cd: dir,
      skipGitRepoCheck: true,
    });
    expect(
      (await standInLog()).find((e) => e.kind === "mcp_tools")!.tools.map((t: { name: string }) => t.name),
    ).toEqual(["add"]);
    expect(a.vendorSessionId).toBe(run.threadId);
  });

  it("resumes the same thread on the next product turn; thread-cumulative usage is counted once", async () => {
    const a = agent("resume.jsonl");
    const first = await collect(a.send("First question"));
    const thread = a.vendorSessionId;
    const second = await collect(a.send("Second question"));
    expect(ofType(first, "text_end").map((e) => e.text)).toEqual(["First answer."]);
    expect(ofType(second, "text_delta").map((e) => e.delta)).toEqual(["Second", " answer,", " same thread."]);
    expect([...first, ...second].filter((e) => e.type === "terminal")).toEqual([
      { type: "terminal", status: "done" },
      { type: "terminal", status: "done" },
    ]);
    expect(ofType(second, "usage").map((e) => e.usage)).toEqual([
      { input: 1000, output: 60, cacheRead: 11000, cacheWrite: 0 },
    ]);
    expect(a.usage).toEqual({ input: 3000, output: 160, cacheRead: 19000, cacheWrite: 0 });
    const runs = (await standInLog()).filter((e) => e.kind === "run");
    expect(runs.map((r) => [r.resume, r.threadId])).toEqual([
      [null, thread],
      [thread, thread],
    ]);
  });

  it("a failed turn (vendor error) becomes error events and one failed terminal, never a throw", async () => {
    const events = await collect(agent("vendor-error.jsonl").send("hi"));
    expect(ofType(events, "error").map((e) => e.message)).toEqual([
      "Reconnecting... 1/5 (stream disconnected before completion: error sending request)",
      "unexpected status 529 Overloaded: the server is overloaded",
    ]);
    expect(ofType(events, "terminal")).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: "unexpected status 529 Overloaded: the server is overloaded",
      },
    ]);
  });

  it("a stream cut mid-item is an error event naming the cause, the open turn fails closed", async () => {
    const events = await collect(agent("cut.jsonl").send("hi"));
    const error = ofType(events, "error").at(-1)!;
    expect(error.code).toBe("truncated");
    expect(error.message).toMatch(
      /Codex Exec exited with code 1.*connection reset.*turn\.completed or turn\.failed/s,
    );
    expect(ofType(events, "turn_end")).toEqual([{ type: "turn_end", turn: 1, stopReason: "error" }]);
    expect(ofType(events, "terminal")).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: expect.stringContaining("Codex Exec exited with code 1"),
      },
    ]);
  });

  it("cancel stops the exec process; the turn ends cancelled exactly once", async () => {
    const a = agent("hang.jsonl");
    const events: AgentEvent[] = [];
    for await (const e of a.send("hi")) {
      events.push(e);
      if (e.type === "turn_start") a.cancel();
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(ofType(events, "turn_end")).toEqual([{ type: "turn_end", turn: 1, stopReason: "error" }]);
    expect(a.isRunning).toBe(false);
  });

  it("MC-11 codex: a silent run is closed by the reconnect watchdog — one failed terminal, report only, no rollover or replay", async () => {
    const a = agent("hang.jsonl", { watchdogMs: 1_500 });
    const events = await collect(a.send("hi"));
    const error = ofType(events, "error").at(-1)!;
    expect(error).toEqual({
      type: "error",
      code: "watchdog",
      message: expect.stringContaining("reconnect watchdog closed the turn"),
    });
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringContaining("report only, MC-11") },
    ]);
    // A turn the watchdog cut is closed, never left open (the stand-in may not have started one yet on a slow machine).
    expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(
      ofType(events, "turn_start").map(() => "error"),
    );
    expect(events.some((e) => e.type === "rollover" || e.type === "recovery")).toBe(false);
    expect(a.isRunning).toBe(false);
  });

  it("the watchdog option is checked: a non-positive value is refused at construction", () => {
    expect(() => agent("hang.jsonl", { watchdogMs: 0 })).toThrow(/watchdogMs must be a positive number/);
  });

  it("a missing executable is one readable error and a failed terminal", async () => {
    const events = await collect(
      agent("tool-calls.jsonl", { executablePath: join(dir, "no-such-codex") }).send("hi"),
    );
    expect(ofType(events, "error")).toEqual([
      { type: "error", code: "harness_start_failed", message: expect.stringContaining("no-such-codex") },
    ]);
    expect(ofType(events, "terminal")).toHaveLength(1);
  });
});

describe("a Codex thread across session objects (wakes), through the stand-in executable", () => {
  it("MC-15 a new session object resumes the persisted thread; its cumulative usage counts only the new turn (the totals persisted with the session)", async () => {
    const first = agent("resume.jsonl");
    await collect(first.send("First question"));
    const state = first.sessionState!;
    expect(state.vendorTotals).toBeDefined();
    const second = agent("resume.jsonl", {
      resume: { id: state.ref!.id },
      digest: state.digest,
      vendorTotals: state.vendorTotals!,
    });
    const events = await collect(second.send("Second question"));
    expect(ofType(events, "session")).toEqual([
      { type: "session", action: "resumed", harness: "codex", id: state.ref!.id },
    ]);
    // The same increment the in-process resume reports: nothing counted twice across the resume.
    expect(ofType(events, "usage").map((e) => e.usage)).toEqual([
      { input: 1000, output: 60, cacheRead: 11000, cacheWrite: 0 },
    ]);
    expect(second.sessionState).toMatchObject({ ref: { id: state.ref!.id }, resumed: true });
  });

  it("MC-9 a thread Codex cannot resume (it ends before thread.started: no rollout) heals once: a new thread from the handoff digest, recorded", async () => {
    const digest = [
      { kind: "task" as const, text: "Run the company." },
      { kind: "decision" as const, text: 'hire_agent succeeded: {"name":"CTO"}' },
    ];
    const a = agent("tool-calls.jsonl", { resume: { id: "thread-gone" }, digest });
    const events = await collect(a.send("Add 2 and 40."));
    const [heal] = ofType(events, "session");
    expect(heal).toMatchObject({ action: "self-healed", harness: "codex", previousId: "thread-gone" });
    expect(heal!.reason).toMatch(
      /^codex session thread-gone could not be resumed \(.+\); a fresh session starts from the handoff digest, once$/,
    );
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    const runs = (await standInLog()).filter((e) => e.kind === "run");
    expect(runs).toHaveLength(1); // the refused resume logged nothing: it never ran
    expect(runs[0]).toMatchObject({ resume: null });
    expect(runs[0]!.prompt).toMatch(/^# Handoff\n[\s\S]*hire_agent succeeded[\s\S]*\n---\n\nAdd 2 and 40\.$/);
    expect(a.sessionState!.ref!.id).toBe(runs[0]!.threadId);
  });
});
