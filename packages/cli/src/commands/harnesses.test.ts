// End to end on the REAL harness binaries: a company's CEO on a claude-code or a codex
// connector wakes (company/wake.ts, Cadre's real adapters), against a loopback stand-in model server
// whose hire-leads policy hires three leads through whatever company tools it is offered and files
// the strategy. Both CEOs must hire all three through the tools and file the strategy, and the
// stand-in's request log must show the company tools offered up front on every request and no shell,
// file-writing, web or sub-agent tool. Then `cadre demo --connector claude-code` as a user runs it:
// ANTHROPIC_BASE_URL at the stand-in and nothing else set. Nothing leaves loopback.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createCompany, loadCompanyState, wakeAgent } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { hireLeads, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

/** Built-ins that would let a CEO act outside the company tools: shell, file writing, web, sub-agents. */
const FORBIDDEN =
  /^(Bash|Edit|Write|MultiEdit|NotebookEdit|WebFetch|WebSearch|Agent|Task|ToolSearch|Workflow|exec_command|write_stdin|apply_patch|web_search|tool_search|spawn_agent|view_image|request_user_input)$/;

let dir: string;
let store: Store;
let server: StandinServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-harnesses-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  server = await startStandin({ policy: hireLeads() });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The company tools each model call offered, by bare name, and the other tools it offered. */
function offered(): Array<{ company: string[]; other: string[] }> {
  return server!.modelCalls().map((c) => ({
    company: c.request.tools
      .filter(
        (t) =>
          !t.deferred &&
          /(^|__|\.)(hire_agent|file_approval|reply_to_operator)$/.test(`${t.namespace ?? ""}.${t.name}`),
      )
      .map((t) => t.name.replace(/^mcp__cadre__/, ""))
      .sort(),
    other: c.request.tools
      .filter((t) => !/(hire_agent|file_approval|reply_to_operator)$/.test(t.name))
      .map((t) => t.name),
  }));
}

async function expectTeamBuilt(
  companyId: string,
  result: Awaited<ReturnType<typeof wakeAgent>>,
  events: AgentEvent[],
) {
  expect(result.terminal).toBe("done");
  const hires = (await store.listAgents(companyId)).filter((a) => !a.isCeo);
  expect(hires.map((a) => [a.name, a.via])).toEqual([
    ["CTO", "tool"],
    ["Head of Product", "tool"],
    ["Head of Sales", "tool"],
  ]);
  const approvals = await store.listApprovals(companyId);
  expect(approvals.map((a) => [a.type, a.status, a.via])).toEqual([
    ["approve_ceo_strategy", "pending", "tool"],
  ]);
  expect(result.modeAfter).toBe("awaiting-approval");
  // The run's first event: what the harness offered, as the company decided.
  expect(events[0]).toMatchObject({ type: "harness_tools" });
  expect(events[0]).not.toHaveProperty("problem");
  // Every request: the company tools, loaded up front; nothing to act outside them with.
  for (const call of offered()) {
    expect(call.company).toEqual(["file_approval", "hire_agent", "reply_to_operator"]);
    expect(call.other.filter((t) => FORBIDDEN.test(t))).toEqual([]);
  }
}

