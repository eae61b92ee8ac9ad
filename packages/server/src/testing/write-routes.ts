// Test support: a valid request for every write route (POST, PUT, PATCH, DELETE) of ROUTES, in a
// testWorld's company A, and how to read back what it wrote. The example-based bad-input tables and
// the property-based hostile-input suite both start from these; a write route without an entry here
// fails both, with a message saying to add one.
import type { RouteSpec } from "../routes/define.js";
import { HIRE, send, type TestResponse, type World } from "./harness.js";

export interface ValidRequest {
  /** A concrete path in world A (called before each request: it may prepare what the route acts on). */
  path: (w: World) => string | Promise<string>;
  /** A body the route accepts (undefined for a route without one). */
  body?: Record<string, unknown>;
  /**
   * What a later GET says about what the answer describes: [the part of the answer, the same
   * thing read back]. The two must be equal.
   */
  readBack: (w: World, answer: TestResponse, path: string) => Promise<[unknown, unknown]>;
}

/** `METHOD /path/{param}`: the key of a route in VALID_REQUESTS. */
export const routeKey = (r: Pick<RouteSpec, "method" | "path">) => `${r.method.toUpperCase()} ${r.path}`;

export const WRITE_ROUTES = (routes: readonly RouteSpec[]) => routes.filter((r) => r.method !== "get");

/** An approval as GET /api/approvals/{id} reads it, without its history. */
async function approvalOf(w: World, id: string): Promise<unknown> {
  const { history: _history, ...approval } = await get(w, `/api/approvals/${id}`);
  return approval;
}

const get = async (w: World, path: string) => {
  const r = await send(w.app.cadre, "GET", path);
  if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  // A list route answers a page: its rows (the worlds here are small, one page holds them all).
  const body = r.body as { items?: unknown; nextCursor?: unknown };
  return Array.isArray(body?.items) && "nextCursor" in body ? body.items : r.body;
};

let hires = 0;

