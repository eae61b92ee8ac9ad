// The auth matrix: every route × {no token, bad token, the bootstrap owner, agent of this company,
// agent of another company} and × {owner, operator, viewer} × {of every company, limited to this
// company, limited to another} → the expected status. Each cell runs on a fresh world; a refused
// cell writes nothing (no audit row either).
import { describe, expect, it } from "vitest";
import type { OperatorRole } from "@cadre/model";
import {
  apiKey,
  HIRE,
  NAMED_WHO,
  type NamedWho,
  OPERATOR_TOKEN,
  send,
  testWorld as world,
  type Who,
  type World,
} from "./testing/harness.js";
import { ROUTES } from "./routes/index.js";

const WHO: Who[] = ["none", "bad", "operator", "agentHere", "agentElsewhere"];

interface Cell {
  method: string;
  path: (w: World) => string;
  json?: (w: World) => unknown;
  /** The route answers a never-ending stream: read the status only. */
  stream?: boolean;
  expect: Record<Who, number>;
  /** The role a named operator needs (stated here, not read from the route): default viewer for GET, operator else. */
  role?: OperatorRole;
  /**
   * The company the route acts on: "A" (default: the path names company A or one of its
   * records), "none" (it names no company: an operator of every company is needed), or "open"
   * (it names none and answers any valid token, narrowing what it shows).
   */
  company?: "A" | "none" | "open";
}

const RANK: Record<OperatorRole, number> = { viewer: 0, operator: 1, owner: 2 };

/** What each named operator should get: the bootstrap owner's answer where role and company allow, else 403. */
function namedExpect(cell: Cell): Record<NamedWho, number> {
  const need = cell.role ?? (cell.method === "GET" ? "viewer" : "operator");
  const company = cell.company ?? "A";
  const out = {} as Record<NamedWho, number>;
  for (const who of NAMED_WHO) {
    const role = who.replace(/(All|A|B)$/, "") as OperatorRole;
    const limit = who.endsWith("All") ? "all" : who.endsWith("A") ? "A" : "B";
    const publicRoute = cell.expect.none !== 401;
    const allowed =
      publicRoute ||
      company === "open" ||
      (RANK[role] >= RANK[need] && (limit === "all" || (company === "A" && limit === "A")));
    out[who] = allowed ? cell.expect.operator : 403;
  }
  return out;
}

const all = (n: number): Record<Who, number> => ({
  none: n,
  bad: n,
  operator: n,
  agentHere: n,
  agentElsewhere: n,
});
const operatorOnly = (ok: number) => ({
  none: 401,
  bad: 401,
  operator: ok,
  agentHere: 403,
  agentElsewhere: 403,
});
const company = (ok: number) => ({ none: 401, bad: 401, operator: ok, agentHere: ok, agentElsewhere: 403 });

const refusedHere = (status: number) => ({
  none: 401,
  bad: 401,
  operator: status,
  agentHere: 400,
  agentElsewhere: 403,
});

