// The Codex harness on the REAL Codex binary (the one @openai/codex ships in its platform package),
// driven by our adapter through the real @openai/codex-sdk, against a loopback stand-in model server
// (@cadre/standin) registered as Codex's model provider: only the model is stood in. The company tools
// reach Codex through a real stdio MCP server built on Cadre's own adapter (__fixtures__/
// add-tool-server.mjs, what `cadre mcp` is to the company tools); the stand-in's request log shows
// what Codex offered the model. Nothing leaves loopback (testing/real-harnesses.ts).
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defineTool, type ToolDefinition } from "../../agent/tool.js";
import { resolveModel } from "../../models/registry.js";
import type { AgentEvent, Usage } from "../../types.js";
import { collect, ofType } from "../../testing/events.js";
import { codexTestEnv, REAL_CODEX } from "../../testing/real-harnesses.js";
import { CodexAgent, type CodexAgentOptions } from "./codex-agent.js";
import { EXEC_YIELD_CONTINUATION_TEMPLATE } from "./exec-yield.js";

const ADD_SERVER = fileURLToPath(new URL("./__fixtures__/add-tool-server.mjs", import.meta.url));

// The session's tool list (MC-3); Codex reaches the tools through the MCP server, which runs them.
const addTool = defineTool({
  name: "add",
  label: "Add",
  description: "Adds two integers.",
  parameters: Type.Object({ a: Type.Integer(), b: Type.Integer() }),
  validate: () => ({ ok: false, message: "runs in the MCP server process", fields: {} }),
  execute: async () => ({ content: [], isError: true }),
});