/** A fresh pending approval in company A, to decide: a hire whose input passes (approving makes it). */
async function pendingApproval(w: World): Promise<string> {
  const name = `Hire ${++hires}`;
  const r = await send(w.app.cadre, "POST", `/api/companies/${w.companyA}/approvals`, {
    json: {
      type: "hire_agent",
      title: `Hire ${name}`,
      payload: JSON.stringify({ ...HIRE, name, role: "Analyst", department: "finance" }),
    },
  });
  if (r.status !== 201) throw new Error(`filing an approval failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

let spares = 0;

/** A fresh offline connector in company A, to remove. */
async function spareConnector(w: World): Promise<string> {
  const id = `spare-${++spares}`;
  const r = await send(w.app.cadre, "POST", `/api/companies/${w.companyA}/connectors`, {
    json: { id, kind: "offline", enabledModels: ["offline-scripted-1"] },
  });
  if (r.status !== 201) throw new Error(`adding a connector failed: ${r.status} ${JSON.stringify(r.body)}`);
  return id;
}

const operating = new WeakSet<World>();

/** Company A operating (its strategy approved), once per world: the task routes need it. */
async function ensureOperating(w: World): Promise<void> {
  if (operating.has(w)) return;
  const filed = await send(w.app.cadre, "POST", `/api/companies/${w.companyA}/approvals`, {
    json: { type: "approve_ceo_strategy", title: "Plan", payload: "Ship." },
  });
  if (filed.status !== 201)
    throw new Error(`filing a strategy failed: ${filed.status} ${JSON.stringify(filed.body)}`);
  const approved = await send(w.app.cadre, "POST", `/api/approvals/${filed.body.id}/approve`, { json: {} });
  if (approved.status !== 200)
    throw new Error(`approving the strategy failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  operating.add(w);
}

let tasks = 0;

/** A fresh open task of company A's CTO, in the operating company, to act on. */
async function freshTask(w: World): Promise<string> {
  await ensureOperating(w);
  const id = `task_fresh_${++tasks}`;
  await w.app.store.insertTask({
    id,
    companyId: w.companyA,
    title: "Draft the plan",
    description: "",
    status: "todo",
    assigneeAgentId: w.ctoA,
    creatorAgentId: w.ceoA,
    parentTaskId: null,
    strategyId: null,
    deliverable: null,
    blockers: [],
    via: "tool",
  });
  return id;
}

/** A fresh task its assignee has handed in: it waits in review for its creator (or the operator). */
async function handedInTask(w: World): Promise<string> {
  const id = await freshTask(w);
  await w.app.store.updateTask(id, { status: "in_review", deliverable: "Here.", deliverableBy: w.ctoA });
  return id;
}

/** A task as GET /api/tasks/{id} reads it, without its comments, files, history and wakes. */
async function taskOf(w: World, id: string): Promise<unknown> {
  const { comments: _c, files: _f, history: _h, wakes: _w, ...task } = await get(w, `/api/tasks/${id}`);
  return task;
}

/** A task change's answer is the task as it reads back, with its assignee's name and whom it wakes. */
const taskRead = async (w: World, a: TestResponse): Promise<[unknown, unknown]> => {
  const { assignee: _a, wakes: _w, ...task } = a.body;
  return [task, await taskOf(w, a.body.id)];
};

/** The agent's schedule as GET /api/companies/{id}/schedules lists it. */
async function scheduleOf(w: World, agentId: string): Promise<unknown> {
  return ((await get(w, `/api/companies/${w.companyA}/schedules`)) as { agentId: string }[]).find(
    (s) => s.agentId === agentId,
  );
}

/** Rejects company A's pending hire approvals, so a filing's name is free again. */
async function rejectPendingHires(w: World): Promise<void> {
  for (const a of await w.app.store.listApprovals(w.companyA, { type: "hire_agent", status: "pending" })) {
    const r = await send(w.app.cadre, "POST", `/api/approvals/${a.id}/reject`, { json: { note: "clear" } });
    if (r.status !== 200) throw new Error(`rejecting ${a.id} failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

const decision = (segment: string): ValidRequest => ({
  path: async (w) => `/api/approvals/${await pendingApproval(w)}/${segment}`,
  body: { note: segment === "reject" ? "no" : "ok" },
  readBack: async (w, a) => [a.body.approval, await approvalOf(w, a.body.approval.id)],
});

export const VALID_REQUESTS: Record<string, ValidRequest> = {
  "POST /api/companies": {
    path: () => "/api/companies",
    body: { name: "New Co", goal: "Grow.", connector: "offline", profile: "legacy" },
    readBack: async (w, a) => [a.body, await get(w, `/api/companies/${a.body.id}`)],
  },
  "POST /api/companies/{id}/connectors": {
    path: (w) => `/api/companies/${w.companyA}/connectors`,
    body: { id: "second", kind: "offline", enabledModels: ["offline-scripted-1"], config: { seed: 1 } },
    readBack: async (w, a) => [
      a.body,
      ((await get(w, `/api/companies/${w.companyA}/connectors`)) as { id: string }[]).find(
        (c) => c.id === a.body.id,
      ),
    ],
  },
  "POST /api/companies/{id}/connectors/{connectorId}/test": {
    // The offline connector: its test is a real request on its wire, with nothing to probe outside.
    path: (w) => `/api/companies/${w.companyA}/connectors/offline/test`,
    body: { model: "offline-scripted-1" },
    readBack: async (w, a) => {
      const listed = (
        (await get(w, `/api/companies/${w.companyA}/connectors`)) as { id: string; kind: string }[]
      ).find((c) => c.id === a.body.connectorId);
      return [
        { connectorId: a.body.connectorId, kind: a.body.kind },
        listed && { connectorId: listed.id, kind: listed.kind },
      ];
    },
  },
  "DELETE /api/companies/{id}/connectors/{connectorId}": {
    // A fresh offline connector to remove (the built-in one is refused; offline needs no probe).
    path: async (w) => `/api/companies/${w.companyA}/connectors/${await spareConnector(w)}`,
    readBack: async (w, a) => [
      undefined,
      ((await get(w, `/api/companies/${w.companyA}/connectors`)) as { id: string }[]).find(
        (c) => c.id === a.body.id,
      ),
    ],
  },
  "POST /api/companies/{id}/agents": {
    path: (w) => `/api/companies/${w.companyA}/agents`,
    body: { ...HIRE, name: "CMO", department: "marketing" },
    readBack: async (w, a) => [a.body, await get(w, `/api/agents/${a.body.id}`)],
  },
  "DELETE /api/agents/{id}": {
    path: (w) => `/api/agents/${w.ctoA}`,
    readBack: async (w, a) => [a.body, await get(w, `/api/agents/${a.body.id}`)],
  },
  "PATCH /api/agents/{id}/model": {
    path: (w) => `/api/agents/${w.ctoA}/model`,
    body: { model: "offline-scripted-1", connectorId: "offline" },
    readBack: async (w, a) => [a.body.agent, await get(w, `/api/agents/${a.body.agent.id}`)],
  },
  "POST /api/agents/{id}/keys": {
    path: (w) => `/api/agents/${w.ctoA}/keys`,
    body: { label: "laptop" },
    readBack: async (w, a) => {
      const { token: _secret, ...key } = a.body as Record<string, unknown>;
      const keys = (await get(w, `/api/agents/${w.ctoA}/keys`)) as { id: string }[];
      return [key, keys.find((k) => k.id === key["id"])];
    },
  },
  "DELETE /api/agents/{id}/keys/{keyId}": {
    path: (w) => `/api/agents/${w.ctoA}/keys/${w.ctoKeyId}`,
    readBack: async (w, a) => [
      a.body,
      ((await get(w, `/api/agents/${w.ctoA}/keys`)) as { id: string }[]).find((k) => k.id === a.body.id),
    ],
  },
  "POST /api/companies/{id}/approvals": {
    // No hire of the same name waits already (a second filing of one name is refused for the name).
    path: async (w) => {
      await rejectPendingHires(w);
      return `/api/companies/${w.companyA}/approvals`;
    },
    // A hire approval (company A requires them): filing one leaves the CEO's mode as it is, so every
    // filing is judged on its input alone (a second strategy would be refused for the phase). Its
    // payload is the hire_agent input as JSON: approving it makes that hire.
    body: {
      type: "hire_agent",
      title: "Plan",
      payload: JSON.stringify({ ...HIRE, name: "Planner", role: "Planner", department: "operations" }),
    },
    readBack: async (w, a) => [a.body, await approvalOf(w, a.body.id)],
  },
  "POST /api/approvals/{id}/approve": decision("approve"),
  "POST /api/approvals/{id}/reject": decision("reject"),
  "POST /api/approvals/{id}/request-revision": decision("request-revision"),
  "POST /api/agents/{id}/session/reset": {
    path: (w) => `/api/agents/${w.ctoA}/session/reset`,
    body: { force: false },
    readBack: async (w, a) => [
      { agentId: a.body.agentId, session: null },
      await get(w, `/api/agents/${a.body.agentId}/session`),
    ],
  },
  "POST /api/agents/{id}/wake": {
    path: (w) => `/api/agents/${w.ceoA}/wake`,
    body: { trigger: "routine", profile: "semantic", seed: 3 },
    readBack: async (w, a) => {
      const run = await get(w, `/api/runs/${a.body.runId}`);
      return [
        { id: a.body.runId, trigger: a.body.trigger, profile: a.body.profile, mode: a.body.mode },
        { id: run.id, trigger: run.trigger, profile: run.profile, mode: run.mode },
      ];
    },
  },
  // Tasks, in the operating company, each on a fresh task.
  "POST /api/companies/{id}/tasks": {
    path: async (w) => {
      await ensureOperating(w);
      return `/api/companies/${w.companyA}/tasks`;
    },
    body: { title: "Plan", description: "Write it.", assignee: "CTO", parentTaskId: "task_a" },
    readBack: taskRead,
  },
  "POST /api/tasks/{id}/assign": {
    path: async (w) => `/api/tasks/${await freshTask(w)}/assign`,
    body: { assignee: "CEO" },
    readBack: taskRead,
  },
  "POST /api/tasks/{id}/comments": {
    path: async (w) => `/api/tasks/${await freshTask(w)}/comments`,
    body: { body: "Looks good." },
    readBack: taskRead,
  },
  "PATCH /api/tasks/{id}": {
    path: async (w) => `/api/tasks/${await freshTask(w)}`,
    body: { status: "in_progress", comment: "Started." },
    readBack: taskRead,
  },
  // Reviewing: the operator accepts a handed-in task; the answer is the task as GET reads it.
  "POST /api/tasks/{id}/review": {
    path: async (w) => `/api/tasks/${await handedInTask(w)}/review`,
    body: { decision: "accept" },
    readBack: taskRead,
  },
  "POST /api/tasks/{id}/close": {
    path: async (w) => `/api/tasks/${await freshTask(w)}/close`,
    body: { status: "done", deliverable: "Here." },
    readBack: taskRead,
  },
  // Schedules (operator only): the answer is the schedule as the company's list reads it.
  "PATCH /api/agents/{id}/schedule": {
    path: (w) => `/api/agents/${w.ceoA}/schedule`,
    body: { every: "1h", catchUp: "one", start: "now" },
    readBack: async (w, a) => [a.body, await scheduleOf(w, a.body.agentId)],
  },
  "DELETE /api/agents/{id}/schedule": {
    // A schedule to remove, set first.
    path: async (w) => {
      const r = await send(w.app.cadre, "PATCH", `/api/agents/${w.ceoA}/schedule`, { json: { every: "1h" } });
      if (r.status !== 200)
        throw new Error(`setting a schedule failed: ${r.status} ${JSON.stringify(r.body)}`);
      return `/api/agents/${w.ceoA}/schedule`;
    },
    readBack: async (w, a) => [undefined, await scheduleOf(w, a.body.agentId)],
  },
  "POST /api/operators": {
    path: () => "/api/operators",
    body: { name: "newbie", role: "operator", companies: [] },
    readBack: async (w, a) => {
      const { token: _token, ...added } = a.body as Record<string, unknown>;
      const listed = ((await get(w, "/api/operators")) as { name: string }[]).find(
        (o) => o.name === "newbie",
      );
      return [added, listed];
    },
  },
  "DELETE /api/operators/{name}": {
    path: () => "/api/operators/victim",
    readBack: async (w, a) => [
      a.body,
      ((await get(w, "/api/operators")) as { name: string }[]).find((o) => o.name === "victim"),
    ],
  },
  // Due work on request: a schedule due now (its tick is taken); the CEO's wake it asks for is
  // refused while the strategy waits (a problem, nothing run), so the readback is the tick.
  "POST /api/companies/{id}/due-work": {
    path: async (w) => {
      const r = await send(w.app.cadre, "PATCH", `/api/agents/${w.ceoA}/schedule`, {
        json: { every: "1h", start: "now" },
      });
      if (r.status !== 200)
        throw new Error(`setting a schedule failed: ${r.status} ${JSON.stringify(r.body)}`);
      return `/api/companies/${w.companyA}/due-work`;
    },
    body: { maxWakes: 5, seed: 1 },
    readBack: async (w, a) => [
      (a.body.ticks as { nextDueAt: string }[]).map((t) => t.nextDueAt),
      [((await scheduleOf(w, w.ceoA)) as { nextDueAt: string }).nextDueAt],
    ],
  },
  // The thread with the CEO: the operator's message, read back from the thread.
  "POST /api/companies/{id}/messages": {
    path: (w) => `/api/companies/${w.companyA}/messages`,
    body: { text: "How is the hiring going?" },
    readBack: async (w, a, path) => [
      a.body.message,
      ((await get(w, path)) as { id: number }[]).find((m) => m.id === a.body.message.id),
    ],
  },
  // Stopping a run: world A's run has ended, so the valid path is refused (409) and writes nothing;
  // a run that stopped reads back as the answer said.
  "POST /api/runs/{id}/stop": {
    path: (w) => `/api/runs/${w.runA}/stop`,
    readBack: async (w, a) => [a.body.status, (await get(w, `/api/runs/${a.body.id}`)).status],
  },
  // PUT: a budget's fields (run caps on the company only); the answer is the budget as GET reads it.
  "PUT /api/companies/{id}/budget": {
    path: (w) => `/api/companies/${w.companyA}/budget`,
    body: {
      usd: 20,
      tokens: 50_000,
      period: "total",
      warnAt: 0.5,
      runModelCalls: 50,
      runToolCalls: 60,
      runTokens: 100_000,
      runUsd: 1,
    },
    readBack: async (w, a, path) => [a.body, await get(w, path)],
  },
  "PUT /api/agents/{id}/budget": {
    path: (w) => `/api/agents/${w.ctoA}/budget`,
    body: { usd: 5, tokens: 10_000, period: "month", warnAt: 0.75 },
    readBack: async (w, a, path) => [a.body, await get(w, path)],
  },
};

/** The valid request of a route, or an error saying to add one. */
export function validRequestOf(r: Pick<RouteSpec, "method" | "path">): ValidRequest {
  const valid = VALID_REQUESTS[routeKey(r)];
  if (!valid)
    throw new Error(
      `no valid request for ${routeKey(r)}: add one to VALID_REQUESTS in packages/server/src/testing/write-routes.ts`,
    );
  return valid;
}
