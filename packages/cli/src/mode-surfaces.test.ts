// Every surface says what the CEO's mode offers from the one decision (`modeOffer`): a company
// walked through all five modes — hires and filings made through `cadre mcp` (the MCP SDK's own
// Client over stdio), decisions through the HTTP API of a real `cadre serve` on the same store —
// and in each mode the API's company view (what the dashboard renders), `cadre company show`
// (local and --server, JSON and text) and MCP `tools/list` agree, with the table below. What is
// not offered is refused: a tool call the mode does not offer is an isError result that writes
// nothing, and "start team building" outside team building is a 400 that starts no run.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, modeOffer } from "@cadre/company";
import type { CeoMode } from "@cadre/model";
import { openStore, type Store } from "@cadre/store";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./testing/run-cli.js";
import { BIN, cliEnv, type Running, startCli } from "./testing/spawn-cli.js";

/** What each mode offers, stated once more by hand: the test fails if the decision drifts. */
// The reply to the operator is offered, and succeeds, in every mode.
const R = "reply_to_operator";
const BEFORE_OPERATING = ["hire_agent", "file_approval", R];
const EXPECTED: Record<CeoMode, { tools: string[]; offered: string[]; actions: string[] }> = {
  "team-building": { tools: ["hire_agent", R], offered: BEFORE_OPERATING, actions: ["start_team_building"] },
  "strategy-drafting": { tools: ["hire_agent", "file_approval", R], offered: BEFORE_OPERATING, actions: [] },
  "awaiting-approval": { tools: [R], offered: BEFORE_OPERATING, actions: ["decide_strategy"] },
  revising: { tools: ["hire_agent", "file_approval", R], offered: BEFORE_OPERATING, actions: [] },
  operating: {
    tools: ["hire_agent", "create_task", "assign_task", "update_task", "list_my_tasks", R, "review_task"],
    offered: [
      "hire_agent",
      "file_approval",
      "create_task",
      "assign_task",
      "update_task",
      "list_my_tasks",
      R,
      "review_task",
    ],
    actions: [],
  },
};

const hire = (name: string) => ({
  name,
  role: name,
  description: "Leads the function.",
  connectorId: "offline",
  model: "offline-scripted-1",
  department: "engineering",
});
const strategy = { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan\n\n- ship" };

let dir: string;
let store: Store;
let served: Running;
let url: string;
let token: string;
let mcp: Client;
let companyId: string;
let ceoId: string;

async function api(method: string, path: string, body?: unknown) {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as any };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-mode-surfaces-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  const company = await createCompany(store, { name: "Acme Robotics", goal: "Build warehouse robots." });
  companyId = company.id;
  ceoId = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
  served = startCli(["serve", "--port", "0", "--data", dir], cliEnv());
  await served.untilLines(2);
  url = /listening on (\S+)/.exec(served.output())![1]!;
  token = /operator token: (\S+)/.exec(served.output())![1]!;
  mcp = new Client({ name: "mode-surfaces-test", version: "1.0.0" });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--agent", ceoId, "--data", dir],
      env: cliEnv() as Record<string, string>,
      stderr: "pipe",
    }),
  );
});

