// Approving a filed hire (requireHireApproval) checks the hire again inside the
// decision's transaction, where readiness is read from the probes' outcomes and never probed. The
// decision refreshes the hire's connector's probes first, outside the transaction: a process that
// never measured them (a fresh `cadre approvals approve`, a server whose background refresh has not
// reached the company yet) approves a hire on a ready connector, and refuses one on a connector that
// is down, naming why and writing nothing. Connectors point at a loopback @cadre/standin (OFFLINE).
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { createCompany } from "../companies.js";
import { refreshReadiness } from "../connectors/readiness.js";
import { ProbeCache } from "../connectors/probe-cache.js";
import { loadCompanyState } from "../state.js";
import { hireAgent } from "./hire.js";

let standin: StandinServer;
beforeAll(async () => {
  standin = await startStandin({ policy: echo });
});
afterAll(async () => standin.close());

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => store.close());

const MODEL = "claude-sonnet-4-5-20250929";
// A key variable that is set everywhere (its value is never sent anywhere but the loopback stand-in).
const connector = (id: string, baseUrl: string) => ({
  id,
  kind: "anthropic" as const,
  enabledModels: [MODEL],
  config: { apiKeyEnv: "PATH", baseUrl },
});

describe("approving a filed hire refreshes its connector's readiness, off the transaction", () => {
  it("a process that never probed the connector approves a hire on a ready one, and refuses one on a connector now down", async () => {
    // "flaky" has an endpoint of its own, which goes away after the hire is filed.
    const flakyServer = await startStandin({ policy: echo });
    const company = await createCompany(store, {
      name: "Careful",
      settings: { requireHireApproval: true },
      connectors: [connector("gateway", standin.url), connector("flaky", flakyServer.url)],
    });
    const state = await loadCompanyState(store, company.id);
    // The CEO's wake measured both connectors (ready) and filed two hires.
    const wakeProbes = new ProbeCache();
    await refreshReadiness(state.connectors, process.env, wakeProbes);
    const asCeo = {
      companyId: company.id,
      agentId: state.ceo.id,
      via: "tool" as const,
      runId: null,
      probes: wakeProbes,
    };
    const file = async (name: string, connectorId: string) => {
      const filed = await hireAgent(store, asCeo, {
        name,
        role: name,
        description: "Leads.",
        connectorId,
        model: MODEL,
      });
      expect(filed, JSON.stringify(filed)).toMatchObject({ ok: true, value: { status: "pending" } });
      return (filed as { value: { approvalId: string } }).value.approvalId;
    };
    const onGateway = await file("CTO", "gateway");
    const onFlaky = await file("CRO", "flaky");

    // A later process: its probe book is empty. The decision measures the hire's connector first.
    const approveProbes = new ProbeCache();
    const decided = await decideApproval(store, onGateway, "approve", null, "operator", {
      probes: approveProbes,
    });
    const cto = (await store.listAgents(company.id)).find((a) => a.name === "CTO");
    expect(decided.hired).toBe(cto?.id);
    expect(cto).toMatchObject({ connectorId: "gateway", model: MODEL, status: "active" });

    // Meanwhile the other connector's endpoint went away: the refreshed readiness says so, and the
    // approval is refused whole — nobody hired, the approval still pending.
    await flakyServer.close();
    const before = await store.counts();
    await expect(
      decideApproval(store, onFlaky, "approve", null, "operator", { probes: new ProbeCache() }),
    ).rejects.toThrow(/no longer passes its checks — `connectorId` connector "flaky" is not ready/);
    expect(await store.counts()).toEqual(before);
    expect((await store.getApproval(onFlaky))!.status).toBe("pending");
  });
});
