// The operator port's contract, run against both adapters: the local one over a SQLite store, and
// the HTTP one over a real `cadre serve` server (startServer on a loopback port) over its own
// store. The same story — create, wake the CEO (offline, seeded), read the team, decide the
// strategy, switch a model, mint and revoke a key, remove a hire, inspect the run, read usage, show
// the CEO's kept session and reset it — must
// answer the same, and the rendered company reads the same apart from its ids.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "@cadre/core";
import { UserInputError } from "@cadre/core";
import { type RunningServer, startServer } from "@cadre/server";
import { openStore, type Store } from "@cadre/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../io.js";
import { OFFLINE_ENV } from "../testing/run-cli.js";
import { HttpOperator } from "./http.js";
import { LocalOperator } from "./local.js";
import type { OperatorPort, WakeWatcher } from "./port.js";
import { agentsText } from "./render/agents.js";
import { approvalText } from "./render/approvals.js";
import { companyOverviewText } from "./render/company.js";
import { agentSessionText, sessionResetText } from "./render/sessions.js";

const io: CliIO = { out: () => {}, err: () => {}, env: OFFLINE_ENV, stdin: (async function* () {})() };

interface Adapter {
  port: OperatorPort;
  close(): Promise<void>;
}

async function local(): Promise<Adapter> {
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-port-local-"));
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  const port = new LocalOperator({ store, dataDir, databaseUrl: undefined }, io);
  return {
    port,
    close: async () => (await port.close(), await rm(dataDir, { recursive: true, force: true })),
  };
}