const PROMPT = "You are the CEO of Acme.\n\n## Company\nName: Acme";
let dir: string;
let server: StandinServer | undefined;
beforeAll(() => {
  // The MCP server fixture serves the tool with the built core package.
  if (!existsSync(fileURLToPath(new URL("../../../dist/mcp/index.js", import.meta.url))))
    throw new Error("packages/core is not built; run `npx tsc -b packages/cli` first");
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-"));
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

function agent(options: Partial<CodexAgentOptions> = {}, tools: ToolDefinition[] = [addTool]) {
  return new CodexAgent(
    { sessionId: "run_test", systemPrompt: PROMPT, model: resolveModel("gpt-5-2025-08-07"), tools },
    {
      executablePath: REAL_CODEX!,
      env: codexTestEnv(dir, { STANDIN_KEY: "sk-standin-not-a-key" }),
      cwd: dir,
      provider: { baseUrl: server!.openaiBaseUrl, apiKeyEnv: "STANDIN_KEY" },
      mcpServers: tools.length > 0 ? { cadre: { command: process.execPath, args: [ADD_SERVER] } } : {},
      ...options,
    },
  );
}

/** The stand-in's answers as Cadre counts usage (OpenAI: input includes cached tokens; Cadre's excludes them). */
function sent(from = 0): Usage {
  const t: UsageCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  for (const call of server!.modelCalls().slice(from))
    for (const k of Object.keys(t) as Array<keyof UsageCounts>) t[k] += call.answered?.usage?.[k] ?? 0;
  return { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite };
}

/** One stand-in answer's usage as Cadre counts it. */
function usageOf(i: number): Usage {
  const u = server!.modelCalls()[i]!.answered!.usage!;
  return { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite };
}

/** Every tool the request offered, as `namespace.name`, deferred ones marked. */
function offered(i: number): string[] {
  const call = server!.modelCalls()[i]!;
  return call.request.tools.map(
    (t) => `${t.namespace ? `${t.namespace}.` : ""}${t.name}${t.deferred ? " (deferred)" : ""}`,
  );
}

const RESOURCE_TOOLS = ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"];

/** A loopback port nothing listens on (connections are refused). */
async function refusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe.skipIf(!REAL_CODEX)("Codex harness on the real binary against a stand-in model", () => {
  it("the company tools reach the model up front through the required MCP server; the run's first event says what Codex was given", async () => {
    await standin([
      (r) =>
        reply.toolCall(
          r.tools.find((t) => t.name === "add")!,
          { a: 2, b: 40 },
          "Adding.",
        ),
      (r) =>
        reply.toolCall(
          r.tools.find((t) => t.name === "add")!,
          { a: "x", b: 1 },
        ),
      "The sum is 42; the second input was refused.",
    ]);
    const events = await collect(agent().send("Add 2 and 40."));
    expect(events[0]).toMatchObject({
      type: "harness_tools",
      harness: "codex",
      tools: [...RESOURCE_TOOLS, "mcp__cadre__add"],
      expected: [...RESOURCE_TOOLS, "mcp__cadre__add"],
      mcpServers: [
        {
          name: "cadre",
          status: expect.stringMatching(/^ready \(required; answered tools\/list to codex-mcp-client/),
          tools: ["mcp__cadre__add"],
        },
      ],
    });
    expect((events[0] as { problem?: string }).problem).toBeUndefined();
    // Every request: the company tool in Codex's MCP namespace, loaded (no tool_search), and no other built-in.
    for (let i = 0; i < server!.modelCalls().length; i++)
      expect(offered(i)).toEqual([...RESOURCE_TOOLS, "mcp__cadre.add"]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
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
    expect(
      ofType(events, "text_end")
        .map((e) => e.text)
        .at(-1),
    ).toBe("The sum is 42; the second input was refused.");
    // One usage event per model call, each what the stand-in sent for it.
    expect(ofType(events, "usage").map((e) => e.usage)).toEqual([usageOf(0), usageOf(1), usageOf(2)]);
  });

  it("Codex gets the Cadre prompt after its own instructions, the connector's model server and key, and no shell, file-writing, web, sub-agent or image tool", async () => {
    await standin(["Done."]);
    await collect(agent().send("Look around."));
    const call = server!.modelCalls()[0]!.request;
    expect(call.model).toBe("gpt-5-2025-08-07");
    expect(call.headers["authorization"]).toBe("Bearer sk-standin-not-a-key");
    expect(call.system).toContain(PROMPT);
    expect(call.system.indexOf(PROMPT)).toBeGreaterThan(0); // after Codex's own base instructions (MC-3)
    const names = offered(0).join(" ");
    expect(names).not.toMatch(
      /exec_command|write_stdin|apply_patch|web_search|spawn_agent|multi_agent|view_image|request_user_input|tool_search|goal/,
    );
  });

  it("the connector's policy turns on only what it names: shell (exec_command, write_stdin) and web search", async () => {
    await standin(["Done."]);
    const events = await collect(
      agent({
        policy: { sandboxMode: "read-only", approvalPolicy: "never", webSearch: true, shell: true },
      }).send("hi"),
    );
    const expected = ["exec_command", "write_stdin", ...RESOURCE_TOOLS, "web_search", "mcp__cadre__add"];
    expect(ofType(events, "harness_tools")[0]).toMatchObject({ tools: expected, expected });
    expect(offered(0).sort()).toEqual(
      ["exec_command", "write_stdin", ...RESOURCE_TOOLS, "web_search", "mcp__cadre.add"].sort(),
    );
  });

  it("a decided tool Codex was not given fails the run at once with a readable reason", async () => {
    await standin(["never reached"]);
    const a = agent({
      mcpServers: {
        cadre: { command: process.execPath, args: [ADD_SERVER], enabledTools: ["add", "subtract"] },
      },
    });
    const events = await collect(a.send("Go."));
    const report = ofType(events, "harness_tools")[0]!;
    expect(report.problem).toMatch(
      /Codex does not offer the tools the company decided: it does not offer mcp__cadre__subtract/,
    );
    expect(ofType(events, "error")).toEqual([
      { type: "error", code: "harness_tools_mismatch", message: report.problem },
    ]);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: report.problem },
    ]);
    expect(ofType(events, "tool_use")).toEqual([]);
  });

  it("MC-15: resumes the same thread on the next product turn; the model sees the earlier turn; thread-cumulative usage is counted once", async () => {
    await standin(["First answer.", "Second answer, same thread."]);
    const a = agent();
    await collect(a.send("First question"));
    const thread = a.vendorSessionId;
    const second = await collect(a.send("Second question"));
    expect(a.vendorSessionId).toBe(thread);
    expect(ofType(second, "text_end").map((e) => e.text)).toEqual(["Second answer, same thread."]);
    expect(JSON.stringify(server!.modelCalls()[1]!.request.messages)).toMatch(
      /First question[\s\S]*First answer\.[\s\S]*Second question/,
    );
    expect(ofType(second, "usage").map((e) => e.usage)).toEqual([sent(1)]);
    expect(a.usage).toEqual(sent());
  });

  it("MC-15: a later session resuming the thread by id (a later wake) is verified and counts only its own usage (baseline from Codex's rollout)", async () => {
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

  it("a thread Codex has no rollout of is healed once: a fresh thread, recorded as a rollover, and the turn completes", async () => {
    await standin(["Fresh start."]);
    const missing = "01a2312c-e9a1-7a30-afae-ad454f93ba8c";
    const a = agent({ resume: missing });
    const events = await collect(a.send("Carry on."));
    expect(ofType(events, "rollover")).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(/resume of Codex thread 01a2312c.*no rollout found.*one self-heal/),
      }),
    ]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(a.resumeOutcome).toBe("healed");
    expect(a.vendorSessionId).not.toBe(missing);
    expect(ofType(events, "error")).toEqual([]);
  });

  it("MC-3: a hand-over that differs from the session's first run is an error event and a failed turn, before Codex starts", async () => {
    await standin(["One.", "never reached"]);
    const a = agent();
    await collect(a.send("First."));
    (a.config as { systemPrompt: string }).systemPrompt = `${PROMPT}\nNow: 12:30`;
    const events = await collect(a.send("Second."));
    expect(ofType(events, "error")).toEqual([
      { type: "error", code: "prompt_prefix_changed", message: expect.stringMatching(/MC-3/) },
    ]);
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["failed"]);
    expect(server!.modelCalls()).toHaveLength(1);
  });

  it("a vendor error becomes error events and one failed terminal, never a throw", async () => {
    await standin(() => reply.error("invalid_request", { message: "input: malformed (stand-in)" }));
    const events = await collect(agent().send("hi"));
    expect(ofType(events, "error").at(-1)!.message).toMatch(/malformed \(stand-in\)/);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringMatching(/malformed/) },
    ]);
    expect(events.at(-1)!.type).toBe("terminal");
  });

  it("a turn that fails books every model call it made, and a call to a tool Codex does not have is a refused tool call with Codex's answer", async () => {
    await standin([
      (r) =>
        reply.toolCall(
          r.tools.find((t) => t.name === "add")!,
          { a: 2, b: 40 },
        ),
      reply.toolCall("hire_agent", { name: "CTO" }),
      () => reply.error("invalid_request", { message: "bad request (stand-in)" }),
    ]);
    const a = agent();
    const events = await collect(a.send("Add, then hire."));
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["failed"]);
    // Both answered calls are booked, one usage event each, though Codex never reported turn.completed.
    expect(ofType(events, "usage").map((e) => e.usage)).toEqual([usageOf(0), usageOf(1)]);
    expect(a.usage).toEqual(sent());
    const refused = ofType(events, "tool_use").filter((t) => t.refused === true);
    expect(refused).toEqual([expect.objectContaining({ name: "hire_agent", input: { name: "CTO" } })]);
    expect(ofType(events, "tool_result").filter((r) => r.toolUseId === refused[0]!.id)).toEqual([
      expect.objectContaining({
        isError: true,
        content: [{ type: "text", text: expect.stringContaining("hire_agent") }],
      }),
    ]);
    // The company tool Codex ran is not reported a second time from the rollout.
    expect(ofType(events, "tool_use").map((t) => t.name)).toEqual(["mcp__cadre__add", "hire_agent"]);
  });

  it("a turn cancelled while the model works (as a budget or cap stops it) still books every call answered before the cancel", async () => {
    const add = (r: Parameters<Extract<Step, (...args: never[]) => unknown>>[0]) =>
      reply.toolCall(
        r.tools.find((t) => t.name === "add")!,
        { a: 1, b: 1 },
      );
    await standin([add, add, reply.hang()]);
    const a = agent();
    const events: AgentEvent[] = [];
    for await (const e of a.send("Keep adding.")) {
      events.push(e);
      // The second result is in: Codex is waiting on the third call, which never answers.
      if (e.type === "tool_result" && ofType(events, "tool_result").length === 2) a.cancel();
    }
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["cancelled"]);
    expect(server!.modelCalls().filter((c) => c.answered?.usage)).toHaveLength(2);
    expect(a.usage).toEqual(sent());
    expect(a.usage.input).toBeGreaterThan(0);
  });

  it("MC-15: a later wake resuming a thread whose last turn was cancelled counts only its own calls (the cancelled calls were booked once, by the cancelled wake)", async () => {
    const add = (r: Parameters<Extract<Step, (...args: never[]) => unknown>>[0]) =>
      reply.toolCall(
        r.tools.find((t) => t.name === "add")!,
        { a: 1, b: 1 },
      );
    let resumed = false;
    await standin((request, context) =>
      context.callIndex < 2 ? add(request) : resumed ? reply.text("Resumed and done.") : reply.hang(),
    );
    const first = agent();
    let results = 0;
    for await (const e of first.send("Keep adding."))
      if (e.type === "tool_result" && ++results === 2) first.cancel();
    expect(first.usage).toEqual(sent());
    const booked = server!.modelCalls().length; // a call sent before the cancel was never answered
    const later = agent({ resume: first.vendorSessionId! });
    resumed = true;
    const events = await collect(later.send("Carry on."));
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(later.usage).toEqual(sent(booked));
    expect(later.usage.input + later.usage.cacheRead).toBeGreaterThan(0);
  });

  it("cancel stops the exec process while the model hangs; the turn ends cancelled exactly once", async () => {
    await standin([reply.hang()]);
    const a = agent();
    const events: AgentEvent[] = [];
    for await (const e of a.send("hi")) {
      events.push(e);
      if (e.type === "turn_start") setTimeout(() => a.cancel(), 200);
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(a.isRunning).toBe(false);
  });

  it("MC-11: with no route to its model server Codex only says it is reconnecting; the watchdog closes the run failed, with the reason, exactly once", async () => {
    await standin(["unused"]);
    const a = agent({
      provider: { baseUrl: `http://127.0.0.1:${await refusedPort()}/v1`, apiKeyEnv: "STANDIN_KEY" },
      watchdogMs: 5_000,
    });
    const events = await collect(a.send("hi"));
    expect(ofType(events, "error").filter((e) => e.code === "watchdog")).toEqual([
      {
        type: "error",
        code: "watchdog",
        message: expect.stringMatching(
          /^no progress from Codex for 5 s.*reconnect watchdog closed the turn \(report only: no rollover, no replay\)/,
        ),
      },
    ]);
    expect(ofType(events, "terminal")).toEqual([
      {
        type: "terminal",
        status: "failed",
        reason: expect.stringContaining("report only: no rollover, no replay"),
      },
    ]);
    expect(events.at(-1)!.type).toBe("terminal");
    expect(events.some((e) => e.type === "rollover" || e.type === "recovery")).toBe(false);
    expect(server!.modelCalls()).toHaveLength(0);
  });

  it("a provider Codex cannot reach ends the wake within the unreachable bound, saying so with Codex's own words, once", async () => {
    await standin(["unused"]);
    const a = agent({
      provider: { baseUrl: `http://127.0.0.1:${await refusedPort()}/v1`, apiKeyEnv: "STANDIN_KEY" },
      unreachableMs: 3_000,
    });
    const events = await collect(a.send("hi"));
    expect(ofType(events, "error").filter((e) => e.code === "provider_unreachable")).toEqual([
      {
        type: "error",
        code: "provider_unreachable",
        message: expect.stringMatching(
          /^the model provider could not be reached for 3 s \(Codex's last word: "Reconnecting\.\.\..*"\); Cadre closed the turn/,
        ),
      },
    ]);
    expect(ofType(events, "error").filter((e) => e.code === "watchdog")).toEqual([]);
    // Said once: besides Codex's own reconnect notices, no other error (the closed turn says nothing more).
    expect(ofType(events, "error").filter((e) => e.code !== "retrying")).toHaveLength(1);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: expect.stringContaining("could not be reached for 3 s") },
    ]);
  });

  it("a provider that answers 500 forever: Codex's retries are bounded (2 by default), the wake fails and the error is said once", async () => {
    await standin(() => reply.error("server", { message: "upstream exploded (stand-in)" }));
    const events = await collect(agent().send("hi"));
    // At most (1 + 2 retries) requests for each of (1 + 2) stream attempts; Codex's own default is 5 × 6.
    expect(server!.requests.length).toBeGreaterThan(0);
    expect(server!.requests.length).toBeLessThanOrEqual(9);
    const final = ofType(events, "error").filter((e) => e.code !== "retrying");
    expect(final).toHaveLength(1);
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: final[0]!.message },
    ]);
    // The status the provider answered, from Codex's own log; Codex withholds the provider's message.
    expect(final[0]!.message).toMatch(
      /^the model provider answered HTTP 500 Internal Server Error; Codex reported "[^"]+" \(Codex does not pass on the provider's own message\)$/,
    );
    expect(final[0]!.message).not.toMatch(/Request completed|headers=/);
  });

  it("MC-14: an exec yield (a command still running when Codex ends its turn) holds the turn open for one continuation that waits on it; the real binary can only prove lost-handle; nothing is replayed", async () => {
    await standin([
      reply.toolCall(
        "exec_command",
        { cmd: "sleep 5; echo finished", yield_time_ms: 250 },
        "Starting the build.",
      ),
      "The build is running.",
      (r) =>
        reply.toolCall(
          "write_stdin",
          {
            session_id: Number(/session ID (\d+)/.exec(JSON.stringify(r.messages))?.[1] ?? 0),
            chars: "",
            yield_time_ms: 500,
          },
          "Waiting for it.",
        ),
      "I cannot reach that process any more.",
    ]);
    const a = agent({
      policy: { sandboxMode: "read-only", approvalPolicy: "never", webSearch: false, shell: true },
    });
    const events = await collect(a.send("Run the build."));
    const continuation = ofType(events, "continuation");
    expect(continuation.map((c) => c.action)).toEqual(["opened", "lost-handle"]);
    expect(continuation[1]!.reason).toMatch(
      /^lost-handle: `.*sleep 5; echo finished.*` was still running .* not run again/,
    );
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "failed", reason: "lost-handle" },
    ]);
    // The yielded command's result is reported once, as lost.
    expect(ofType(events, "tool_result").filter((r) => r.name === "command_execution")).toEqual([
      expect.objectContaining({ isError: true, content: [{ type: "text", text: continuation[1]!.reason }] }),
    ]);
    // The origin request was never replayed: the one continuation asked to wait, nothing else.
    const prompts = server!.modelCalls().map((c) => lastUserText(c.request));
    expect(prompts.filter((p) => p.includes("Run the build.")).length).toBeGreaterThan(0);
    expect(prompts.at(-1)).not.toContain("Run the build.");
    const waits = server!
      .modelCalls()
      .filter((c) =>
        lastUserText(c.request).startsWith(EXEC_YIELD_CONTINUATION_TEMPLATE.split("{commands}")[0]!),
      );
    expect(waits).toHaveLength(1);
    expect(a.isRunning).toBe(false);
  });

  it("MC-14: Stop as the continuation starts ends the product turn cancelled exactly once, and the continuation never reaches the model (the tombstone-by-id path: exec-yield.test.ts)", async () => {
    await standin([
      reply.toolCall("exec_command", { cmd: "sleep 5; echo finished", yield_time_ms: 250 }, "Starting."),
      "Running.",
      reply.hang(),
    ]);
    const a = agent({
      policy: { sandboxMode: "read-only", approvalPolicy: "never", webSearch: false, shell: true },
    });
    const events: AgentEvent[] = [];
    for await (const e of a.send("Run the build.")) {
      events.push(e);
      if (e.type === "continuation" && e.action === "opened") a.cancel();
    }
    expect(ofType(events, "terminal")).toEqual([
      { type: "terminal", status: "cancelled", reason: "cancelled by the operator" },
    ]);
    expect(ofType(events, "continuation").map((c) => c.action)).toEqual(["opened"]);
    expect(server!.modelCalls()).toHaveLength(2);
    expect(a.isRunning).toBe(false);
  });

  it("a company MCP server that cannot start stops Codex before its first request (the server is required), with Codex's own reason", async () => {
    await standin(["never reached"]);
    const a = agent({
      mcpServers: { cadre: { command: process.execPath, args: ["-e", "process.exit(3)"] } },
    });
    const events = await collect(a.send("Go."));
    expect(ofType(events, "error")).toEqual([
      {
        type: "error",
        code: "harness_start_failed",
        message: expect.stringMatching(
          /Codex did not start: .*required MCP servers? failed to initialize.*cadre/s,
        ),
      },
    ]);
    expect(ofType(events, "terminal").map((t) => t.status)).toEqual(["failed"]);
    expect(server!.modelCalls()).toHaveLength(0);
  });
});

