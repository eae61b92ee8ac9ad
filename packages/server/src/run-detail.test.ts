// GET /api/runs/{id} as the run view's header reads it: who ran it (name, role), the company, and
// its cost — null, not 0, once any of its model calls has an unknown price.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiCompany, type TestApp, testApp } from "./testing/harness.js";

let app: TestApp;
beforeEach(async () => {
  app = await testApp();
});
afterEach(async () => app.close());

describe("GET /api/runs/{id}", () => {
  it("names the agent and the company, and prices the run as the usage report does", async () => {
    const company = await apiCompany(app);
    const woke = await app.request("POST", `/api/agents/${company.ceoAgentId}/wake`, {
      json: { trigger: "start_team_building", seed: 3 },
    });
    await app.cadre.wakes.idle();
    const runId = woke.body.runId as string;
    const run = await app.request("GET", `/api/runs/${runId}`);
    expect(run.status).toBe(200);
    const ceo = (await app.store.listAgents(company.id)).find((a) => a.isCeo)!;
    expect(run.body).toMatchObject({
      id: runId,
      status: "done",
      agent: { id: ceo.id, name: ceo.name, role: ceo.role, isCeo: true },
      company: { id: company.id, name: (await app.store.getCompany(company.id))!.name },
    });
    const usage = await app.request("GET", `/api/runs/${runId}/usage`);
    expect(typeof run.body.costUsd).toBe("number");
    expect(run.body.costUsd).toBe(usage.body.usage.cost);

    // One call the ledger could not price (a model declared without a price): the cost is unknown.
    const call = await app.store.reserveModelCall({
      id: "mc_unpriced",
      companyId: company.id,
      agentId: ceo.id,
      runId,
      model: "unpriced-model",
      reservedTokens: 10,
      reservedUsd: null,
    });
    await app.store.settleModelCall(call.id, {
      servedModel: "unpriced-model",
      usage: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0 },
      costUsd: null,
    });
    expect((await app.request("GET", `/api/runs/${runId}`)).body.costUsd).toBeNull();
    expect((await app.request("GET", `/api/runs/${runId}/usage`)).body.usage.cost).toBeNull();
  });
});
