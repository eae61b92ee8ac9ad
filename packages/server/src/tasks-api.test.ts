// Tasks over HTTP: the operator and agent tokens through the same rules as the tools;
// every change is a domain event on the company's stream; a refused request writes nothing.
import { describe, expect, it } from "vitest";
import { apiCompany, apiKey, HIRE, readSse, testApp } from "./testing/harness.js";

async function operating() {
  const app = await testApp();
  const company = await apiCompany(app);
  const cto = (await app.request("POST", `/api/companies/${company.id}/agents`, { json: HIRE })).body
    .id as string;
  const filed = await app.request("POST", `/api/companies/${company.id}/approvals`, {
    json: { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan\n- ship" },
  });
  expect((await app.request("POST", `/api/approvals/${filed.body.id}/approve`, { json: {} })).status).toBe(
    200,
  );
  return {
    app,
    company,
    cto,
    ctoToken: await apiKey(app, cto),
    ceoToken: await apiKey(app, company.ceoAgentId),
  };
}

describe("tasks over HTTP", () => {
  it("the operator creates and assigns; the assignee updates its own; each change is a domain event", async () => {
    const { app, company, cto, ctoToken } = await operating();
    try {
      const created = await app.request("POST", `/api/companies/${company.id}/tasks`, {
        json: { title: "Pilot plan", description: "For the first customer.", assignee: "CTO" },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        title: "Pilot plan",
        status: "todo",
        assigneeAgentId: cto,
        creator: "operator",
      });
      const id = created.body.id as string;
      const wakes = await app.request("GET", `/api/companies/${company.id}/wake-requests?status=pending`);
      expect(
        wakes.body.items.map((w: { agentId: string; trigger: string }) => [w.agentId, w.trigger]),
      ).toEqual(expect.arrayContaining([[cto, "task_assigned"]]));
      const upd = await app.request("PATCH", `/api/tasks/${id}`, {
        token: ctoToken,
        json: { status: "done", deliverable: "Here it is." },
      });
      expect(upd.status).toBe(200);
      // Handed in, it waits for its reviewer: the operator, who created it.
      expect(upd.body).toMatchObject({ status: "in_review", deliverable: "Here it is." });
      const self = await app.request("POST", `/api/tasks/${id}/review`, {
        token: ctoToken,
        json: { decision: "accept" },
      });
      expect(self.status).toBe(400);
      expect(JSON.stringify(self.body)).toMatch(/never accepted by its own assignee/);
      const accepted = await app.request("POST", `/api/tasks/${id}/review`, { json: { decision: "accept" } });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ status: "done" });
      const detail = await app.request("GET", `/api/tasks/${id}`);
      expect(detail.body.history.map((h: { type: string }) => h.type)).toEqual([
        "task.created",
        "wake.requested",
        "task.updated",
        "task.reviewed",
      ]);
      const listed = await app.request("GET", `/api/companies/${company.id}/tasks?status=done`);
      expect(listed.body.items.map((t: { id: string }) => t.id)).toEqual([id]);

      const stream = await app.cadre.app.request(`/api/companies/${company.id}/events?kind=domain_event`, {
        headers: { Authorization: "Bearer test-operator-token-0123456789abcdef" },
      });
      const types: string[] = [];
      for await (const e of readSse(stream.body!)) {
        const type = (JSON.parse(e.data) as { type?: string }).type ?? "";
        types.push(type);
        if (type === "task.updated") break;
      }
      expect(types).toEqual(expect.arrayContaining(["task.created", "wake.requested", "task.updated"]));
    } finally {
      await app.close();
    }
  });

  it("agents through the rules: a member neither creates nor assigns, to the CEO or anyone; other companies are out of reach", async () => {
    const { app, company, ctoToken, ceoToken } = await operating();
    try {
      const before = await app.store.counts();
      const byMember = await app.request("POST", `/api/companies/${company.id}/tasks`, {
        token: ctoToken,
        json: { title: "For the boss", assignee: "CEO" },
      });
      expect(byMember.status).toBe(400);
      expect(byMember.body.error.fields.agent).toMatch(/only the CEO creates/);
      expect(await app.store.counts()).toEqual(before);
      const byCeo = await app.request("POST", `/api/companies/${company.id}/tasks`, {
        token: ceoToken,
        json: { title: "Ship", assignee: "CTO" },
      });
      expect(byCeo.status).toBe(201);
      const toCeo = await app.request("POST", `/api/tasks/${byCeo.body.id}/assign`, {
        token: ctoToken,
        json: { assignee: "CEO" },
      });
      expect(toCeo.status).toBe(400);
      const other = await apiCompany(app, { name: "Other Co" });
      const stranger = await apiKey(app, other.ceoAgentId);
      expect((await app.request("GET", `/api/tasks/${byCeo.body.id}`, { token: stranger })).status).toBe(403);
      const bad = await app.request("POST", `/api/companies/${company.id}/tasks`, {
        json: { title: "A\u202eB", extra: 1 },
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.error.fields).sort()).toEqual(["extra", "title"]);
    } finally {
      await app.close();
    }
  });

  it("schedules: set, read and remove an agent's (operator only); a bad one is refused", async () => {
    const { app, company, cto, ctoToken } = await operating();
    try {
      const set = await app.request("PATCH", `/api/agents/${cto}/schedule`, {
        json: { cron: "0 9 * * 1-5", timezone: "Europe/Berlin" },
      });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({
        agentId: cto,
        cron: "0 9 * * 1-5",
        timezone: "Europe/Berlin",
        catchUp: "one",
      });
      expect(
        (await app.request("PATCH", `/api/agents/${cto}/schedule`, { json: { every: "5s" } })).status,
      ).toBe(400);
      expect(
        (
          await app.request("PATCH", `/api/agents/${cto}/schedule`, {
            token: ctoToken,
            json: { every: "1h" },
          })
        ).status,
      ).toBe(403);
      expect((await app.request("GET", `/api/companies/${company.id}/schedules`)).body.items).toHaveLength(1);
      expect((await app.request("DELETE", `/api/agents/${cto}/schedule`)).body).toEqual({
        agentId: cto,
        removed: true,
      });
    } finally {
      await app.close();
    }
  });
});

