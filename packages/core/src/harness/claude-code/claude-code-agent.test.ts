// The Claude Code harness on the REAL Claude Code binary (the one @anthropic-ai/claude-agent-sdk ships
// in its platform package), driven by our adapter through the real Agent SDK, against a loopback
// stand-in model server (@cadre/standin): only the model is stood in. The company tools reach Claude
// Code through the real in-process MCP server; the stand-in's request log shows what Claude Code
// offered the model. Nothing leaves loopback (testing/real-harnesses.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  lastUserText,
  type Policy,
  reply,
  scripted,
  startStandin,
  type StandinServer,
  type Step,
  type UsageCounts,
} from "@cadre/standin";
import { Type } from "typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool, textOutcome, type ToolDefinition } from "../../agent/tool.js";
import { resolveModel } from "../../models/registry.js";
import { reconstructMessages } from "../../translators/final.js";
import type { AgentEvent, Usage } from "../../types.js";
import { collect, ofType } from "../../testing/events.js";
import { claudeCodeTestEnv, REAL_CLAUDE_CODE } from "../../testing/real-harnesses.js";
import { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./claude-code-agent.js";

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

const PROMPT = "You are the CEO of Acme.\n\n## Company\nName: Acme";
let dir: string;
let server: StandinServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-claude-code-"));
  calls.length = 0;
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function standin(steps: Step[] | Policy): Promise<StandinServer> {
  server = await startStandin({ policy: Array.isArray(steps) ? scripted(steps) : steps });
  return server;
}

function agent(options: Partial<ClaudeCodeAgentOptions> = {}, tools: ToolDefinition[] = [addTool]) {
  return new ClaudeCodeAgent(
    {
      sessionId: "run_test",
      systemPrompt: PROMPT,
      model: resolveModel("claude-sonnet-4-5-20250929"),
      tools,
    },
    {
      executablePath: REAL_CLAUDE_CODE!,
      env: claudeCodeTestEnv(dir, server!.anthropicBaseUrl),
      cwd: dir,
      ...options,
    },
  );
}

/** What the stand-in sent over all its model calls (Anthropic: input excludes cache reads and writes). */
function sent(from = 0): Usage {
  const total: UsageCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  for (const call of server!.modelCalls().slice(from))
    for (const k of Object.keys(total) as Array<keyof UsageCounts>)
      total[k] += call.answered?.usage?.[k] ?? 0;
  return {
    input: total.input,
    output: total.output,
    cacheRead: total.cacheRead,
    cacheWrite: total.cacheWrite,
  };
}

/** A loopback port nothing listens on (connections are refused). */
async function refusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const SHELL_FILE_WEB_AGENT =
  /^(Bash|Edit|Write|MultiEdit|NotebookEdit|WebFetch|WebSearch|Agent|Task|ToolSearch|Workflow)$/;

describe.skipIf(!REAL_CLAUDE_CODE)("Claude Code harness on the real binary against a stand-in model", () => {
  it("offers exactly the company tools, loaded up front; the run's first event says so, from Claude Code's init line", async () => {
    await standin([
      reply.toolCall("mcp__cadre__add", { a: 2, b: 40 }, "Let me add those."),
      reply.toolCall("mcp__cadre__add", { a: "x", b: 1 }),
      "The sum is 42; the second input was refused.",
    ]);
    const events = await collect(agent().send("Add 2 and 40."));
    expect(events[0]).toEqual({
      type: "harness_tools",
      harness: "claude-code",
      tools: ["mcp__cadre__add"],
      mcpServers: [{ name: "cadre", status: "connected" }],
      expected: ["mcp__cadre__add"],
      source: expect.stringContaining("system/init"),
    });
    // What the model was offered, on every call: the company tool, fully loaded, and nothing else.
    for (let i = 0; i < server!.modelCalls().length; i++) {
      expect(server!.toolsOffered(i)).toEqual(["mcp__cadre__add"]);
      expect(server!.modelCalls()[i]!.request.tools.every((t) => !t.deferred)).toBe(true);
    }
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    // The valid call ran our handler with Claude Code's tool_use id; the invalid one was refused before execute.
    expect(calls).toEqual([{ input: { a: 2, b: 40 }, toolCallId: expect.stringMatching(/^standin_/) }]);
    expect(
      ofType(events, "tool_result").map(({ name, isError, content }) => ({ name, isError, content })),
    ).toEqual([
      { name: "mcp__cadre__add", isError: false, content: [{ type: "text", text: "42" }] },
      {
        name: "mcp__cadre__add",
        isError: true,
        content: [{ type: "text", text: "add was not run. `a` and `b` must be integers." }],
      },
    ]);
    expect(ofType(events, "text_end").map((e) => e.text)).toEqual([
      "Let me add those.",
      "The sum is 42; the second input was refused.",
    ]);
    // Usage: once per model call, exactly what the stand-in sent (partials and lines are one message).
    expect(ofType(events, "usage")).toHaveLength(3);
    expect(ofType(events, "usage").reduce(sumUsage, zero())).toEqual(sent());
    const messages = await collect(reconstructMessages(events));
    expect(messages.map((m) => m.content.map((c) => c.type))).toEqual([
      ["text", "tool_use"],
      ["tool_use"],
      ["text"],
    ]);
  });

  it("offers only the built-ins the policy allows (a rule offers its bare tool)", async () => {
    await standin(["Done."]);
    const a = agent({ policy: { permissionMode: "dontAsk", allowedTools: ["Read", "Bash(git status:*)"] } });
    const events = await collect(a.send("Look around."));
    const report = ofType(events, "harness_tools")[0]!;
    expect(report.problem).toBeUndefined();
    expect([...report.tools].sort()).toEqual(["Bash", "Read", "mcp__cadre__add"]);
    expect([...server!.toolsOffered(0)].sort()).toEqual(["Bash", "Read", "mcp__cadre__add"]);
    expect(server!.modelCalls()[0]!.request.system).toContain(PROMPT);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
  });

  it("the system part Claude Code sends is Cadre's prompt, not its coding preset, on every call of every turn", async () => {
    await standin([reply.toolCall("mcp__cadre__add", { a: 1, b: 2 }), "Three.", "Again."]);
    const a = agent();
    await collect(a.send("Add 1 and 2."));
    await collect(a.send("And again?"));
    const systems = server!.modelCalls().map((c) => c.request.systemBlocks);
    expect(systems).toHaveLength(3);
    for (const blocks of systems) {
      const text = blocks.map((b) => b.text).join("\n");
      // The CEO's prompt is there, whole; what else Claude Code adds is at most its short identity
      // line, never the preset that describes tools the agent is not offered.
      expect(blocks.some((b) => b.text === PROMPT)).toBe(true);
      expect(text.length - PROMPT.length).toBeLessThan(600);
      expect(text).not.toMatch(/\b(Glob|Grep|NotebookEdit|TodoWrite|PowerShell)\b/);
    }
  });

  it("a decided tool the harness does not offer fails the run at once with a readable reason", async () => {
    await standin(["never reached"]);
    const a = agent({ policy: { permissionMode: "dontAsk", allowedTools: ["NoSuchTool"] } });
    const events = await collect(a.send("Go."));
    const report = ofType(events, "harness_tools")[0]!;
    expect(report.problem).toMatch(/does not offer NoSuchTool/);
    expect(ofType(events, "error")).toEqual([
      { type: "error", code: "harness_tools_mismatch", message: report.problem },
    ]);
    expect(ofType(events, "terminal")).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: expect.stringContaining("Claude Code does not offer the tools the company decided"),
      },
    ]);
    expect(ofType(events, "tool_use")).toEqual([]);
  });

  it("MC-15: resumes the same session on the next product turn; the model sees the earlier turn, usage is counted once", async () => {
    await standin(["First answer.", "Second answer, same session."]);
    const a = agent();
    const first = await collect(a.send("First question"));
    const session = a.vendorSessionId;
    const second = await collect(a.send("Second question"));
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.vendorSessionId).toBe(session);
    expect(ofType(second, "text_end").map((e) => e.text)).toEqual(["Second answer, same session."]);
    const texts = server!
      .modelCalls()[1]!
      .request.messages.flatMap((m) => m.content.filter((b) => b.type === "text").map((b) => b.text));
    expect(texts.join("\n")).toMatch(/First question[\s\S]*First answer\.[\s\S]*Second question/);
    expect([...ofType(first, "terminal"), ...ofType(second, "terminal")].map((t) => t.status)).toEqual([
      "done",
      "done",
    ]);
    expect(a.usage).toEqual(sent());
  });

  it("MC-15: a later session resumed by id (a later wake) is verified, continues the conversation and counts only its own usage", async () => {
    await standin(["Hired the CTO.", "You hired the CTO."]);
    const earlier = agent();
    await collect(earlier.send("Hire a CTO."));
    const id = earlier.vendorSessionId!;
    const later = agent({ resume: id });
    const events = await collect(later.send("What did you do?"));
    expect(later.resumeOutcome).toBe("resumed");
    expect(later.vendorSessionId).toBe(id);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(JSON.stringify(server!.modelCalls()[1]!.request.messages)).toContain("Hired the CTO.");
    expect(later.usage).toEqual(sent(1));
  });

  it("a resume Claude Code cannot find is healed once: a fresh session, recorded as a rollover, and the turn completes", async () => {
    await standin(["Fresh start."]);
    const missing = "00000000-0000-4000-8000-000000000000";
    const a = agent({ resume: missing });
    const events = await collect(a.send("Carry on."));
    expect(ofType(events, "rollover")).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(
          /resume of Claude Code session 0{8}-.*No conversation found.*one self-heal/,
        ),
      }),
    ]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(a.resumeOutcome).toBe("healed");
    expect(a.vendorSessionId).not.toBe(missing);
    expect(server!.modelCalls()).toHaveLength(1);
    expect(ofType(events, "error")).toEqual([]);
  });

  it("MC-3: a hand-over that differs from the session's first turn is an error event and a failed turn, before Claude Code starts", async () => {
    await standin(["One.", "never reached"]);
    const a = agent();
    await collect(a.send("First."));
    (a.config as { systemPrompt: string }).systemPrompt = `${PROMPT}\nNow: 12:30`;
    const events = await collect(a.send("Second."));
    expect(ofType(events, "error")).toEqual([
      {
        type: "error",
        code: "prompt_prefix_changed",
        message: expect.stringMatching(/differs from the session's first call.*MC-3/),
      },
    ]);
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["failed"]);
    expect(server!.modelCalls()).toHaveLength(1);
  });

  it("a vendor error becomes an error event and one failed terminal, never a throw", async () => {
    // Every call fails the same way (Claude Code retries some failures itself).
    await standin(() =>
      reply.error("invalid_request", { message: "messages: the request is malformed (stand-in)" }),
    );
    const events = await collect(agent().send("hi"));
    expect(
      ofType(events, "error")
        .map((e) => e.message)
        .join("\n"),
    ).toMatch(/malformed \(stand-in\)/);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringMatching(/malformed/) },
    ]);
    expect(events.at(-1)!.type).toBe("terminal");
  });

  it("a turn the endpoint fails mid-run books each answered call as it arrives; a call to a tool Claude Code was not given is a refused tool call with its error result", async () => {
    const add = (r: Parameters<Extract<Step, (...args: never[]) => unknown>>[0]) =>
      reply.toolCall(
        r.tools.find((t) => t.name === "mcp__cadre__add")!,
        { a: 2, b: 40 },
      );
    await standin((request, context) =>
      context.callIndex === 0
        ? add(request)
        : context.callIndex === 1
          ? reply.toolCall("hire_agent", { name: "CTO" })
          : reply.error("invalid_request", { message: "the endpoint failed mid-run (stand-in)" }),
    );
    const a = agent();
    const events = await collect(a.send("Add, then hire."));
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["failed"]);
    const answered = server!.modelCalls().filter((c) => c.answered?.usage);
    expect(answered).toHaveLength(2);
    // One usage event per answered call, each as the stand-in sent it.
    expect(ofType(events, "usage")).toHaveLength(2);
    expect(a.usage).toEqual(sent());
    const refused = ofType(events, "tool_use").filter((t) => t.refused === true);
    expect(refused).toEqual([expect.objectContaining({ name: "hire_agent", input: { name: "CTO" } })]);
    expect(ofType(events, "tool_result").filter((r) => r.toolUseId === refused[0]!.id)).toEqual([
      expect.objectContaining({ isError: true }),
    ]);
    expect(calls).toHaveLength(1); // the company tool ran once; the refused call ran nothing
  });

  it("a turn cancelled while the model works (as a budget or cap stops it) still books every call answered before the cancel", async () => {
    const add = (r: Parameters<Extract<Step, (...args: never[]) => unknown>>[0]) =>
      reply.toolCall(
        r.tools.find((t) => t.name === "mcp__cadre__add")!,
        { a: 1, b: 1 },
      );
    await standin([add, add, reply.hang()]);
    const a = agent();
    const events: AgentEvent[] = [];
    for await (const e of a.send("Keep adding.")) {
      events.push(e);
      if (e.type === "tool_result" && ofType(events, "tool_result").length === 2) a.cancel();
    }
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["cancelled"]);
    expect(server!.modelCalls().filter((c) => c.answered?.usage)).toHaveLength(2);
    expect(a.usage).toEqual(sent());
  });

  it("a provider that answers 429 forever: Claude Code's retries are bounded (2 by default), each said as it happens with the status, the provider's reason in the run's error, said once", async () => {
    await standin(() => reply.error("rate_limit", { message: "slow down (stand-in)" }));
    const events = await collect(agent().send("hi"));
    expect(server!.requests).toHaveLength(3); // the request and its 2 retries (Claude Code's own default: 10)
    expect(ofType(events, "error").map((e) => e.message)).toEqual([
      expect.stringMatching(/^retrying \(1 of 2\): the provider answered 429 \(rate_limit\)/),
      expect.stringMatching(/^retrying \(2 of 2\): the provider answered 429 \(rate_limit\)/),
      expect.stringMatching(/429.*slow down \(stand-in\)/),
    ]);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringMatching(/429.*slow down \(stand-in\)/) },
    ]);
  });

  it("a closed port ends the wake after the bounded retries (Claude Code's own default waits ~200 s), each retry shown, the failure said once", async () => {
    await standin(["unused"]);
    const a = new ClaudeCodeAgent(
      {
        sessionId: "run_test",
        systemPrompt: PROMPT,
        model: resolveModel("claude-sonnet-4-5-20250929"),
        tools: [],
      },
      {
        executablePath: REAL_CLAUDE_CODE!,
        env: claudeCodeTestEnv(dir, `http://127.0.0.1:${await refusedPort()}`),
        cwd: dir,
      },
    );
    const events = await collect(a.send("hi"));
    const errors = ofType(events, "error");
    expect(errors.filter((e) => e.code === "retrying").map((e) => e.message)).toEqual([
      expect.stringMatching(/^retrying \(1 of 2\): the provider could not be reached/),
      expect.stringMatching(/^retrying \(2 of 2\): the provider could not be reached/),
    ]);
    const final = errors.filter((e) => e.code !== "retrying");
    expect(final).toHaveLength(1);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: final[0]!.message },
    ]);
  });

  it("the retry bound is the connector's to set: 0 retries, one request", async () => {
    await standin(() => reply.error("server", { message: "upstream exploded (stand-in)" }));
    const events = await collect(agent({ maxRetries: 0 }).send("hi"));
    expect(server!.requests).toHaveLength(1);
    expect(ofType(events, "error").filter((e) => e.code === "retrying")).toEqual([]);
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["failed"]);
  });

  it("cancel sends Claude Code an interrupt while the model hangs; the turn ends cancelled exactly once", async () => {
    await standin([reply.hang()]);
    const a = agent();
    const events: AgentEvent[] = [];
    for await (const e of a.send("Build the team")) {
      events.push(e);
      if (e.type === "harness_tools") setTimeout(() => a.cancel(), 200);
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(events.at(-1)!.type).toBe("terminal");
    expect(a.isRunning).toBe(false);
  });

  it("offers no shell, file-writing, web or sub-agent tool by default", async () => {
    await standin(["ok"]);
    await collect(agent({}, []).send("hi"));
    expect(server!.toolsOffered(0).filter((t) => SHELL_FILE_WEB_AGENT.test(t))).toEqual([]);
    expect(server!.toolsOffered(0)).toEqual([]);
  });
});

