// `cadre mcp` through real processes: the MCP SDK's own Client spawns the built bin over stdio; and
// the REAL Codex binary, run by the real Codex SDK against a loopback stand-in model server, reaches
// the company tools by starting that same `cadre mcp`. Rows are read back from the store the server wrote.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  companyTools,
  createCompany,
  createSession,
  hireAgentSchema,
  loadCompanyState,
  refreshReadiness,
} from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { codexTestEnv, REAL_CODEX } from "@cadre/core/testing";
import { reply, scripted, startStandin, type StandinServer, type Step } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

const CTO = {
  name: "CTO",
  role: "Chief Technology Officer",
  description: "Owns the technical strategy.",
  connectorId: "offline",
  model: "offline-scripted-1",
  department: "engineering",
};

let dir: string;
let store: Store;
let client: Client | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-mcp-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function company() {
  const created = await createCompany(store, { name: "Acme Robotics", goal: "Build warehouse robots." });
  return loadCompanyState(store, created.id);
}

async function connect(...args: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    env: ENV as Record<string, string>,
    stderr: "pipe",
  });
  client = new Client({ name: "cadre-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

interface CallToolResultLike {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

const hires = async (companyId: string) => (await store.listAgents(companyId)).filter((a) => !a.isCeo);

describe("cadre mcp --agent ID (built bin, spoken to by the MCP SDK's Client over stdio)", () => {
  it("lists the agent's company tools with the one JSON Schema they are defined by", async () => {
    const { ceo } = await company();
    const c = await connect("--agent", ceo.id, "--data", dir);
    expect(c.getServerVersion()).toMatchObject({ name: "cadre" });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(["hire_agent", "file_approval", "reply_to_operator"]);
    expect(tools[0]!.inputSchema).toEqual(JSON.parse(JSON.stringify(hireAgentSchema)));
    // The same list a wake hands the model.
    const inProcess = companyTools(store, {
      companyId: ceo.companyId,
      agentId: ceo.id,
      via: "tool",
      runId: null,
    });
    expect(tools.map((t) => [t.name, t.description])).toEqual(inProcess.map((t) => [t.name, t.description]));
  });

  it("a valid hire_agent lands as a row made via the tool; refusals are readable isError results that write nothing", async () => {
    const state = await company();
    const c = await connect("--agent", state.ceo.id, "--data", dir);

    const ok = await c.callTool({ name: "hire_agent", arguments: CTO });
    expect(ok.isError).toBe(false);
    const value = JSON.parse((ok.content as Array<{ text: string }>)[0]!.text) as { agentId: string };
    expect(value).toEqual({
      agentId: expect.stringMatching(/^agt_/),
      name: "CTO",
      role: "Chief Technology Officer",
    });
    const [cto] = await hires(state.company.id);
    expect(cto).toMatchObject({
      id: value.agentId,
      name: "CTO",
      via: "tool",
      reportsTo: state.ceo.id,
      department: "engineering",
    });
    expect(
      (await store.listActivity(state.company.id, { type: "agent.hired" })).map((a) => [a.agentId, a.runId]),
    ).toEqual([[value.agentId, null]]);

    const alias = await c.callTool({
      name: "hire_agent",
      arguments: { ...CTO, name: "CFO", role: "Chief Financial Officer", model: "sonnet" },
    });
    expect(alias).toEqual({
      content: [
        {
          type: "text",
          text: expect.stringMatching(
            /^hire_agent was not run, nothing was written\. `model` "sonnet" is an alias/,
          ),
        },
      ],
      isError: true,
    });
    const badType = await c.callTool({ name: "hire_agent", arguments: { ...CTO, name: 42 } });
    expect(badType).toEqual({
      content: [
        {
          type: "text",
          text: "hire_agent was not run, nothing was written. Fix: `name` must be a string, got a number.",
        },
      ],
      isError: true,
    });
    const duplicate = await c.callTool({ name: "hire_agent", arguments: CTO });
    expect(duplicate).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('"CTO" is already the name of an active agent') }],
    });
    expect((await hires(state.company.id)).map((a) => a.name)).toEqual(["CTO"]);
  });

  it("validates the raw arguments as HTTP does: a __proto__ key and a lone surrogate are refused, and nothing is hired", async () => {
    const state = await company();
    // The MCP SDK's Client (and its zod) would drop a "__proto__" key before sending; a raw client
    // writes the JSON-RPC lines itself, as any other MCP client may.
    const child = spawn(process.execPath, [BIN, "mcp", "--agent", state.ceo.id, "--data", dir], {
      env: ENV,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const answers = new Map<number, { result: CallToolResultLike }>();
    let buffer = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, end)) as { id?: number; result: CallToolResultLike };
        buffer = buffer.slice(end + 1);
        if (typeof message.id === "number") answers.set(message.id, message);
      }
    });
    const answer = async (id: number) => {
      for (let i = 0; i < 600 && !answers.has(id); i++) await new Promise((r) => setTimeout(r, 50));
      const found = answers.get(id);
      if (!found) throw new Error(`no answer to request ${id}`);
      return found.result;
    };
    const send = (line: string) => child.stdin.write(`${line}\n`);
    try {
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        }),
      );
      await answer(1);
      send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      const call = (id: number, args: string) =>
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"hire_agent","arguments":${args}}}`;
      const cto = JSON.stringify(CTO);
      send(call(2, `{"__proto__":{"isCeo":true},${cto.slice(1)}`));
      const proto = await answer(2);
      expect(proto.isError).toBe(true);
      expect(proto.content[0]!.text).toMatch(
        /^hire_agent was not run, nothing was written\. Fix: `__proto__` unknown field; allowed fields: name, role/,
      );
      send(call(3, cto.replace('"name":"CTO"', '"name":"A\\ud800B"')));
      const lone = await answer(3);
      expect(lone.isError).toBe(true);
      expect(lone.content[0]!.text).toMatch(/`name` contains U\+D800, a lone surrogate/);
      send(call(4, cto.replace('"name":"CTO"', '"name":"C\\u200bTO"')));
      expect((await answer(4)).content[0]!.text).toMatch(/`name` contains U\+200B \(ZERO WIDTH SPACE\)/);
      expect(await hires(state.company.id)).toEqual([]);
      // The same server still hires a valid call.
      send(call(5, cto));
      expect((await answer(5)).isError).toBe(false);
      expect((await hires(state.company.id)).map((a) => a.name)).toEqual(["CTO"]);
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });

  it("--run records the calls against that run of the agent", async () => {
    const state = await company();
    await store.insertRun({
      id: "run_mcp_test",
      companyId: state.company.id,
      agentId: state.ceo.id,
      trigger: "start_team_building",
      mode: "team-building",
      profile: "semantic",
      cue: "cue",
    });
    const c = await connect("--agent", state.ceo.id, "--data", dir, "--run", "run_mcp_test");
    expect((await c.callTool({ name: "hire_agent", arguments: CTO })).isError).toBe(false);
    expect((await store.listActivity(state.company.id, { type: "agent.hired" })).map((a) => a.runId)).toEqual(
      ["run_mcp_test"],
    );
  });

  it("bad usage exits 2 with a message and serves nothing", async () => {
    const state = await company();
    const fails = async (...args: string[]) => {
      const error = (await run("node", [BIN, "mcp", ...args], { env: ENV }).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code: number; stderr: string; stdout: string };
      expect(error?.code).toBe(2);
      expect(error.stdout).toBe("");
      return error.stderr;
    };
    const [noAgent, unknownAgent, otherRun] = await Promise.all([
      fails("--data", dir),
      fails("--agent", "agt_nobody", "--data", dir),
      fails("--agent", state.ceo.id, "--data", dir, "--run", "run_other"),
    ]);
    expect(noAgent).toMatch(/--agent ID is required/);
    expect(unknownAgent).toMatch(/agent agt_nobody not found/);
    expect(otherRun).toMatch(/run run_other is not a run of agent/);
  });
});

describe.skipIf(!REAL_CODEX)("the real Codex reaches the company tools through `cadre mcp`", () => {
  let server: StandinServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("a Codex session hires through `cadre mcp`: a row via the tool, recorded against the run; the refusal writes nothing; usage counted once", async () => {
    // Codex runs only a call in its MCP namespace: answer with the tool as the request offered it.
    const hire =
      (args: Record<string, unknown>): Step =>
      (r) =>
        reply.toolCall(r.tools.find((t) => t.name === "hire_agent") ?? "hire_agent", args, "Hiring.");
    server = await startStandin({
      policy: scripted([
        hire(CTO),
        hire({
          ...CTO,
          name: "CFO",
          role: "Chief Financial Officer",
          department: "finance",
          model: "sonnet",
        }),
        'Hired the CTO. The CFO hire was refused: "sonnet" is an alias.',
      ]),
    });
    const state = await company();
    const runId = "run_codex_hire";
    await store.insertRun({
      id: runId,
      companyId: state.company.id,
      agentId: state.ceo.id,
      trigger: "start_team_building",
      mode: "team-building",
      profile: "semantic",
      cue: "cue",
    });
    const codexConnector = {
      companyId: state.company.id,
      id: "codex",
      kind: "codex" as const,
      label: "Codex",
      enabledModels: ["gpt-5-2025-08-07"],
      config: { baseUrl: server.openaiBaseUrl },
      createdAt: "",
    };
    const env = codexTestEnv(join(dir, "home"));
    // As a wake does: the connector's probes (executable, credentials) run before the session reads them.
    await refreshReadiness([codexConnector], env);
    const session = await createSession({
      sessionId: runId,
      runId,
      agent: { ...state.ceo, connectorId: "codex", model: "gpt-5-2025-08-07" },
      connector: codexConnector,
      systemPrompt: "You are the CEO of Acme Robotics.",
      tools: companyTools(store, { companyId: state.company.id, agentId: state.ceo.id, via: "tool", runId }),
      seed: 1,
      env,
      dataDir: dir,
      cadreCommand: [process.execPath, BIN],
    });
    const events: AgentEvent[] = [];
    for await (const e of session.send("You are the CEO. Your team is currently empty.")) events.push(e);
    expect(events.at(-1)).toEqual({ type: "terminal", status: "done" });
    expect(events[0]).toMatchObject({
      type: "harness_tools",
      tools: expect.arrayContaining(["mcp__cadre__hire_agent", "mcp__cadre__file_approval"]),
      mcpServers: [
        {
          name: "cadre",
          status: expect.stringMatching(/^ready \(required; answered tools\/list to codex-mcp-client/),
        },
      ],
    });
    expect(events[0]).not.toHaveProperty("problem");

    const results = events.filter(
      (e): e is Extract<AgentEvent, { type: "tool_result" }> => e.type === "tool_result",
    );
    expect(results.map((r) => [r.name, r.isError])).toEqual([
      ["mcp__cadre__hire_agent", false],
      ["mcp__cadre__hire_agent", true],
    ]);
    const [cto] = await hires(state.company.id);
    expect(JSON.parse((results[0]!.content[0] as { text: string }).text)).toEqual({
      agentId: cto!.id,
      name: "CTO",
      role: "Chief Technology Officer",
    });
    expect((results[1]!.content[0] as { text: string }).text).toMatch(/`model` "sonnet" is an alias/);
    expect((await hires(state.company.id)).map((a) => [a.name, a.via, a.reportsTo])).toEqual([
      ["CTO", "tool", state.ceo.id],
    ]);
    expect(
      (await store.listActivity(state.company.id, { type: "agent.hired" })).map((a) => [a.agentId, a.runId]),
    ).toEqual([[cto!.id, runId]]);
    const sent = server.modelCalls().reduce(
      (t, c) => ({
        input: t.input + (c.answered?.usage?.input ?? 0),
        output: t.output + (c.answered?.usage?.output ?? 0),
        cacheRead: t.cacheRead + (c.answered?.usage?.cacheRead ?? 0),
        cacheWrite: 0,
      }),
      { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    );
    // One usage event per model call Codex made (read from its rollout as each is answered), and
    // together exactly what the model server served: nothing counted twice, nothing dropped.
    const usage = events.filter((e): e is Extract<AgentEvent, { type: "usage" }> => e.type === "usage");
    expect(usage).toHaveLength(server.modelCalls().filter((c) => c.answered?.usage).length);
    const booked = usage.reduce(
      (t, e) => ({
        input: t.input + e.usage.input,
        output: t.output + e.usage.output,
        cacheRead: t.cacheRead + e.usage.cacheRead,
        cacheWrite: t.cacheWrite + e.usage.cacheWrite,
      }),
      { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    );
    expect(booked).toEqual(sent);
  });
});