describe("a server at work (SQLite, in process)", () => {
  it("with due work on, an approval sets the company to work: delegated, done, reported back, and then quiet", async () => {
    const app = await testApp({ dueWork: { intervalMs: 50 } });
    try {
      const company = await apiCompany(app);
      const ceo = company.ceoAgentId;
      for (const name of ["CTO", "CRO"])
        await app.request("POST", `/api/companies/${company.id}/agents`, {
          json: { ...HIRE, name, department: name === "CTO" ? "engineering" : "sales" },
        });
      const filed = await app.request("POST", `/api/companies/${company.id}/approvals`, {
        json: {
          type: "approve_ceo_strategy",
          title: "Plan",
          payload: "# Plan\n\n## First milestones\n- Ship a pilot.",
        },
      });
      await app.request("POST", `/api/approvals/${filed.body.id}/approve`, { json: {} });
      const end = Date.now() + 60_000;
      for (;;) {
        const runs = await app.store.listRuns({ agentId: ceo });
        const idle =
          (await app.store.listWakeRequests({ status: "pending" })).length === 0 &&
          app.cadre.wakes.active === 0;
        if (runs.length >= 2 && idle) break;
        if (Date.now() > end) throw new Error("the company did not finish its work");
        await new Promise((r) => setTimeout(r, 50));
      }
      const tasks = (await app.request("GET", `/api/companies/${company.id}/tasks`)).body.items as Array<{
        status: string;
        deliverable: string | null;
      }>;
      expect(tasks).toHaveLength(2);
      expect(tasks.every((t) => t.status === "done" && t.deliverable)).toBe(true);
      const runs = await app.store.listRuns({ companyId: company.id });
      expect(runs.map((r) => r.trigger)).toEqual([
        "approval_decided",
        "task_assigned",
        "task_assigned",
        "task_in_review",
      ]);
    } finally {
      await app.close();
    }
  });
});