describe("both CEOs build their team through the company tools on the real binaries", () => {
  it.skipIf(!REAL_CLAUDE_CODE)(
    "Claude Code: three leads hired and the strategy filed through the tools",
    async () => {
      vi.stubEnv("ANTHROPIC_BASE_URL", server!.anthropicBaseUrl); // the CEO's connector is ready: loopback, no key
      const company = await createCompany(store, {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots.",
        connectors: [{ kind: "claude-code" }],
        ceoConnectorId: "claude-code",
      });
      const { ceo } = await loadCompanyState(store, company.id);
      const events: AgentEvent[] = [];
      const home = join(dir, "home");
      await mkdir(home, { recursive: true });
      const result = await wakeAgent({
        store,
        agentId: ceo.id,
        dataDir: dir,
        trigger: "start_team_building",
        env: claudeCodeTestEnv(home, server!.anthropicBaseUrl),
        onEvent: (e) => events.push(e),
      });
      await expectTeamBuilt(company.id, result, events);
      // Every call a model call the CEO made: nothing else (no title generation, no other requests).
      expect(server!.requests).toHaveLength(server!.modelCalls().length);
      expect(server!.toolsOffered(0).sort()).toEqual([
        "mcp__cadre__file_approval",
        "mcp__cadre__hire_agent",
        "mcp__cadre__reply_to_operator",
      ]);
    },
  );

  it.skipIf(!REAL_CODEX)("Codex: three leads hired and the strategy filed through `cadre mcp`", async () => {
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots.",
      connectors: [{ kind: "codex", config: { baseUrl: server!.openaiBaseUrl } }],
      ceoConnectorId: "codex",
    });
    const { ceo } = await loadCompanyState(store, company.id);
    const events: AgentEvent[] = [];
    const result = await wakeAgent({
      store,
      agentId: ceo.id,
      dataDir: dir,
      trigger: "start_team_building",
      env: codexTestEnv(join(dir, "home")),
      cadreCommand: [process.execPath, BIN],
      onEvent: (e) => events.push(e),
    });
    await expectTeamBuilt(company.id, result, events);
    expect(events[0]).toMatchObject({
      harness: "codex",
      tools: [
        "list_mcp_resources",
        "list_mcp_resource_templates",
        "read_mcp_resource",
        "mcp__cadre__hire_agent",
        "mcp__cadre__file_approval",
        "mcp__cadre__reply_to_operator",
      ],
    });
    // Codex offers the company tools in its MCP namespace; the model called them there.
    expect(
      server!
        .modelCalls()[0]!
        .request.tools.filter((t) => t.namespace === "mcp__cadre")
        .map((t) => t.name)
        .sort(),
    ).toEqual(["file_approval", "hire_agent", "reply_to_operator"]);
  });
});

describe.skipIf(!REAL_CLAUDE_CODE)("`cadre demo --connector claude-code` against a stand-in", () => {
  it("works with ANTHROPIC_BASE_URL pointing at the stand-in and no other variable set by the user", async () => {
    const home = join(dir, "user-home");
    await mkdir(home, { recursive: true });
    const data = join(dir, "demo");
    const { stdout } = await run(
      process.execPath,
      [BIN, "demo", "--connector", "claude-code", "--data", data, "--json"],
      {
        env: { PATH: process.env["PATH"] ?? "", HOME: home, ANTHROPIC_BASE_URL: server!.anthropicBaseUrl },
        timeout: 120_000,
      },
    );
    const summary = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      ceo: { connectorId: string };
      ceoMode: string;
      hires: Array<{ name: string; via: string }>;
      approvals: Array<{ type: string; status: string }>;
    };
    expect(summary.ceo.connectorId).toBe("claude-code");
    expect(summary.hires.map((h) => [h.name, h.via])).toEqual([
      ["CTO", "tool"],
      ["Head of Product", "tool"],
      ["Head of Sales", "tool"],
    ]);
    expect(summary.approvals).toEqual([
      { id: expect.any(String), type: "approve_ceo_strategy", status: "pending" },
    ]);
    expect(summary.ceoMode).toBe("awaiting-approval");
    // `cadre sessions inspect` lists what Claude Code itself said it offered.
    const demoStore = await openStore({ path: join(data, "cadre.db") });
    const [runRow] = await demoStore.listRuns({});
    await demoStore.close();
    const inspected = await run(
      process.execPath,
      [BIN, "sessions", "inspect", runRow!.id, "--data", data, "--json"],
      {
        env: { PATH: process.env["PATH"] ?? "", HOME: home },
      },
    );
    const report = JSON.parse(inspected.stdout) as {
      harnessTools: { harness: string; tools: string[]; mcpServers: unknown; problem?: string };
    };
    expect(report.harnessTools).toMatchObject({
      harness: "claude-code",
      mcpServers: [{ name: "cadre", status: "connected" }],
    });
    expect(report.harnessTools.tools.sort()).toEqual([
      "mcp__cadre__file_approval",
      "mcp__cadre__hire_agent",
      "mcp__cadre__reply_to_operator",
    ]);
    expect(report.harnessTools.problem).toBeUndefined();
    const human = await run(process.execPath, [BIN, "sessions", "inspect", runRow!.id, "--data", data], {
      env: { PATH: process.env["PATH"] ?? "", HOME: home },
    });
    expect(human.stdout).toMatch(
      /tools {6}claude-code offered mcp__cadre__\w+, mcp__cadre__\w+, mcp__cadre__\w+ — as the company decided/,
    );
    // Only model calls reached the stand-in: Cadre turned Claude Code's non-essential traffic off.
    expect(server!.requests).toHaveLength(server!.modelCalls().length);
    expect(
      server!.modelCalls().every((c) => c.request.tools.some((t) => t.name === "mcp__cadre__hire_agent")),
    ).toBe(true);
  });
});
