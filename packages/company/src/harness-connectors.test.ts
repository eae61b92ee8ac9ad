// The claude-code and codex connectors: readiness that says exactly what is missing, and the
// company's hire_agent reaching the REAL Claude Code binary (shipped in the Agent SDK's platform
// package) through the SDK's in-process MCP server, in a wake, against a loopback stand-in model
// server (@cadre/standin). Nothing reaches a vendor. (Codex reaches the tools through `cadre mcp`: see
// packages/cli/src/commands/mcp.test.ts and harnesses.test.ts.)
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "@cadre/core";
import { claudeCodeTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { reply, scripted, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCompany } from "./companies.js";
import {
  checkReadiness,
  type Readiness,
  refreshReadiness,
  validateEnabledModels,
} from "./connectors/readiness.js";
import { ProbeCache } from "./connectors/probe-cache.js";
import { createSession } from "./session.js";
import { loadCompanyState } from "./state.js";
import { companyTools } from "./tools/index.js";
import { wakeAgent } from "./wake.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-harness-connectors-"));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

/** Readiness as a wake sees it: the probes run first (a fresh cache each time), then it is read. */
async function readiness(c: ReturnType<typeof connector>, env: NodeJS.ProcessEnv): Promise<Readiness> {
  const { probes: _probes, ...rest } = await checkReadiness(c, env, new ProbeCache());
  return rest;
}

const connector = (kind: "claude-code" | "codex", config: Record<string, unknown> = {}) => ({
  kind,
  config,
  enabledModels: kind === "codex" ? ["gpt-5-2025-08-07"] : ["claude-sonnet-4-5-20250929"],
});

