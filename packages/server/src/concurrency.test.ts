// Concurrent requests on one resource: of 20 decisions on one approval exactly one wins (200) and
// every other gets 409; of concurrent hires with one name exactly one lands.
import { afterEach, beforeEach, expect, it } from "vitest";
import { HIRE, testWorld, type World } from "./testing/harness.js";

let w: World;
beforeEach(async () => {
  w = await testWorld();
});
afterEach(async () => w.app.close());

it("20 concurrent decisions on one approval: exactly one 200, the rest 409, one history row", async () => {
  const kinds = ["approve", "reject", "request-revision"] as const;
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      w.app.request("POST", `/api/approvals/${w.approvalA}/${kinds[i % 3]}`, {
        json: { note: `decision ${i}` },
      }),
    ),
  );
  const statuses = responses.map((r) => r.status).sort();
  expect(statuses).toEqual([200, ...Array(19).fill(409)]);
  const winner = responses.find((r) => r.status === 200)!;
  const history = await w.app.store.listApprovalEvents(w.approvalA);
  expect(history.map((h) => h.toStatus)).toEqual(["pending", winner.body.approval.status]);
  expect(history[1]!.note).toBe(winner.body.approval.decisionNote);
  expect((await w.app.store.listActivity(w.companyA, { type: "approval.decided" })).length).toBe(1);
});

it("concurrent hires of one name through the legacy route: exactly one agent", async () => {
  const responses = await Promise.all(
    Array.from({ length: 10 }, () =>
      w.app.request("POST", `/api/companies/${w.companyA}/agents`, {
        json: { ...HIRE, name: "CFO", department: "finance" },
      }),
    ),
  );
  expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(400)]);
  expect((await w.app.store.listAgents(w.companyA)).filter((a) => a.name === "CFO")).toHaveLength(1);
});
