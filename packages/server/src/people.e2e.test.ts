// Who did what, and why, end to end on the offline connector: a named operator decides the CEO's
// strategy over HTTP; the company works it; every surface names that operator, the audit log
// records the decision with its request, and the CEO's last (task_in_review) run is explained back to
// that approval.
import { addOperator, createCompany, loadCompanyState, runDue, wakeAgent, wakeIfDue } from "@cadre/company";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testAppOver, type TestApp } from "./testing/harness.js";

let app: TestApp;
beforeEach(async () => {
  app = testAppOver(await openStore({ memory: true }));
});
afterEach(async () => {
  await app.close();
});

describe("named operators, the audit log and a run's why", () => {
  it("names the deciding operator everywhere and explains the CEO's review wake (task_in_review) back to the approval", async () => {
    const store = app.cadre.store;
    const company = await createCompany(store, {
      name: "Acme Robotics",
      goal: "Build warehouse robots and sell them to logistics companies.",
    });
    const ceo = (await loadCompanyState(store, company.id)).ceo;
    await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
    const [strategy] = await store.listApprovals(company.id);
    const { token: alice } = await addOperator(store, {
      name: "alice",
      role: "operator",
      companies: [company.id],
    });
    const { token: victor } = await addOperator(store, { name: "victor", role: "viewer" });

    // A viewer may read it but not decide it; nothing is written by the refusal.
    const auditBefore = (await store.listAudit()).length;
    const refused = await app.request("POST", `/api/approvals/${strategy!.id}/approve`, {
      token: victor,
      json: {},
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("victor is a viewer");
    expect((await store.listAudit()).length).toBe(auditBefore);

    const decided = await app.request("POST", `/api/approvals/${strategy!.id}/approve`, {
      token: alice,
      json: { note: "Go." },
      headers: { "x-request-id": "req-alice-1" },
    });
    expect(decided.status).toBe(200);
    expect(decided.headers.get("x-request-id")).toBe("req-alice-1");

    // Every surface says who decided: the approval, its list, the audit log (with the request).
    const one = await app.request("GET", `/api/approvals/${strategy!.id}`, { token: victor });
    expect(one.body.history.at(-1)).toMatchObject({ toStatus: "approved", actor: "alice" });
    const list = await app.request("GET", `/api/companies/${company.id}/approvals`, { token: alice });
    expect(list.body.items.find((a: { id: string }) => a.id === strategy!.id).decidedBy).toBe("alice");
    const audit = await app.request("GET", `/api/companies/${company.id}/audit?actor=alice`, {
      token: victor,
    });
    expect(audit.body.items.map((r: { action: string }) => r.action)).toEqual(["approval.decided"]);
    expect(audit.body.items[0]).toMatchObject({
      actorType: "operator",
      actorName: "alice",
      requestId: "req-alice-1",
    });
    expect(audit.body.items[0].summary).toContain("pending → approved");

    // The company works the strategy: the CEO delegates, the leads deliver, the CEO hears back.
    const report = await runDue({
      store,
      untilIdle: true,
      maxWakes: 50,
      wake: (agentId) => wakeIfDue({ store, agentId, seed: 3 }),
    });
    const last = report.wakes.at(-1)!.result.run;
    expect(last.trigger).toBe("task_in_review");
    expect(last.agentId).toBe(ceo.id);

    // The agents' own writes are theirs in the audit log, never alice's.
    const rows = (await app.request("GET", `/api/companies/${company.id}/audit?limit=500`, { token: alice }))
      .body.items as { action: string; actorType: string; actorName: string }[];
    const created = rows.filter((r) => r.action === "task.created");
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((r) => r.actorType === "agent" && r.actorName === ceo.name)).toBe(true);

    const why = await app.request("GET", `/api/runs/${last.id}/why`, { token: victor });
    expect(why.status).toBe(200);
    const byId = new Map(why.body.runs.map((n: { runId: string }) => [n.runId, n]));
    // Walk the chain: task_in_review (the hand-ins, for its review) ← (a lead's run) task_assigned ← (the CEO's run) approval_decided by alice.
    let node = byId.get(last.id) as {
      reasons: {
        trigger: string;
        fromRunId: string | null;
        by: { name: string };
        approvalId: string | null;
      }[];
    };
    const triggers: string[] = [];
    for (let i = 0; i < 10 && node; i++) {
      const reason = node.reasons[0]!;
      triggers.push(reason.trigger);
      if (!reason.fromRunId) {
        expect(reason).toMatchObject({
          trigger: "approval_decided",
          approvalId: strategy!.id,
          by: { type: "operator", name: "alice" },
        });
        break;
      }
      node = byId.get(reason.fromRunId) as typeof node;
    }
    expect(triggers).toEqual(["task_in_review", "task_assigned", "approval_decided"]);
  });

  it("explains a run an operator started directly: who woke it, from the audit log", async () => {
    const store = app.cadre.store;
    const company = await createCompany(store, { name: "Wake Co", goal: "Grow." });
    const ceo = (await loadCompanyState(store, company.id)).ceo;
    const { token } = await addOperator(store, { name: "otto", role: "operator" });
    const woke = await app.request("POST", `/api/agents/${ceo.id}/wake`, {
      token,
      json: { trigger: "start_team_building", seed: 7 },
    });
    expect(woke.status).toBe(202);
    const runId = woke.body.runId as string;
    for (let i = 0; i < 300 && (await store.getRun(runId))?.status === "running"; i++)
      await new Promise((r) => setTimeout(r, 20));
    const why = await app.request("GET", `/api/runs/${runId}/why`, { token });
    expect(why.body.runs).toHaveLength(1);
    expect(why.body.runs[0].reasons).toEqual([
      expect.objectContaining({
        trigger: "start_team_building",
        by: { type: "operator", name: "otto" },
        requestId: null,
        fromRunId: null,
      }),
    ]);
    expect(why.body.runs[0].reasons[0].cause).toBe(`otto woke ${ceo.name} (start_team_building)`);
    // The run's own writes (the CEO's hires and filing) are the CEO's, not otto's.
    const rows = (await store.listAudit({ companyId: company.id })).filter(
      (r) => r.action === "agent.hired" && r.target !== `agent ${ceo.id}`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.actorType === "agent" && r.actorName === ceo.name)).toBe(true);
  });

  it("refuses a revoked operator's token at once, and an operator limited to one company elsewhere", async () => {
    const store = app.cadre.store;
    const a = await createCompany(store, { name: "A Co", goal: "Grow." });
    const b = await createCompany(store, { name: "B Co", goal: "Grow." });
    const { token } = await addOperator(store, { name: "olga", role: "owner", companies: [a.id] });
    expect((await app.request("GET", `/api/companies/${a.id}`, { token })).status).toBe(200);
    expect((await app.request("GET", `/api/companies/${b.id}`, { token })).status).toBe(403);
    const listed = await app.request("GET", "/api/companies", { token });
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([a.id]);
    expect(listed.body.nextCursor).toBeNull();
    const me = await app.request("GET", "/api/me", { token });
    expect(me.body).toMatchObject({ kind: "operator", name: "olga", role: "owner", companies: [a.id] });
    expect((await app.request("DELETE", "/api/operators/olga")).status).toBe(200);
    expect((await app.request("GET", `/api/companies/${a.id}`, { token })).status).toBe(401);
    const audit = await app.request("GET", "/api/audit");
    expect(
      audit.body.items
        .filter((r: { action: string }) => r.action.startsWith("operator."))
        .map((r: { action: string; actorName: string }) => [r.action, r.actorName]),
    ).toEqual([
      ["operator.added", "system"],
      ["operator.revoked", "operator"],
    ]);
  });

  it("pages an operator limited to some companies through theirs only, one page after another", async () => {
    const store = app.cadre.store;
    const a = await createCompany(store, { name: "A Co", goal: "Grow." });
    const b = await createCompany(store, { name: "B Co", goal: "Grow." });
    const c = await createCompany(store, { name: "C Co", goal: "Grow." });
    const { token } = await addOperator(store, { name: "olga", role: "owner", companies: [a.id, c.id] });
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await app.request("GET", `/api/companies?limit=1${after ? `&after=${after}` : ""}`, {
        token,
      });
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(1);
      seen.push(...res.body.items.map((x: { id: string }) => x.id));
      after = res.body.nextCursor;
      pages++;
    } while (after !== null && pages < 5);
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual([a.id, c.id].sort());
    expect(seen).not.toContain(b.id);
  });
});
