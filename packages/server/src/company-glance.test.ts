// The companies list at a glance: each company with its CEO's mode, the decisions waiting for the
// operator, its running runs and the spend counted from the caller's `since`; a malformed `since`
// is a 400 naming it.
import { afterEach, describe, expect, it } from "vitest";
import { apiCompany, type TestApp, testApp } from "./testing/harness.js";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

interface Glance {
  ceoMode: string;
  pendingDecisions: number;
  runningRuns: number;
  spentToday: { since: string; usd: number; tokens: number; unpricedCalls: number };
}
type Item = { id: string; glance: Glance };

async function list(a: TestApp, query = ""): Promise<Item[]> {
  const r = await a.request("GET", `/api/companies${query}`);
  expect(r.status).toBe(200);
  return (r.body as { items: Item[] }).items;
}

describe("GET /api/companies: a glance per company", () => {
  it("says which company waits for a decision and what it spent since the caller's midnight", async () => {
    app = await testApp();
    const busy = await apiCompany(app);
    const quiet = await apiCompany(app, { name: "Quiet Co" });
    const woken = await app.request("POST", `/api/agents/${busy.ceoAgentId}/wake`, {
      json: { trigger: "start_team_building", seed: 3 },
    });
    expect(woken.status).toBe(202);
    await app.cadre.wakes.idle();

    const since = "2000-01-01T00:00:00.000Z";
    const items = await list(app, `?since=${since}`);
    const of = (id: string) => items.find((i) => i.id === id)!.glance;
    // Team building ended with a strategy filed: the CEO waits for the operator's decision.
    expect(of(busy.id)).toMatchObject({ ceoMode: "awaiting-approval", pendingDecisions: 1, runningRuns: 0 });
    expect(of(busy.id).spentToday.since).toBe(since);
    expect(of(busy.id).spentToday.tokens).toBeGreaterThan(0);
    expect(of(quiet.id)).toEqual({
      ceoMode: "team-building",
      pendingDecisions: 0,
      runningRuns: 0,
      spentToday: { since, usd: 0, tokens: 0, unpricedCalls: 0 },
    });

    // Counted from a later midnight, the same calls are not today's.
    const later = await list(app, `?since=2999-01-01T00:00:00.000Z`);
    expect(later.find((i) => i.id === busy.id)!.glance.spentToday.tokens).toBe(0);
  });

  it("refuses a since that is not a time, naming it", async () => {
    app = await testApp();
    await apiCompany(app);
    const r = await app.request("GET", "/api/companies?since=yesterday");
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("since must be an ISO-8601 time");
  });
});