const MATRIX: Record<string, Cell> = {
  "GET /api/companies/{id}/tasks": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/tasks`,
    expect: company(200),
  },
  // Company A is not operating yet: tasks are refused (400) for everyone who may ask.
  "POST /api/companies/{id}/tasks": {
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/tasks`,
    json: () => ({ title: "Plan", assignee: "CTO" }),
    expect: refusedHere(400),
  },
  "GET /api/tasks/{id}": { method: "GET", path: () => "/api/tasks/task_a", expect: company(200) },
  "GET /api/companies/{id}/reviews": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/reviews`,
    expect: company(200),
  },
  "GET /api/companies/{id}/model-drifts": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/model-drifts`,
    expect: company(200),
  },
  // A file handed in: the operator, or an agent of the task's company.
  "GET /api/tasks/{id}/files/{fileId}": {
    method: "GET",
    path: () => "/api/tasks/task_a/files/tfl_a",
    expect: company(200),
  },
  "POST /api/tasks/{id}/assign": {
    method: "POST",
    path: () => "/api/tasks/task_a/assign",
    json: () => ({ assignee: "CTO" }),
    expect: refusedHere(400),
  },
  // The CEO's token is not the assignee's: it comments on and updates its own tasks only.
  "POST /api/tasks/{id}/comments": {
    method: "POST",
    path: () => "/api/tasks/task_a/comments",
    json: () => ({ body: "How is it going?" }),
    expect: refusedHere(201),
  },
  "PATCH /api/tasks/{id}": {
    method: "PATCH",
    path: () => "/api/tasks/task_a",
    json: () => ({ status: "in_progress" }),
    expect: refusedHere(200),
  },
  // The CEO created it: it may close it.
  "POST /api/tasks/{id}/close": {
    method: "POST",
    path: () => "/api/tasks/task_a/close",
    json: () => ({ status: "cancelled" }),
    expect: company(200),
  },
  "GET /api/companies/{id}/wake-requests": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/wake-requests`,
    expect: company(200),
  },
  "GET /api/companies/{id}/schedules": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/schedules`,
    expect: company(200),
  },
  "PATCH /api/agents/{id}/schedule": {
    method: "PATCH",
    path: (w) => `/api/agents/${w.ctoA}/schedule`,
    json: () => ({ every: "1h" }),
    expect: operatorOnly(200),
  },
  "DELETE /api/agents/{id}/schedule": {
    method: "DELETE",
    path: (w) => `/api/agents/${w.ctoA}/schedule`,
    expect: operatorOnly(200),
  },
  // Due work on request runs the operator's company: operator only.
  "POST /api/companies/{id}/due-work": {
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/due-work`,
    json: () => ({}),
    expect: operatorOnly(202),
  },
  "GET /healthz": { method: "GET", path: () => "/healthz", expect: all(200) },
  "GET /api/openapi.json": { method: "GET", path: () => "/api/openapi.json", expect: all(200) },
  "POST /api/companies": {
    role: "owner",
    company: "none",
    method: "POST",
    path: () => "/api/companies",
    json: () => ({ name: "New Co" }),
    expect: operatorOnly(201),
  },
  "GET /api/companies": {
    company: "open",
    method: "GET",
    path: () => "/api/companies",
    expect: { none: 401, bad: 401, operator: 200, agentHere: 200, agentElsewhere: 200 },
  },
  "GET /api/companies/{id}": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}`,
    expect: company(200),
  },
  "GET /api/companies/{id}/connectors": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/connectors`,
    expect: company(200),
  },
  "POST /api/companies/{id}/connectors": {
    role: "owner",
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/connectors`,
    json: () => ({ id: "second", kind: "offline" }),
    expect: operatorOnly(201),
  },
  "POST /api/companies/{id}/connectors/{connectorId}/test": {
    role: "owner",
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/connectors/offline/test`,
    json: () => ({}),
    expect: operatorOnly(200),
  },
  // The built-in offline connector is refused (409, nothing written) after the auth checks.
  "DELETE /api/companies/{id}/connectors/{connectorId}": {
    role: "owner",
    method: "DELETE",
    path: (w) => `/api/companies/${w.companyA}/connectors/offline`,
    expect: operatorOnly(409),
  },
  "GET /api/companies/{id}/agents": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/agents`,
    expect: company(200),
  },
  "POST /api/companies/{id}/agents": {
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/agents`,
    json: () => ({ ...HIRE, name: "CMO", department: "marketing" }),
    expect: company(201),
  },
  "GET /api/agents/{id}": { method: "GET", path: (w) => `/api/agents/${w.ctoA}`, expect: company(200) },
  "DELETE /api/agents/{id}": {
    role: "owner",
    method: "DELETE",
    path: (w) => `/api/agents/${w.ctoA}`,
    expect: operatorOnly(200),
  },
  "PATCH /api/agents/{id}/model": {
    role: "owner",
    method: "PATCH",
    path: (w) => `/api/agents/${w.ctoA}/model`,
    json: () => ({ model: "offline-scripted-1" }),
    expect: operatorOnly(200),
  },
  "GET /api/agents/{id}/session": {
    method: "GET",
    path: (w) => `/api/agents/${w.ctoA}/session`,
    expect: operatorOnly(200),
  },
  "POST /api/agents/{id}/session/reset": {
    method: "POST",
    path: (w) => `/api/agents/${w.ctoA}/session/reset`,
    expect: operatorOnly(200),
  },
  "POST /api/agents/{id}/keys": {
    role: "owner",
    method: "POST",
    path: (w) => `/api/agents/${w.ctoA}/keys`,
    json: () => ({}),
    expect: operatorOnly(201),
  },
  "GET /api/agents/{id}/keys": {
    role: "owner",
    method: "GET",
    path: (w) => `/api/agents/${w.ctoA}/keys`,
    expect: operatorOnly(200),
  },
  "DELETE /api/agents/{id}/keys/{keyId}": {
    role: "owner",
    method: "DELETE",
    path: (w) => `/api/agents/${w.ctoA}/keys/${w.ctoKeyId}`,
    expect: operatorOnly(200),
  },
  "GET /api/companies/{id}/approvals": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/approvals`,
    expect: company(200),
  },
  "POST /api/companies/{id}/approvals": {
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/approvals`,
    json: () => ({ type: "approve_ceo_strategy", title: "Plan", payload: "Build, then sell." }),
    expect: company(201),
  },
  "GET /api/approvals/{id}": {
    method: "GET",
    path: (w) => `/api/approvals/${w.approvalA}`,
    expect: company(200),
  },
  "POST /api/approvals/{id}/approve": {
    method: "POST",
    path: (w) => `/api/approvals/${w.approvalA}/approve`,
    json: () => ({ note: "ok" }),
    expect: operatorOnly(200),
  },
  "POST /api/approvals/{id}/reject": {
    method: "POST",
    path: (w) => `/api/approvals/${w.approvalA}/reject`,
    json: () => ({}),
    expect: operatorOnly(200),
  },
  "POST /api/approvals/{id}/request-revision": {
    method: "POST",
    path: (w) => `/api/approvals/${w.approvalA}/request-revision`,
    json: () => ({ note: "more" }),
    expect: operatorOnly(200),
  },
  "POST /api/agents/{id}/wake": {
    method: "POST",
    path: (w) => `/api/agents/${w.ceoA}/wake`,
    json: () => ({ seed: 1 }),
    expect: operatorOnly(202),
  },
  "GET /api/runs/{id}": { method: "GET", path: (w) => `/api/runs/${w.runA}`, expect: company(200) },
  "GET /api/runs/{id}/events": {
    method: "GET",
    path: (w) => `/api/runs/${w.runA}/events`,
    expect: company(200),
  },
  "GET /api/companies/{id}/runs": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/runs`,
    expect: company(200),
  },
  "GET /api/companies/{id}/usage": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/usage`,
    expect: company(200),
  },
  "GET /api/companies/{id}/budget": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/budget`,
    expect: company(200),
  },
  "PUT /api/companies/{id}/budget": {
    role: "owner",
    method: "PUT",
    path: (w) => `/api/companies/${w.companyA}/budget`,
    json: () => ({ usd: 25 }),
    expect: operatorOnly(200),
  },
  "GET /api/agents/{id}/budget": {
    method: "GET",
    path: (w) => `/api/agents/${w.ctoA}/budget`,
    expect: company(200),
  },
  "PUT /api/agents/{id}/budget": {
    role: "owner",
    method: "PUT",
    path: (w) => `/api/agents/${w.ctoA}/budget`,
    json: () => ({ usd: 2 }),
    expect: operatorOnly(200),
  },
  "GET /api/runs/{id}/usage": {
    method: "GET",
    path: (w) => `/api/runs/${w.runA}/usage`,
    expect: company(200),
  },
  "GET /api/companies/{id}/events": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/events`,
    stream: true,
    expect: company(200),
  },
  "GET /api/runs/{id}/why": {
    method: "GET",
    path: (w) => `/api/runs/${w.runA}/why`,
    expect: company(200),
  },
  "GET /api/me": {
    method: "GET",
    path: () => "/api/me",
    company: "open",
    expect: { none: 401, bad: 401, operator: 200, agentHere: 200, agentElsewhere: 200 },
  },
  "GET /api/operators": {
    method: "GET",
    path: () => "/api/operators",
    role: "owner",
    company: "none",
    expect: operatorOnly(200),
  },
  "POST /api/operators": {
    method: "POST",
    path: () => "/api/operators",
    json: () => ({ name: "newbie", role: "viewer" }),
    role: "owner",
    company: "none",
    expect: operatorOnly(201),
  },
  "DELETE /api/operators/{name}": {
    method: "DELETE",
    path: () => "/api/operators/victim",
    role: "owner",
    company: "none",
    expect: operatorOnly(200),
  },
  "GET /api/companies/{id}/audit": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/audit`,
    expect: operatorOnly(200),
  },
  "GET /api/companies/{id}/messages": {
    method: "GET",
    path: (w) => `/api/companies/${w.companyA}/messages`,
    expect: company(200),
  },
  "POST /api/companies/{id}/messages": {
    method: "POST",
    path: (w) => `/api/companies/${w.companyA}/messages`,
    json: () => ({ text: "How is the team coming along?" }),
    expect: operatorOnly(201),
  },
  // The run has ended: nothing to stop (409) for whoever may stop runs; agents may not.
  "POST /api/runs/{id}/stop": {
    method: "POST",
    path: (w) => `/api/runs/${w.runA}/stop`,
    expect: operatorOnly(409),
  },
  // task_a has not been handed in: there is nothing to review, for whoever may review it.
  "POST /api/tasks/{id}/review": {
    method: "POST",
    path: () => "/api/tasks/task_a/review",
    json: () => ({ decision: "accept" }),
    expect: { none: 401, bad: 401, operator: 400, agentHere: 400, agentElsewhere: 403 },
  },
  "GET /api/audit": {
    method: "GET",
    path: () => "/api/audit",
    company: "none",
    expect: operatorOnly(200),
  },
};