afterAll(async () => {
  await mcp?.close();
  served?.child.kill("SIGTERM");
  await served?.exited;
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Surfaces {
  api: { mode: string; tools: string[]; offered: string[]; actions: string[] };
  cli: { mode: string; tools: string[]; offered: string[]; actions: string[]; text: string };
  remote: { mode: string; tools: string[]; offered: string[]; actions: string[]; text: string };
  mcp: { listed: string[]; usable: string[]; modes: string[] };
}

async function surfaces(): Promise<Surfaces> {
  const view = await api("GET", `/api/companies/${companyId}`);
  const local = await runCli(["company", "show", "--data", dir, "--json"]);
  const localText = await runCli(["company", "show", "--data", dir]);
  const remoteArgs = ["company", "show", "--server", url, "--token", token];
  const remote = await runCli([...remoteArgs, "--json"]);
  const remoteText = await runCli(remoteArgs);
  const { tools } = await mcp.listTools();
  const meta = (t: (typeof tools)[number]) =>
    t._meta as { "cadre/usableInMode": boolean; "cadre/mode": string };
  return {
    api: {
      mode: view.body.ceoMode,
      tools: view.body.toolsInMode,
      offered: view.body.toolsOffered,
      actions: view.body.operatorActions,
    },
    cli: {
      mode: local.json().ceoMode,
      tools: local.json().toolsInMode,
      offered: local.json().toolsOffered,
      actions: local.json().operatorActions,
      text: localText.out,
    },
    remote: {
      mode: remote.json().ceoMode,
      tools: remote.json().toolsInMode,
      offered: remote.json().toolsOffered,
      actions: remote.json().operatorActions,
      text: remoteText.out,
    },
    mcp: {
      listed: tools.map((t) => t.name),
      usable: tools.filter((t) => meta(t)["cadre/usableInMode"]).map((t) => t.name),
      modes: [...new Set(tools.map((t) => meta(t)["cadre/mode"]))],
    },
  };
}

async function expectAgreement(mode: CeoMode) {
  const s = await surfaces();
  const want = EXPECTED[mode];
  expect(modeOffer(mode)).toEqual({
    mode,
    tools: want.tools,
    offered: want.offered,
    operatorActions: want.actions,
  });
  expect(s.api).toEqual({ mode, tools: want.tools, offered: want.offered, actions: want.actions });
  const { text: _l, ...cli } = s.cli;
  const { text: _r, ...remote } = s.remote;
  expect(cli).toEqual(s.api);
  expect(remote).toEqual(s.api);
  // The agent's tool list never changes (MC-3): this server started in team-building, so it lists
  // what that mode offered (offeredTools); what the mode lets succeed now is in each tool's _meta.
  expect(s.mcp).toEqual({
    listed: BEFORE_OPERATING,
    usable: want.tools.filter((t) => BEFORE_OPERATING.includes(t)),
    modes: [mode],
  });
  for (const text of [s.cli.text, s.remote.text]) {
    expect(text).toContain(`CEO mode: ${mode} — `);
    const refused = want.offered.filter((t) => !want.tools.includes(t));
    expect(text).toContain(
      `tools in this mode: ${want.tools.join(", ") || "none"}${refused.length ? ` (refused in this mode: ${refused.join(", ")})` : ""}\n`,
    );
    expect(text.includes("start team building")).toBe(want.actions.includes("start_team_building"));
    expect(text.includes("decide the strategy")).toBe(want.actions.includes("decide_strategy"));
  }
  await expectRefusals(mode);
}

/** What a mode does not offer is refused, and writes nothing. */
async function expectRefusals(mode: CeoMode) {
  const before = {
    agents: (await store.listAgents(companyId)).length,
    approvals: (await store.listApprovals(companyId)).length,
    runs: (await store.listRuns({ agentId: ceoId })).length,
  };
  const offered = EXPECTED[mode];
  if (!offered.tools.includes("hire_agent")) {
    const r = (await mcp.callTool({ name: "hire_agent", arguments: hire("Refused Hire") })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/nothing was written\. Hiring is not available in the/);
  }
  if (!offered.tools.includes("file_approval")) {
    const r = (await mcp.callTool({ name: "file_approval", arguments: strategy })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/nothing was written\. A strategy cannot be filed in the/);
  }
  if (!offered.actions.includes("start_team_building")) {
    const woken = await api("POST", `/api/agents/${ceoId}/wake`, { trigger: "start_team_building" });
    expect(woken.status).toBe(400);
    expect(woken.body.error.message).toContain(
      `start team building is offered only while the CEO is in team-building; the CEO is in ${mode}`,
    );
  }
  expect({
    agents: (await store.listAgents(companyId)).length,
    approvals: (await store.listApprovals(companyId)).length,
    runs: (await store.listRuns({ agentId: ceoId })).length,
  }).toEqual(before);
}

async function call(name: string, args: unknown) {
  const r = (await mcp.callTool({ name, arguments: args as Record<string, unknown> })) as {
    isError?: boolean;
    content: Array<{ text: string }>;
  };
  expect(r.isError, r.content[0]?.text).toBe(false);
  return JSON.parse(r.content[0]!.text) as Record<string, string>;
}

describe("every surface offers what the CEO's mode offers (modeOffer), in all five modes", () => {
  it("walks team-building → strategy-drafting → awaiting-approval → revising → operating", async () => {
    await expectAgreement("team-building");

    await call("hire_agent", hire("CTO"));
    await expectAgreement("strategy-drafting");

    const first = await call("file_approval", strategy);
    await expectAgreement("awaiting-approval");
    // The inbox says, before the decision, what each decision does to the mode (resolveCeoMode).
    const listed = (await api("GET", `/api/companies/${companyId}/approvals`)).body.items;
    expect(listed).toEqual([
      expect.objectContaining({
        id: first["approvalId"],
        decidedBy: null,
        modeIfDecided: { approve: "operating", reject: "revising", "request-revision": "revising" },
      }),
    ]);

    expect(
      (await api("POST", `/api/approvals/${first["approvalId"]}/reject`, { note: "Too vague" })).status,
    ).toBe(200);
    await expectAgreement("revising");
    const decided = (await api("GET", `/api/companies/${companyId}/approvals`)).body.items[0];
    expect(decided).toMatchObject({ status: "rejected", decidedBy: "operator", decisionNote: "Too vague" });
    expect(decided.modeIfDecided).toBeUndefined();

    const second = await call("file_approval", { ...strategy, title: "Plan, revised" });
    await expectAgreement("awaiting-approval");
    expect((await api("POST", `/api/approvals/${second["approvalId"]}/approve`, {})).status).toBe(200);
    await expectAgreement("operating");

    // Offered while operating, and it succeeds.
    await call("hire_agent", hire("CFO"));
    await expectAgreement("operating");

    // A `cadre mcp` started now lists the operating mode's tools (the task tools join), marks as
    // usable exactly what the API view and `company show` offer, and a task tool call succeeds.
    const operating = new Client({ name: "mode-surfaces-operating", version: "1.0.0" });
    await operating.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp", "--agent", ceoId, "--data", dir],
        env: cliEnv() as Record<string, string>,
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await operating.listTools();
      const meta = (t: (typeof tools)[number]) => t._meta as { "cadre/usableInMode": boolean };
      expect(tools.map((t) => t.name)).toEqual([
        "hire_agent",
        "file_approval",
        "create_task",
        "assign_task",
        "update_task",
        "list_my_tasks",
        R,
        "review_task",
      ]);
      const view = await api("GET", `/api/companies/${companyId}`);
      expect(tools.filter((t) => meta(t)["cadre/usableInMode"]).map((t) => t.name)).toEqual(
        view.body.toolsInMode,
      );
      const created = (await operating.callTool({
        name: "create_task",
        arguments: { title: "Find the first customer", description: "Name one logistics company." },
      })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(created.isError, created.content[0]?.text).toBe(false);
      const mine = (await operating.callTool({ name: "list_my_tasks", arguments: {} })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(mine.isError, mine.content[0]?.text).toBe(false);
      expect(mine.content[0]!.text).toContain("Find the first customer");
    } finally {
      await operating.close();
    }
  });

  it("starts team building where it is offered: a new company's CEO, woken with that trigger", async () => {
    const created = await api("POST", "/api/companies", { name: "Second Co", goal: "Robots." });
    expect(created.body.operatorActions).toEqual(["start_team_building"]);
    const woken = await api("POST", `/api/agents/${created.body.ceoAgentId}/wake`, {
      trigger: "start_team_building",
    });
    expect(woken.status).toBe(202);
    expect(woken.body).toMatchObject({ trigger: "start_team_building", mode: "team-building" });
  });
});