describe("claude-code and codex readiness", () => {
  it("finds the SDK-bundled executables and says precisely which credentials are missing", async () => {
    const env = { PATH: "/usr/bin:/bin", HOME: dir };
    expect(await readiness(connector("claude-code"), env)).toEqual({
      ready: false,
      missing: `no Claude Code credentials: none of ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN, ANTHROPIC_AUTH_TOKEN is set and ${join(dir, ".claude", ".credentials.json")} does not exist (set ANTHROPIC_API_KEY, or run \`claude setup-token\` / \`claude login\`)`,
    });
    expect(await readiness(connector("codex"), env)).toEqual({
      ready: false,
      missing: `no Codex credentials: none of CODEX_API_KEY, OPENAI_API_KEY, CODEX_ACCESS_TOKEN is set and ${join(dir, ".codex", "auth.json")} does not exist (set OPENAI_API_KEY, or run \`codex login\`)`,
    });
  });

  it("is ready with a key, an OAuth token, or a login file", async () => {
    const env = { PATH: "/usr/bin:/bin", HOME: dir };
    expect(await readiness(connector("claude-code"), { ...env, ANTHROPIC_API_KEY: "sk-ant-x" })).toEqual({
      ready: true,
    });
    expect(await readiness(connector("claude-code"), { ...env, CLAUDE_CODE_OAUTH_TOKEN: "oat" })).toEqual({
      ready: true,
    });
    expect(await readiness(connector("codex"), { ...env, OPENAI_API_KEY: "sk-x" })).toEqual({ ready: true });
    await mkdir(join(dir, ".claude"));
    await writeFile(join(dir, ".claude", ".credentials.json"), "{}");
    await mkdir(join(dir, "codex-home"));
    await writeFile(join(dir, "codex-home", "auth.json"), "{}");
    expect(await readiness(connector("claude-code"), env)).toEqual({ ready: true });
    expect(await readiness(connector("codex"), { ...env, CODEX_HOME: join(dir, "codex-home") })).toEqual({
      ready: true,
    });
  });

  it("names a configured executable that is not there, a non-executable one, PATH lookups and a bad policy — all at once", async () => {
    const env = { PATH: dir, HOME: dir };
    const missing = join(dir, "nope");
    expect(
      await readiness(connector("codex", { executablePath: missing, sandboxMode: "yolo" }), env),
    ).toEqual({
      ready: false,
      missing: expect.stringMatching(
        new RegExp(
          `^config.executablePath "${missing}" is not an executable file; no Codex credentials: .*; config.sandboxMode must be one of read-only, workspace-write, danger-full-access; got "yolo"$`,
        ),
      ),
    });
    expect(
      (
        await readiness(connector("claude-code", { permissionMode: "always" }), {
          ...env,
          ANTHROPIC_API_KEY: "k",
        })
      ).missing,
    ).toBe(
      'config.permissionMode must be one of dontAsk, default, acceptEdits, plan, auto, bypassPermissions; got "always"',
    );
    // A script that is not executable cannot be Codex (the SDK starts it directly); with the x bit it can.
    const script = join(dir, "codex-wrapper.sh");
    await writeFile(script, "#!/bin/sh\n");
    expect(
      (await readiness(connector("codex", { executablePath: script }), { ...env, OPENAI_API_KEY: "k" }))
        .ready,
    ).toBe(false);
    await chmod(script, 0o755);
    expect(
      await readiness(connector("codex", { executablePath: script }), { ...env, OPENAI_API_KEY: "k" }),
    ).toEqual({ ready: true });
    if (REAL_CODEX)
      expect(
        await readiness(connector("codex", { executablePath: REAL_CODEX }), { ...env, OPENAI_API_KEY: "k" }),
      ).toEqual({ ready: true });
  });

  it("a loopback ANTHROPIC_BASE_URL needs no Claude Code key; a codex connector's own model server needs only the key it names", async () => {
    const env = { PATH: "/usr/bin:/bin", HOME: dir };
    // A model server that answers: readiness of a base URL includes its endpoint probe (C4-9).
    const models = await startStandin({ policy: scripted(["Ready."]) });
    const baseUrl = models.openaiBaseUrl;
    expect(
      await readiness(connector("claude-code"), { ...env, ANTHROPIC_BASE_URL: "http://127.0.0.1:9/" }),
    ).toEqual({ ready: true });
    // A remote base URL still needs a credential.
    expect(
      (await readiness(connector("claude-code"), { ...env, ANTHROPIC_BASE_URL: "https://llm.example.com" }))
        .ready,
    ).toBe(false);
    expect(await readiness(connector("codex", { baseUrl }), env)).toEqual({
      ready: true,
    });
    expect(await readiness(connector("codex", { baseUrl, apiKeyEnv: "MY_MODEL_KEY" }), env)).toEqual({
      ready: false,
      missing: "MY_MODEL_KEY (the key of config.baseUrl, named by config.apiKeyEnv) is not set",
    });
    expect(
      await readiness(connector("codex", { baseUrl, apiKeyEnv: "MY_MODEL_KEY" }), {
        ...env,
        MY_MODEL_KEY: "k",
      }),
    ).toEqual({ ready: true });
    expect((await readiness(connector("codex", { baseUrl: "ftp://x" }), env)).missing).toMatch(
      /^config.baseUrl must be the http\(s\) URL of a Responses API/,
    );
    expect(
      (await readiness(connector("codex", { apiKeyEnv: "K" }), { ...env, OPENAI_API_KEY: "k" })).missing,
    ).toMatch(/config.apiKeyEnv needs config.baseUrl/);
    expect(
      (await readiness(connector("codex", { watchdogMs: -1 }), { ...env, OPENAI_API_KEY: "k" })).missing,
    ).toMatch(/config.watchdogMs must be a positive number/);
    expect(
      (await readiness(connector("codex", { shell: "yes" }), { ...env, OPENAI_API_KEY: "k" })).missing,
    ).toMatch(/config.shell must be true or false/);
    await models.close();
  });

  it.skipIf(process.getuid?.() !== 0)(
    "bypassPermissions is not ready as root: Claude Code refuses it, so readiness says so first",
    async () => {
      expect(
        (
          await readiness(connector("claude-code", { permissionMode: "bypassPermissions" }), {
            PATH: "",
            HOME: dir,
            ANTHROPIC_API_KEY: "k",
          })
        ).missing,
      ).toMatch(/bypassPermissions cannot run as root/);
    },
  );

  it("takes the vendor's explicit model ids: Anthropic's for claude-code, OpenAI's for codex", () => {
    expect(() => validateEnabledModels("claude-code", ["claude-sonnet-4-5-20250929"])).not.toThrow();
    expect(() => validateEnabledModels("codex", ["gpt-5-2025-08-07"])).not.toThrow();
    expect(() => validateEnabledModels("codex", ["claude-sonnet-4-5-20250929"])).toThrow(
      /belongs to anthropic, not to a codex connector/,
    );
    expect(() => validateEnabledModels("claude-code", ["sonnet"])).toThrow(/alias/);
  });

  it("a session on a connector that is not ready is refused before anything starts, with the reason", async () => {
    const store = await openStore({ memory: true });
    try {
      const company = await createCompany(store, {
        name: "Acme",
        goal: "Robots",
        connectors: [{ kind: "claude-code" }],
      });
      const state = await loadCompanyState(store, company.id);
      const cc = state.connectors.find((c) => c.kind === "claude-code")!;
      // What the session reads is the probes' last outcome: run them first, as a wake does.
      await refreshReadiness([cc], { PATH: "", HOME: dir });
      await expect(
        createSession({
          sessionId: "s",
          agent: { ...state.ceo, model: "claude-sonnet-4-5-20250929" },
          connector: cc,
          systemPrompt: "p",
          tools: [],
          seed: 1,
          env: { PATH: "", HOME: dir },
        }),
      ).rejects.toThrow(/connector "claude-code" of agent CEO is not ready: no Claude Code credentials/);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!REAL_CLAUDE_CODE)(
  "hire_agent reaches the real Claude Code as an in-process MCP server",
  () => {
    let store: Store;
    let server: StandinServer;
    beforeEach(async () => {
      store = await openStore({ memory: true });
    });
    afterEach(async () => {
      await server?.close();
      await store.close();
    });

    const CTO = {
      name: "CTO",
      role: "Chief Technology Officer",
      description: "Owns the technical strategy and leads engineering.",
      connectorId: "offline",
      model: "offline-scripted-1",
      department: "engineering",
    };

    it("a wake of a claude-code CEO hires through the same handler: a row via the tool, a refusal writes nothing; usage is what the model server sent", async () => {
      server = await startStandin({
        policy: scripted([
          reply.toolCall("mcp__cadre__hire_agent", CTO, "Hiring a CTO first."),
          reply.toolCall("mcp__cadre__hire_agent", {
            ...CTO,
            name: "CFO",
            role: "Chief Financial Officer",
            department: "finance",
            model: "sonnet",
          }),
          'Hired the CTO. The CFO hire was refused: "sonnet" is an alias.',
        ]),
      });
      // A wake without a data directory gives the agent a working folder under the OS temp dir: this test's.
      vi.stubEnv("TMPDIR", dir);
      vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-offline-never-sent"); // the CEO is created on a ready connector; never sent
      const company = await createCompany(store, {
        name: "Acme Robotics",
        goal: "Build warehouse robots.",
        connectors: [
          {
            kind: "claude-code",
            enabledModels: ["claude-sonnet-4-5-20250929"],
            config: { executablePath: REAL_CLAUDE_CODE },
          },
        ],
        ceoConnectorId: "claude-code",
      });
      const { ceo } = await loadCompanyState(store, company.id);
      const events: AgentEvent[] = [];
      const result = await wakeAgent({
        store,
        agentId: ceo.id,
        trigger: "start_team_building",
        env: claudeCodeTestEnv(join(dir, "home"), server.anthropicBaseUrl),
        onEvent: (e) => events.push(e),
      });
      expect(result.terminal).toBe("done");
      // Without a data directory the agent works in a workspace of its own under the OS temp dir.
      expect(existsSync(join(dir, "cadre", "agents", ceo.id, "workspace"))).toBe(true);
      // The run's first event: what Claude Code offers, as the company decided.
      expect(events[0]).toMatchObject({
        type: "harness_tools",
        mcpServers: [{ name: "cadre", status: "connected" }],
      });
      expect(events[0]).not.toHaveProperty("problem");
      const decided = [
        "mcp__cadre__file_approval",
        "mcp__cadre__hire_agent",
        "mcp__cadre__reply_to_operator",
      ];
      expect((events[0] as { tools: string[] }).tools.sort()).toEqual(decided);
      expect(server.toolsOffered(0).sort()).toEqual(decided);
      const hires = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
      expect(hires.map((a) => [a.name, a.role, a.via, a.reportsTo, a.connectorId, a.department])).toEqual([
        ["CTO", "Chief Technology Officer", "tool", ceo.id, "offline", "engineering"],
      ]);
      const hired = await store.listActivity(company.id, { type: "agent.hired" });
      expect(hired.map((a) => [a.agentId, a.runId])).toEqual([[hires[0]!.id, result.run.id]]);
      // The stored run is the translated Claude Code stream: both calls and both results, one terminal.
      const stored = await store.listRunEvents(result.run.id);
      expect(stored.map((e) => e.type)).toEqual(events.map((e) => e.type));
      const results = stored
        .filter((e) => e.type === "tool_result")
        .map((e) => e.data as { name: string; isError: boolean; content: Array<{ text: string }> });
      expect(results.map((r) => [r.name, r.isError])).toEqual([
        ["mcp__cadre__hire_agent", false],
        ["mcp__cadre__hire_agent", true],
      ]);
      expect(JSON.parse(results[0]!.content[0]!.text)).toEqual({
        agentId: hires[0]!.id,
        name: "CTO",
        role: "Chief Technology Officer",
      });
      expect(results[1]!.content[0]!.text).toMatch(
        /^hire_agent was not run, nothing was written\. `model` "sonnet" is an alias/,
      );
      expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
      const sent = server.modelCalls().reduce(
        (t, c) => ({
          input: t.input + (c.answered?.usage?.input ?? 0),
          output: t.output + (c.answered?.usage?.output ?? 0),
          cacheRead: t.cacheRead + (c.answered?.usage?.cacheRead ?? 0),
          cacheWrite: t.cacheWrite + (c.answered?.usage?.cacheWrite ?? 0),
        }),
        { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      );
      expect(result.usage).toEqual(sent);
    });

    it("createSession on a claude-code connector serves the session's own tool list in-process and runs in the agent's workspace", async () => {
      server = await startStandin({ policy: scripted(["Ready."]) });
      const company = await createCompany(store, {
        name: "Beta",
        goal: "Software",
        connectors: [{ kind: "claude-code", config: { executablePath: REAL_CLAUDE_CODE } }],
      });
      const state = await loadCompanyState(store, company.id);
      const cc = state.connectors.find((c) => c.id === "claude-code")!;
      const tools = companyTools(store, {
        companyId: company.id,
        agentId: state.ceo.id,
        via: "tool",
        runId: null,
      });
      const env = claudeCodeTestEnv(join(dir, "home"), server.anthropicBaseUrl);
      // As a wake does: the connector's probes (executable, credentials) run before the session reads them.
      await refreshReadiness([cc], env);
      const session = await createSession({
        sessionId: "s1",
        agent: { ...state.ceo, connectorId: cc.id, model: "claude-sonnet-4-5-20250929" },
        connector: cc,
        systemPrompt: "You are the CEO.",
        tools,
        seed: 1,
        dataDir: dir,
        env,
      });
      const out: AgentEvent[] = [];
      for await (const e of session.send("Build the team")) out.push(e);
      expect(out.at(-1)).toEqual({ type: "terminal", status: "done" });
      const init = out.find(
        (e): e is Extract<AgentEvent, { type: "unknown" }> =>
          e.type === "unknown" && e.vendorType === "system:init",
      )!.raw as { cwd: string; tools: string[]; permissionMode: string };
      expect(init.cwd).toBe(join(dir, "agents", state.ceo.id, "workspace"));
      expect(init.tools.sort()).toEqual([
        "mcp__cadre__file_approval",
        "mcp__cadre__hire_agent",
        "mcp__cadre__reply_to_operator",
      ]);
      expect(init.permissionMode).toBe("dontAsk");
    });
  },
);
