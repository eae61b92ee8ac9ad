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
import { dueJson, dueSummaryText, dueWatcher } from "./render/run.js";
import { agentSessionText, sessionResetText } from "./render/sessions.js";
import { schedulesText, taskChangeText, taskDetailText, tasksText } from "./render/tasks.js";

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
/** The tasks, schedules and due-work run as each adapter rendered them, and the run's --json. */
const worked: Record<string, string> = {};
const anonymous = (text: string) =>
  text
    .replace(/\b(cmp|agt|apr|run|key|task|sch|wrq|tcm|tfl)_[A-Za-z0-9]+/g, "$1_ID")
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
    expect(await port.listAgents({})).toEqual({ items: overview.agents, nextCursor: null });
    // A page at a time, by hire time: the pages, followed by their cursors, are the whole list.
    const paged: typeof overview.agents = [];
    let after: string | undefined;
    do {
      const page = await port.listAgents({ page: { limit: 1, ...(after ? { after } : {}) } });
      expect(page.items.length).toBeLessThanOrEqual(1);
      paged.push(...page.items);
      after = page.nextCursor ?? undefined;
    } while (after !== undefined);
    expect(paged).toEqual(overview.agents);

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
    expect((await port.listApprovals({ status: "approved" })).items.map((a) => a.id)).toEqual([approvalId]);
    expect(await port.listApprovals({ status: "pending" })).toEqual({ items: [], nextCursor: null });

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
    expect((await port.listAgents({})).items.map((a) => a.id)).not.toContain(hire.id);
    expect((await port.listAgents({ all: true })).items.find((a) => a.id === hire.id)?.status).toBe(
      "terminated",
    );

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
        agentsText((await port.listAgents({ all: true })).items) +
        approvalText(await port.approval(approvalId)) +
        keptText +
        sessionResetText(ceo.name, reset),
    );
  });

  it("refusals are the caller's (UserInputError: exit 2) and change nothing", async () => {
    const company = await port.company();
    await expect(port.approval("apr_missing")).rejects.toBeInstanceOf(UserInputError);
    const [approval] = (await port.listApprovals({})).items;
    await expect(port.decide(approval!.id, "reject")).rejects.toThrow(/already decided \(approved\)/);
    await expect(port.terminateAgent(company.ceoAgentId)).rejects.toThrow(/CEO and cannot be removed/);
    await expect(port.setAgentModel(company.ceoAgentId, "gpt-5")).rejects.toThrow(/gpt-5-2025-08-07/);
    await expect(port.revokeKey(company.ceoAgentId, "key_missing")).rejects.toBeInstanceOf(UserInputError);
    await expect(port.agentSession("agt_missing")).rejects.toBeInstanceOf(UserInputError);
    await expect(port.resetSession("agt_missing", { force: false })).rejects.toThrow(/agt_missing/);
    expect((await port.listApprovals({})).items[0]?.status).toBe("approved");
  });
});