describe("auth matrix", () => {
  it("covers every route of the table", () => {
    expect(Object.keys(MATRIX).sort()).toEqual(
      ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort(),
    );
  });

  for (const [name, cell] of Object.entries(MATRIX)) {
    it(name, async () => {
      const seen: Record<string, number> = {};
      for (const who of WHO) {
        const w = await world();
        try {
          const before = await w.app.store.counts();
          const token = w.tokens[who];
          const options = {
            ...(token === undefined ? {} : { token }),
            ...(cell.json ? { json: cell.json(w) } : {}),
          };
          if (cell.stream) {
            const bearer = token === undefined ? OPERATOR_TOKEN : token;
            const headers: Record<string, string> =
              bearer === null ? {} : { authorization: `Bearer ${bearer}` };
            const response = await w.app.cadre.app.request(cell.path(w), { method: cell.method, headers });
            seen[who] = response.status;
            await response.body?.cancel();
          } else {
            seen[who] = (await send(w.app.cadre, cell.method, cell.path(w), options)).status;
          }
          if (seen[who]! >= 400)
            expect(await w.app.store.counts(), `${name} as ${who} wrote something`).toEqual(before);
        } finally {
          await w.app.close();
        }
      }
      expect(seen).toEqual(cell.expect);
      const named: Record<string, number> = {};
      for (const who of NAMED_WHO) {
        const w = await world();
        try {
          const before = await w.app.store.counts();
          const token = w.people[who];
          if (cell.stream) {
            const response = await w.app.cadre.app.request(cell.path(w), {
              method: cell.method,
              headers: { authorization: `Bearer ${token}` },
            });
            named[who] = response.status;
            await response.body?.cancel();
          } else {
            named[who] = (
              await send(w.app.cadre, cell.method, cell.path(w), {
                token,
                ...(cell.json ? { json: cell.json(w) } : {}),
              })
            ).status;
          }
          if (named[who]! >= 400)
            expect(await w.app.store.counts(), `${name} as ${who} wrote something`).toEqual(before);
        } finally {
          await w.app.close();
        }
      }
      expect(named).toEqual(namedExpect(cell));
    });
  }
});

describe("agent tokens", () => {
  it("a non-CEO agent's token may read its company but its hire is refused by the handler's rule", async () => {
    const w = await world();
    try {
      const ctoToken = await apiKey(w.app, w.ctoA);
      expect(
        (await w.app.request("GET", `/api/companies/${w.companyA}/agents`, { token: ctoToken })).status,
      ).toBe(200);
      const hire = await w.app.request("POST", `/api/companies/${w.companyA}/agents`, {
        token: ctoToken,
        json: { ...HIRE, name: "CFO", department: "finance" },
      });
      expect(hire.status).toBe(400);
      expect(hire.body.error.fields).toEqual({ agent: "only the CEO may hire in this company" });
    } finally {
      await w.app.close();
    }
  });

  it("an agent of another company gets 404 for what does not exist and 403 for what exists", async () => {
    const w = await world();
    try {
      const token = w.tokens.agentElsewhere as string;
      expect((await w.app.request("GET", "/api/agents/agt_missing", { token })).status).toBe(404);
      expect((await w.app.request("GET", `/api/agents/${w.ctoA}`, { token })).status).toBe(403);
    } finally {
      await w.app.close();
    }
  });
});
