// GET/PUT /api/companies/{id}/budget and /api/agents/{id}/budget: the operator sees and changes a
// budget through the same schema as `cadre budgets`; bad input is a 400 naming the field and
// changes nothing; an agent's key may read its company's budget but not change it.
import { afterEach, describe, expect, it } from "vitest";
import { apiCompany, apiKey, type TestApp, testApp } from "./testing/harness.js";

let app: TestApp;
afterEach(async () => app.close());

describe("budget routes", () => {
  it("show the default budget, change it, refuse bad input with nothing written, and keep agents read-only", async () => {
    app = await testApp();
    const { id, ceoAgentId } = await apiCompany(app);
    const shown = await app.request("GET", `/api/companies/${id}/budget`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      budget: { scope: "company", limitUsd: 10, period: "month", state: "ok", used: { tokens: 0, usd: 0 } },
      runCaps: { maxModelCalls: 100, maxToolCalls: 200 },
    });
    const set = await app.request("PUT", `/api/companies/${id}/budget`, {
      json: { tokens: 1500, warnAt: 0.5, runModelCalls: 20 },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      budget: { limitTokens: 1500, limitUsd: 10, warnAt: 0.5 },
      runCaps: { maxModelCalls: 20 },
    });
    const bad = await app.request("PUT", `/api/companies/${id}/budget`, {
      json: { usd: -3, period: "week" },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/period/);
    const agentBudget = await app.request("PUT", `/api/agents/${ceoAgentId}/budget`, { json: { usd: 2 } });
    expect(agentBudget.status).toBe(200);
    expect(agentBudget.body).toMatchObject({ budget: { scope: "agent", agentId: ceoAgentId, limitUsd: 2 } });
    expect((await app.request("GET", `/api/companies/${id}/budget`)).body.budget.limitTokens).toBe(1500);
    const key = await apiKey(app, ceoAgentId);
    const asAgent = await app.request("PUT", `/api/companies/${id}/budget`, {
      json: { usd: 1000 },
      token: key,
    });
    expect(asAgent.status).toBe(403);
    expect((await app.request("GET", `/api/companies/${id}/budget`, { token: key })).status).toBe(200);
  });
});