describe.skipIf(!REAL_CLAUDE_CODE)(
  "a Claude Code session across session objects (wakes), on the real binary",
  () => {
    it("a new session object resumes the session its session state names: verified on the init line, a `resumed` session event", async () => {
      await standin(["First answer.", "Second answer, same session."]);
      const first = agent();
      await collect(first.send("First question"));
      const state = first.sessionState!;
      expect(state).toMatchObject({ harness: "claude-code", resumed: false, rolledOver: false });
      const id = state.ref!.id;
      const second = agent({ resume: { id }, digest: state.digest });
      const events = await collect(second.send("Second question"));
      expect(ofType(events, "session")).toEqual([
        { type: "session", action: "resumed", harness: "claude-code", id },
      ]);
      expect(ofType(events, "text_end").map((e) => e.text)).toEqual(["Second answer, same session."]);
      expect(second.sessionState).toMatchObject({ ref: { id }, resumed: true });
      expect(JSON.stringify(server!.modelCalls()[1]!.request.messages)).toContain("First answer.");
    });

    it("MC-9 a resume Claude Code cannot find heals once from the handoff digest: `self-healed` and rollover events, the digest before the prompt, never a loop", async () => {
      await standin(["Team built."]);
      const missing = "8f0c2d6e-0000-4000-8000-000000000000";
      const digest = [
        { kind: "task" as const, text: "Run the company." },
        { kind: "decision" as const, text: 'hire_agent succeeded: {"name":"CTO"}' },
      ];
      const a = agent({ resume: { id: missing }, digest });
      const events = await collect(a.send("Build the team."));
      const [heal] = ofType(events, "session");
      expect(heal).toMatchObject({ action: "self-healed", harness: "claude-code", previousId: missing });
      expect(heal!.reason).toMatch(/No conversation found.*one self-heal/);
      expect(ofType(events, "rollover")).toEqual([
        expect.objectContaining({ reason: heal!.reason, fromSession: missing }),
      ]);
      // The refusal is not the turn's outcome: no error event for it, one done terminal.
      expect(ofType(events, "error")).toEqual([]);
      expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
      expect(server!.modelCalls()).toHaveLength(1);
      const user = lastUserText(server!.modelCalls()[0]!.request);
      expect(user).toContain("# Handoff\n");
      expect(user).toMatch(/- hire_agent succeeded: \{"name":"CTO"\}[\s\S]*\n---\n\nBuild the team\./);
      const state = a.sessionState!;
      expect(state.ref!.id).not.toBe(missing);
      expect(state).toMatchObject({ resumed: false, rolledOver: true, selfHealed: heal!.reason });
    });

    it("MC-9 a handoff left for the session (a window closed between wakes): the fresh session's first prompt carries it, the rollover is reported, the old session is not resumed", async () => {
      await standin(["Carrying on."]);
      const a = agent({
        resume: { id: "old-session" },
        bootstrap: {
          handoff: "# Handoff\nContext rebuilt by the host.",
          items: [{ kind: "task", text: "Run the company." }],
          reason: "switch to claude-haiku-4-5-20251001: rebuilt from a handoff first",
          fromSession: "old-session",
        },
      });
      const events = await collect(a.send("Carry on."));
      expect(ofType(events, "rollover")).toMatchObject([
        {
          reason: "switch to claude-haiku-4-5-20251001: rebuilt from a handoff first",
          fromSession: "old-session",
        },
      ]);
      expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
      expect(lastUserText(server!.modelCalls()[0]!.request)).toContain(
        "# Handoff\nContext rebuilt by the host.\n---\n\nCarry on.",
      );
      expect(a.sessionState).toMatchObject({ rolledOver: true, resumed: false });
      expect(a.sessionState!.ref!.id).not.toBe("old-session");
    });
  },
);

function zero(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}
function sumUsage(total: Usage, e: { usage: Usage }): Usage {
  return {
    input: total.input + e.usage.input,
    output: total.output + e.usage.output,
    cacheRead: total.cacheRead + e.usage.cacheRead,
    cacheWrite: total.cacheWrite + e.usage.cacheWrite,
  };
}