async function http(): Promise<Adapter> {
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-port-http-"));
  const store: Store = await openStore({ path: join(dataDir, "cadre.db") });
  const server: RunningServer = await startServer({
    store,
    port: 0,
    dataDir,
    env: OFFLINE_ENV,
    log: () => {},
  });
  const port = new HttpOperator({ url: server.url, token: server.operatorToken });
  return {
    port,
    close: async () => {
      await port.close();
      await server.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What each adapter rendered, ids replaced, for the comparison at the end. */
const rendered: Record<string, string> = {};
const anonymous = (text: string) =>
  text
    .replace(/\b(cmp|agt|apr|run|key)_[A-Za-z0-9]+/g, "$1_ID")
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "TIME")
    .replace(/ — via http:\/\/\S+/, "")
    .replace(/\S*cadre-port-(local|http)-[^/\s]+/g, "DATA_DIR")
    // A session file is named by its start time; the window's count by the ids in its prompt.
    .replace(/sessions\/\S+\.jsonl/g, "sessions/FILE.jsonl")
    .replace(/window {5}\d+ tokens/g, "window     N tokens")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "UUID");

describe.each([
  ["local", local],
  ["http", http],
] as const)("the operator port (%s adapter)", (name, open) => {
  let adapter: Adapter;
  let port: OperatorPort;
  beforeAll(async () => {
    adapter = await open();
    port = adapter.port;
  });
  afterAll(() => adapter.close());

  it("the story of a company, start to operating", async () => {
    const created = await port.createCompany({ name: "Port Co", goal: "Warehouse robots" });
    expect(created).toMatchObject({ name: "Port Co", goal: "Warehouse robots", ceoMode: "team-building" });
    expect(await port.company()).toEqual(created);

    const seen: { started?: string; events: AgentEvent[] } = { events: [] };
    const watch: WakeWatcher = {
      queued: () => {},
      started: (s) => (seen.started = `${s.agentName} ${s.mode} ${s.trigger} ${s.profile}`),
      event: (e) => seen.events.push(e),
      notice: () => {},
    };
    const woke = await port.wake(
      { agentId: created.ceoAgentId, trigger: "start_team_building", seed: 7 },
      watch,
    );
    expect(woke).toMatchObject({
      kind: "ran",
      terminal: "done",
      modeBefore: "team-building",
      modeAfter: "awaiting-approval",
    });
    expect(seen.started).toBe("CEO team-building start_team_building semantic");
    expect(
      seen.events.filter((e) => e.type === "tool_use").map((e) => e.type === "tool_use" && e.name),
    ).toContain("hire_agent");
    expect(seen.events.at(-1)).toMatchObject({ type: "terminal", status: "done" });
    if (woke.kind !== "ran") throw new Error("the wake ran");
    // The run's native session, as the adapter learnt it (the wake's result, or the run's events).
    expect(woke.session).toEqual({
      harness: "pi",
      id: expect.any(String),
      resumed: false,
      rolledOver: false,
    });

    const overview = await port.companyOverview();
    expect(overview.ceoMode).toBe("awaiting-approval");
    expect(overview.ceo?.isCeo).toBe(true);
    expect(overview.connectors.map((c) => [c.id, c.ready])).toEqual([["offline", true]]);
    expect(overview.agents.length).toBeGreaterThanOrEqual(4);
    expect(overview.approvals.map((a) => [a.type, a.status])).toEqual([["approve_ceo_strategy", "pending"]]);
    expect(await port.listAgents({})).toEqual(overview.agents);

    const approvalId = overview.approvals[0]!.id;
    const pending = await port.approval(approvalId);
    expect(pending.payload.length).toBeGreaterThan(20);
    expect(pending.history.map((h) => [h.fromStatus, h.toStatus, h.actor])).toEqual([
      [null, "pending", created.ceoAgentId],
    ]);
    const decided = await port.decide(approvalId, "approve", "Ship it");
    expect(decided).toMatchObject({ modeBefore: "awaiting-approval", modeAfter: "operating" });
    const shown = await port.approval(approvalId);
    expect(shown.history.at(-1)).toMatchObject({ toStatus: "approved", note: "Ship it", actor: "operator" });
    expect((await port.listApprovals({ status: "approved" })).map((a) => a.id)).toEqual([approvalId]);
    expect(await port.listApprovals({ status: "pending" })).toEqual([]);

    const same = await port.setAgentModel(created.ceoAgentId, "offline-scripted-1");
    expect(same).toMatchObject({ changed: false, from: "offline-scripted-1", live: "no live session" });

    const key = await port.mintKey(created.ceoAgentId, "ci");
    expect(key.token).toMatch(/^cadre_agt_/);
    expect((await port.listKeys(created.ceoAgentId)).map((k) => [k.id, k.label, k.revokedAt])).toEqual([
      [key.id, "ci", null],
    ]);
    expect((await port.revokeKey(created.ceoAgentId, key.id)).revokedAt).not.toBeNull();

    const hire = overview.agents.find((a) => !a.isCeo)!;
    expect((await port.terminateAgent(hire.id)).status).toBe("terminated");
    expect((await port.listAgents({})).map((a) => a.id)).not.toContain(hire.id);
    expect((await port.listAgents({ all: true })).find((a) => a.id === hire.id)?.status).toBe("terminated");

    const inspection = await port.inspectRun(woke.runId);
    expect(inspection).toMatchObject({ runId: woke.runId, status: "done", recorded: true, ending: null });
    expect(inspection.terminal).toEqual({ status: "done" });
    expect(inspection).toMatchObject({ sessionId: woke.session.id, compactionOwner: "pi" });
    expect(inspection.session).toMatchObject([{ harness: "pi", id: woke.session.id }]);

    const [usage, ...others] = await port.usage({});
    expect(others).toEqual([]);
    expect(usage!.runs.map((r) => r.runId)).toEqual([woke.runId]);
    const runUsage = await port.runUsage(woke.runId);
    expect(runUsage.turns!.length).toBeGreaterThan(0);
    expect(runUsage.usage.input).toBe(woke.usage.input);

    // The CEO's session is kept between wakes; a reset forgets it (once: then there is none).
    const kept = await port.agentSession(created.ceoAgentId);
    expect(kept).toMatchObject({
      agentId: created.ceoAgentId,
      session: {
        harness: "pi",
        sessionId: woke.session.id,
        connectorId: "offline",
        runningRunId: null,
        lastRunId: woke.runId,
        bootstrap: null,
      },
    });
    expect(kept.session?.sessionFile).toContain(join("agents", created.ceoAgentId, "sessions"));
    const ceo = await port.agent(created.ceoAgentId);
    expect(ceo).toMatchObject({ id: created.ceoAgentId, isCeo: true });
    const keptText = agentSessionText(ceo.name, kept);
    const reset = await port.resetSession(created.ceoAgentId, { force: false });
    expect(reset).toEqual({ agentId: created.ceoAgentId, reset: true, previousSessionId: woke.session.id });
    expect(await port.agentSession(created.ceoAgentId)).toEqual({
      agentId: created.ceoAgentId,
      session: null,
    });
    const again = await port.resetSession(created.ceoAgentId, { force: false });
    expect(again).toEqual({ agentId: created.ceoAgentId, reset: false, previousSessionId: null });

    rendered[name] = anonymous(
      companyOverviewText(await port.companyOverview(), port.kind === "http" ? port.where : undefined) +
        agentsText(await port.listAgents({ all: true })) +
        approvalText(await port.approval(approvalId)) +
        keptText +
        sessionResetText(ceo.name, reset),
    );
  });

  it("refusals are the caller's (UserInputError: exit 2) and change nothing", async () => {
    const company = await port.company();
    await expect(port.approval("apr_missing")).rejects.toBeInstanceOf(UserInputError);
    const [approval] = await port.listApprovals({});
    await expect(port.decide(approval!.id, "reject")).rejects.toThrow(/already decided \(approved\)/);
    await expect(port.terminateAgent(company.ceoAgentId)).rejects.toThrow(/CEO and cannot be removed/);
    await expect(port.setAgentModel(company.ceoAgentId, "gpt-5")).rejects.toThrow(/gpt-5-2025-08-07/);
    await expect(port.revokeKey(company.ceoAgentId, "key_missing")).rejects.toBeInstanceOf(UserInputError);
    await expect(port.agentSession("agt_missing")).rejects.toBeInstanceOf(UserInputError);
    await expect(port.resetSession("agt_missing", { force: false })).rejects.toThrow(/agt_missing/);
    expect((await port.listApprovals({}))[0]?.status).toBe("approved");
  });
});

it("both adapters render the same company, team and approval (ids and times aside)", () => {
  expect(rendered["local"]).toBeDefined();
  expect(rendered["http"]).toBe(rendered["local"]);
});
