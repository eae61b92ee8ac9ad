// The claude-code and codex connectors: readiness that says exactly what is missing, and the
// company's hire_agent reaching Claude Code through the SDK's in-process MCP server — a wake on a
// claude-code CEO whose Claude Code is the OFFLINE stand-in executable (core's __fixtures__), run by
// the real Agent SDK. Nothing reaches a vendor. (Codex reaches the tools through `cadre mcp`: see
// packages/cli/src/commands/mcp.test.ts.)
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentEvent } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCompany } from "./companies.js";
import { checkReadiness, type Readiness, refreshReadiness, validateEnabledModels } from "./connectors.js";
import { ProbeCache } from "./connectors/probe-cache.js";
import { createSession } from "./session.js";
import { loadCompanyState } from "./state.js";
import { companyTools } from "./tools/index.js";
import { wakeAgent } from "./wake.js";

const CLAUDE_STAND_IN = fileURLToPath(
  new URL("../../core/src/harness/claude-code/__fixtures__/offline-claude-code.mjs", import.meta.url),
);
const CLAUDE_HIRE = fileURLToPath(
  new URL("../../core/src/harness/claude-code/__fixtures__/hire.jsonl", import.meta.url),
);
const CODEX_STAND_IN = fileURLToPath(
  new URL("../../core/src/harness/codex/__fixtures__/offline-codex.mjs", import.meta.url),
);

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
    expect(
      await readiness(connector("codex", { executablePath: CODEX_STAND_IN }), {
        ...env,
        OPENAI_API_KEY: "k",
      }),
    ).toEqual({ ready: true });
  });

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
      expect(() =>
        createSession({
          sessionId: "s",
          agent: { ...state.ceo, model: "claude-sonnet-4-5-20250929" },
          connector: cc,
          systemPrompt: "p",
          tools: [],
          seed: 1,
          env: { PATH: "", HOME: dir },
        }),
      ).toThrow(/connector "claude-code" of agent CEO is not ready: no Claude Code credentials/);
    } finally {
      await store.close();
    }
  });
});

describe("hire_agent reaches Claude Code as an in-process MCP server", () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ memory: true });
  });
  afterEach(async () => {
    await store.close();
  });

  it("a wake of a claude-code CEO hires through the same handler: a row via the tool, a refusal writes nothing", async () => {
    // The company is created with a ready claude-code connector (a key in the environment; never used).
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-offline-never-sent");
    // A wake without a data directory gives the agent a working folder under the OS temp dir: this test's.
    vi.stubEnv("TMPDIR", dir);
    const company = await createCompany(store, {
      name: "Acme Robotics",
      goal: "Build warehouse robots.",
      connectors: [
        {
          kind: "claude-code",
          enabledModels: ["claude-sonnet-4-5-20250929"],
          config: { executablePath: CLAUDE_STAND_IN },
        },
      ],
      ceoConnectorId: "claude-code",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    expect(ceo.connectorId).toBe("claude-code");
    const events: string[] = [];
    const result = await wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      env: { ...process.env, CLAUDE_CONFIG_DIR: dir, CADRE_OFFLINE_CLAUDE_SCENARIO: CLAUDE_HIRE },
      onEvent: (e) => events.push(e.type),
    });
    expect(result.terminal).toBe("done");
    expect(existsSync(join(dir, "cadre-agents", ceo.id))).toBe(true);
    const hires = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
    expect(
      hires.map((a) => ({
        name: a.name,
        role: a.role,
        via: a.via,
        reportsTo: a.reportsTo,
        connectorId: a.connectorId,
        model: a.model,
        department: a.department,
      })),
    ).toEqual([
      {
        name: "CTO",
        role: "Chief Technology Officer",
        via: "tool",
        reportsTo: ceo.id,
        connectorId: "offline",
        model: "offline-scripted-1",
        department: "engineering",
      },
    ]);
    const hired = await store.listActivity(company.id, { type: "agent.hired" });
    expect(hired.map((a) => [a.agentId, a.runId])).toEqual([[hires[0]!.id, result.run.id]]);
    // The stored run is the translated Claude Code stream: both calls and both results, one terminal.
    const stored = await store.listRunEvents(result.run.id);
    expect(stored.map((e) => e.type)).toEqual(events);
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
    expect(events.filter((t) => t === "terminal")).toHaveLength(1);
    expect(result.usage).toEqual({ input: 21, output: 187, cacheRead: 6320, cacheWrite: 3310 });
  });

  it("createSession on a claude-code connector serves the session's own tool list in-process and runs in the agent's working folder", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-offline-never-sent");
    const company = await createCompany(store, {
      name: "Beta",
      goal: "Software",
      connectors: [{ kind: "claude-code", config: { executablePath: CLAUDE_STAND_IN } }],
    });
    const state = await loadCompanyState(store, company.id);
    const cc = state.connectors.find((c) => c.id === "claude-code")!;
    const tools = companyTools(store, {
      companyId: company.id,
      agentId: state.ceo.id,
      via: "tool",
      runId: null,
    });
    const env = { ...process.env, CLAUDE_CONFIG_DIR: dir, CADRE_OFFLINE_CLAUDE_SCENARIO: CLAUDE_HIRE };
    await refreshReadiness([cc], env);
    const session = createSession({
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
    expect(init.cwd).toBe(join(dir, "agents", state.ceo.id));
    expect(init.tools.filter((t) => t.startsWith("mcp__"))).toEqual([
      "mcp__cadre__hire_agent",
      "mcp__cadre__file_approval",
    ]);
    expect(init.permissionMode).toBe("dontAsk");
    expect((await store.listAgents(company.id)).filter((a) => !a.isCeo).map((a) => [a.name, a.via])).toEqual([
      ["CTO", "tool"],
    ]);
  });
});