describe("Codex harness without a binary", () => {
  it("a missing executable is one readable error and a failed terminal", async () => {
    await standin(["unused"]);
    const events = await collect(agent({ executablePath: join(dir, "no-such-codex") }).send("hi"));
    expect(ofType(events, "error")).toEqual([
      { type: "error", code: "harness_start_failed", message: expect.stringContaining("no-such-codex") },
    ]);
    expect(ofType(events, "terminal")).toHaveLength(1);
  });

  it("the watchdog option is checked: a non-positive value is refused at construction", async () => {
    await standin(["unused"]);
    expect(() => agent({ watchdogMs: 0 })).toThrow(/watchdogMs must be a positive number/);
  });
});

describe.skipIf(!REAL_CODEX)("a Codex thread across session objects (wakes), on the real binary", () => {
  it("a new session object resumes the thread its session state names: verified on thread.started, a `resumed` session event, usage only its own", async () => {
    await standin(["Hired the CTO.", "You hired the CTO."]);
    const first = agent();
    await collect(first.send("Hire a CTO."));
    const state = first.sessionState!;
    expect(state).toMatchObject({ harness: "codex", resumed: false, rolledOver: false });
    const id = state.ref!.id;
    const second = agent({ resume: { id }, digest: state.digest });
    const events = await collect(second.send("What did you do?"));
    expect(ofType(events, "session")).toEqual([{ type: "session", action: "resumed", harness: "codex", id }]);
    expect(ofType(events, "rollover")).toEqual([]);
    expect(second.sessionState).toMatchObject({ ref: { id }, resumed: true, rolledOver: false });
    // MC-15: one totals source, the thread's rollout file; the persisted record is not read back.
    expect(second.usage).toEqual(sent(1));
  });

  it("MC-9 a thread Codex has no rollout of heals once from the handoff digest: `self-healed` and rollover events, the digest before the prompt, never a loop", async () => {
    await standin(["Fresh start."]);
    const missing = "01a2312c-e9a1-7a30-afae-ad454f93ba8c";
    const digest = [
      { kind: "task" as const, text: "Run the company." },
      { kind: "decision" as const, text: 'hire_agent succeeded: {"name":"CTO"}' },
    ];
    const a = agent({ resume: { id: missing }, digest });
    const events = await collect(a.send("Add 2 and 40."));
    const [heal] = ofType(events, "session");
    expect(heal).toMatchObject({ action: "self-healed", harness: "codex", previousId: missing });
    expect(ofType(events, "rollover")).toEqual([
      expect.objectContaining({ reason: heal!.reason, fromSession: missing }),
    ]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(server!.modelCalls()).toHaveLength(1);
    expect(lastUserText(server!.modelCalls()[0]!.request)).toMatch(
      /# Handoff\n[\s\S]*hire_agent succeeded[\s\S]*\n---\n\nAdd 2 and 40\.$/,
    );
    const state = a.sessionState!;
    expect(state.ref!.id).toBe(a.vendorSessionId);
    expect(state.ref!.id).not.toBe(missing);
    expect(state).toMatchObject({ resumed: false, rolledOver: true, selfHealed: heal!.reason });
  });

  it("MC-9 a handoff left for the session (a thread closed between wakes): the new thread's first input carries it, the rollover is reported, the old thread is not resumed", async () => {
    await standin(["Carrying on."]);
    const a = agent({
      resume: { id: "old-thread" },
      bootstrap: {
        handoff: "# Handoff\nContext rebuilt by the host.",
        items: [{ kind: "task", text: "Run the company." }],
        reason: "switch to gpt-5-mini: rebuilt from a handoff first",
        fromSession: "old-thread",
      },
    });
    const events = await collect(a.send("Carry on."));
    expect(ofType(events, "rollover")).toMatchObject([
      { reason: "switch to gpt-5-mini: rebuilt from a handoff first", fromSession: "old-thread" },
    ]);
    // A new thread (named at once), never the old one resumed.
    expect(ofType(events, "session").map((e) => e.action)).toEqual(["started"]);
    expect(ofType(events, "terminal")).toEqual([{ type: "terminal", status: "done" }]);
    expect(lastUserText(server!.modelCalls()[0]!.request)).toMatch(
      /# Handoff\nContext rebuilt by the host\.\n---\n\nCarry on\.$/,
    );
    expect(a.sessionState).toMatchObject({ rolledOver: true, resumed: false });
    expect(a.sessionState!.ref!.id).not.toBe("old-thread");
  });
});
