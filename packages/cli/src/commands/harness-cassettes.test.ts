// Harness cassettes on the REAL binaries: a CEO on Claude Code or Codex wakes
// against a loopback stand-in (hire-leads policy) with its wake recorded; a second company, set up
// the same way, replays it — the binary is never launched and the stand-in sees no request — and
// ends with the same team, filing and event stream, the company tools having run against its own
// store. A changed MCP config / harness policy is a miss naming it; a changed tool schema a miss
// naming "tools"; replay-or-record records a miss live so the next replay hits.
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCompany, type HarnessSessionCall, loadCompanyState, wakeAgent } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { type CassetteMode, normaliseArgs, openHarnessCassette } from "@cadre/evals";
import { hireLeads, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

let dir: string;
let server: StandinServer;
const stores: Store[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-harness-cassettes-"));
  server = await startStandin({ policy: hireLeads() });
  // Claude Code's connector is ready with a loopback ANTHROPIC_BASE_URL and no key (as `cadre demo` runs it).
  vi.stubEnv("ANTHROPIC_BASE_URL", server.anthropicBaseUrl);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

type Kind = "claude-code" | "codex";

interface Wake {
  events: AgentEvent[];
  terminal: string;
  hires: Array<[string, string | null, string]>;
  approvals: Array<[string, string, string]>;
}

/** A fresh company (own data dir and store) whose CEO runs on `kind`, woken once through a cassette. */
async function wakeThrough(
  kind: Kind,
  n: number,
  mode: CassetteMode,
  cassettes: string,
  options: { config?: Record<string, unknown>; edit?: (call: HarnessSessionCall) => HarnessSessionCall } = {},
): Promise<Wake> {
  const data = join(dir, `company-${n}`);
  const home = join(dir, `home-${n}`);
  await mkdir(home, { recursive: true });
  const store = await openStore({ path: join(data, "cadre.db") });
  stores.push(store);
  const company = await createCompany(store, {
    name: "Northwind Robotics",
    goal: "Build autonomous warehouse robots.",
    // An id after "offline": the prompt lists connectors by creation time, then id, and both are
    // created in one transaction — within one millisecond or not, the order is the same.
    connectors: [
      kind === "codex"
        ? { id: `the-${kind}`, kind, config: { baseUrl: server.openaiBaseUrl, ...options.config } }
        : { id: `the-${kind}`, kind, ...(options.config ? { config: options.config } : {}) },
    ],
    ceoConnectorId: `the-${kind}`,
  });
  const { ceo } = await loadCompanyState(store, company.id);
  const cassette = openHarnessCassette({ dir: cassettes, mode, salt: "northwind#0" });
  const events: AgentEvent[] = [];
  const result = await wakeAgent({
    store,
    agentId: ceo.id,
    dataDir: data,
    trigger: "start_team_building",
    env: kind === "codex" ? codexTestEnv(home) : claudeCodeTestEnv(home, server.anthropicBaseUrl),
    cadreCommand: [process.execPath, BIN],
    wrapHarness: (call) => cassette.wrap(options.edit ? options.edit(call) : call),
    onEvent: (e) => events.push(e),
  });
  const agents = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
  const approvals = await store.listApprovals(company.id);
  return {
    events,
    terminal: result.terminal,
    hires: agents.map((a) => [a.name, a.department, a.via]),
    approvals: approvals.map((a) => [a.type, a.status, a.via]),
  };
}

/** The event stream as a reader compares two runs: generated ids and ports masked. */
const comparable = (events: AgentEvent[]) =>
  normaliseArgs(events.filter((e) => e.type !== "text_delta" && e.type !== "thinking_delta"));

const cases: Array<[Kind, string | undefined]> = [
  ["claude-code", REAL_CLAUDE_CODE],
  ["codex", REAL_CODEX],
];

describe.each(cases)("%s harness cassettes on the real binary", (kind, binary) => {
  it.skipIf(!binary)(
    "record, then replay with no binary launched: the same team, filing and events, zero stand-in requests",
    async () => {
      const cassettes = join(dir, "cassettes");
      const recorded = await wakeThrough(kind, 1, "record", cassettes);
      expect(recorded.terminal).toBe("done");
      expect(recorded.hires).toEqual([
        ["CTO", "engineering", "tool"],
        ["Head of Product", "product", "tool"],
        ["Head of Sales", "sales", "tool"],
      ]);
      expect(recorded.approvals).toEqual([["approve_ceo_strategy", "pending", "tool"]]);
      expect(await readdir(cassettes)).toHaveLength(1);
      const live = server.requests.length;
      expect(live).toBeGreaterThan(0);

      const replayed = await wakeThrough(kind, 2, "replay", cassettes);
      expect(server.requests.length).toBe(live);
      expect(replayed.terminal).toBe("done");
      expect(replayed.hires).toEqual(recorded.hires);
      expect(replayed.approvals).toEqual(recorded.approvals);
      expect(comparable(replayed.events)).toEqual(comparable(recorded.events));
      // The replay's tool results name this company's new agents, not the recording's.
      const hiredIds = (e: AgentEvent[]) =>
        e.flatMap((x) =>
          x.type === "tool_result" && x.name.endsWith("hire_agent")
            ? [...JSON.stringify(x.content).matchAll(/agt_[0-9a-zA-Z]+/g)].map((m) => m[0])
            : [],
        );
      expect(hiredIds(replayed.events)).toHaveLength(hiredIds(recorded.events).length);
      expect(hiredIds(replayed.events).some((id) => hiredIds(recorded.events).includes(id))).toBe(false);
    },
  );

  it.skipIf(!binary)(
    "a changed tool schema or MCP config never replays the stale answer: the miss names the part",
    async () => {
      const cassettes = join(dir, "cassettes");
      await wakeThrough(kind, 1, "record", cassettes);
      const live = server.requests.length;
      const toolsEdited = await wakeThrough(kind, 2, "replay", cassettes, {
        edit: (call) => ({
          ...call,
          config: {
            ...call.config,
            tools: call.config.tools.map((t) =>
              t.name === "hire_agent" ? { ...t, description: `${t.description} Hire carefully.` } : t,
            ),
          },
        }),
      });
      expect(toolsEdited.terminal).toBe("failed");
      const reason = (w: Wake) => w.events.find((e) => e.type === "error" && e.code === "cassette_miss");
      expect(reason(toolsEdited)).toMatchObject({
        message: expect.stringMatching(/cassette miss: .*differs in tools: tools changed/),
      });
      expect(toolsEdited.hires).toEqual([]);
      // A real config change: another MCP server beside the company's.
      const mcpEdited = await wakeThrough(kind, 3, "replay", cassettes, {
        edit: (call) => ({
          ...call,
          mcp: {
            ...(call.mcp as object),
            servers: [...(call.mcp as { servers: unknown[] }).servers, { name: "docs", transport: "stdio" }],
          },
        }),
      });
      expect(reason(mcpEdited)).toMatchObject({
        message: expect.stringMatching(/differs in mcp: MCP server config or harness policy changed/),
      });
      // Same key, but a company tool that now answers otherwise: the replay stops as diverged.
      const behaviourEdited = await wakeThrough(kind, 4, "replay", cassettes, {
        edit: (call) => ({
          ...call,
          config: {
            ...call.config,
            tools: call.config.tools.map((t) =>
              t.name === "hire_agent"
                ? {
                    ...t,
                    execute: async () => ({
                      content: [{ type: "text", text: "hiring is closed" }],
                      isError: true,
                    }),
                  }
                : t,
            ),
          },
        }),
      });
      expect(behaviourEdited.terminal).toBe("failed");
      expect(behaviourEdited.events.find((e) => e.type === "error")).toMatchObject({
        code: "cassette_diverged",
        message: expect.stringMatching(
          /company tool call #1 \(mcp__cadre__hire_agent\) answered differently from the recording.*Now: "hiring is closed"/,
        ),
      });
      expect(behaviourEdited.hires).toEqual([]);
      expect(server.requests.length).toBe(live);
    },
  );

  it.skipIf(!binary)(
    "replay-or-record: a miss launches the harness and records; the next replay hits",
    async () => {
      const cassettes = join(dir, "cassettes");
      const first = await wakeThrough(kind, 1, "replay-or-record", cassettes);
      expect(first.terminal).toBe("done");
      const live = server.requests.length;
      expect(live).toBeGreaterThan(0);
      const second = await wakeThrough(kind, 2, "replay", cassettes);
      expect(second.hires).toEqual(first.hires);
      expect(server.requests.length).toBe(live);
      const third = await wakeThrough(kind, 3, "replay-or-record", cassettes);
      expect(third.hires).toEqual(first.hires);
      expect(server.requests.length).toBe(live);
    },
  );
});

describe.skipIf(!REAL_CLAUDE_CODE)("claude-code policy is part of the key", () => {
  it("a connector whose permission policy changed misses, naming mcp", async () => {
    const cassettes = join(dir, "cassettes");
    await wakeThrough("claude-code", 1, "record", cassettes);
    // (The CEO's built-in tools are decided by its role, not the connector: its permission mode is the connector's.)
    const changed = await wakeThrough("claude-code", 2, "replay", cassettes, {
      config: { permissionMode: "default" },
    });
    expect(changed.terminal).toBe("failed");
    expect(changed.events.find((e) => e.type === "error")).toMatchObject({
      code: "cassette_miss",
      message: expect.stringMatching(/differs in .*mcp/),
    });
  });
});