describe.each([
  ["local", local],
  ["http", http],
] as const)("tasks, schedules and the due-work run on the operator port (%s adapter)", (name, open) => {
  let adapter: Adapter;
  let port: OperatorPort;
  beforeAll(async () => {
    adapter = await open();
    port = adapter.port;
  });
  afterAll(() => adapter.close());

  it("the operator's task, a schedule, and the company at work until idle", async () => {
    let text = "";
    const write = (t: string) => void (text += t);
    const created = await port.createCompany({ name: "Work Co", goal: "Warehouse robots" });
    const silent: WakeWatcher = { queued: () => {}, started: () => {}, event: () => {}, notice: () => {} };
    await port.wake({ agentId: created.ceoAgentId, trigger: "start_team_building", seed: 7 }, silent);
    const [strategy] = (await port.listApprovals({ status: "pending" })).items;
    // Before the strategy is approved there is no task to make: refused, nothing written.
    await expect(port.createTask(undefined, { title: "Too early" })).rejects.toThrow(
      /once the company strategy is approved/,
    );
    await port.decide(strategy!.id, "approve");

    const task = await port.createTask(undefined, { title: "Write the brief", description: "One page." });
    expect(task).toMatchObject({ title: "Write the brief", status: "todo", assignee: null, wakes: [] });
    const assigned = await port.assignTask({ taskId: task.taskId, assignee: "CEO" });
    expect(assigned).toMatchObject({ assignee: "CEO", wakes: ["CEO"] });
    const commented = await port.commentOnTask({ taskId: task.taskId, body: "Keep it short." });
    const closed = await port.closeTask({ taskId: task.taskId, status: "cancelled" });
    expect(closed).toMatchObject({ status: "cancelled", wakes: [] });
    await expect(port.assignTask({ taskId: "task_missing", assignee: "CEO" })).rejects.toThrow(
      /task_missing/,
    );
    await expect(port.closeTask({ taskId: task.taskId, status: "done", deliverable: "x" })).rejects.toThrow(
      /cancelled/,
    );
    const shown = await port.task(task.taskId);
    expect(shown.task.comments.map((c) => [c.author, c.body])).toEqual([["operator", "Keep it short."]]);
    expect((await port.listTasks({ statuses: ["cancelled"] })).tasks.map((t) => t.id)).toEqual([task.taskId]);
    expect((await port.listTasks({ assignee: "CEO" })).tasks.map((t) => t.id)).toEqual([task.taskId]);
    await expect(port.listTasks({ assignee: "Nobody" })).rejects.toThrow(/is not an agent of Work Co/);
    for (const change of [task, assigned, commented, closed]) write(taskChangeText(change));
    write(taskDetailText(shown.task, shown.agents));

    const set = await port.setSchedule({ ref: "CEO" }, { every: "1h", start: "now" });
    expect(set.schedule).toMatchObject({ agentId: created.ceoAgentId, everySeconds: 3600, catchUp: "one" });
    await expect(port.setSchedule({ ref: "Nobody" }, { every: "1h" })).rejects.toThrow(/not an agent id/);
    await expect(port.setSchedule({ ref: "CEO" }, { every: "5s" })).rejects.toThrow(/shortest interval/);

    // The approval woke the CEO's due work: it delegates, each lead does its task, the CEO reads the results.
    const seen: string[] = [];
    const watch = dueWatcher(write, write, { quiet: false });
    const report = await port.runDue(
      { untilIdle: true, maxWakes: 20, seed: 5 },
      {
        ...watch,
        started: (s) => (seen.push(`${s.agentName} ${s.trigger}`), watch.started(s)),
      },
    );
    write(dueSummaryText(report));
    expect(report.ticks).toMatchObject([{ agentId: created.ceoAgentId, ticks: 1 }]);
    expect(report.wakes[0]).toMatchObject({ agent: "CEO", trigger: "approval_decided", terminal: "done" });
    expect(report.wakes.at(-1)).toMatchObject({ agent: "CEO", trigger: "task_in_review" });
    expect(report.wakes.every((w) => w.terminal === "done")).toBe(true);
    expect(seen).toEqual(report.wakes.map((w) => `${w.agent} ${w.trigger}`));
    expect(report).toMatchObject({ problems: [], stillDue: [] });
    const tasks = (await port.listTasks({})).tasks.filter((t) => t.id !== task.taskId);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t) => t.status === "done" && t.creator === created.ceoAgentId)).toBe(true);
    expect(report.wakes.length).toBeLessThanOrEqual(tasks.length + 2);
    const again = await port.runDue({ untilIdle: true, maxWakes: 20 }, watch);
    expect(again.wakes).toEqual([]);

    const listed = await port.listSchedules();
    expect(listed.schedules.map((s) => s.agentId)).toEqual([created.ceoAgentId]);
    write(schedulesText(listed.schedules, listed.agents));
    expect((await port.removeSchedule({ ref: created.ceoAgentId })).removed).toBe(true);
    expect((await port.removeSchedule({ ref: "CEO" })).removed).toBe(false);
    const all = await port.listTasks({});
    write(tasksText(all.tasks, all.agents));
    // A prompt's token count depends on the ids in it: usage figures differ between any two runs.
    const figures = (k: string, v: unknown) => (k === "usage" ? "N" : v);
    worked[name] =
      anonymous(text).replace(/usage: .*$/gm, "usage: N") +
      anonymous(JSON.stringify(dueJson(report), figures));
  });
});

it("both adapters print the same tasks, schedules and due-work run (ids and times aside)", () => {
  expect(worked["local"]).toBeDefined();
  expect(worked["http"]).toBe(worked["local"]);
});

it("both adapters render the same company, team and approval (ids and times aside)", () => {
  expect(rendered["local"]).toBeDefined();
  expect(rendered["http"]).toBe(rendered["local"]);
});
