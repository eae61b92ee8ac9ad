// Companies, connectors and agents.
import { describe, expect, it } from "vitest";
import { ConflictError, StoreError } from "../errors.js";
import { agent, approval, company, connector, seed, setClock, settings, type GetStore } from "./fixtures.js";

export function companyContract(store: GetStore): void {
  describe("companies", () => {
    it("round-trips every field and stamps createdAt", async () => {
      setClock("2025-01-02T03:04:05.678Z");
      const custom = { maxTeamSize: 3, requireHireApproval: false, profile: "legacy" as const };
      const inserted = await store().insertCompany(
        company("co1", { name: "Acme", goal: "Win", settings: custom }),
      );
      const expected = {
        id: "co1",
        name: "Acme",
        goal: "Win",
        settings: custom,
        createdAt: "2025-01-02T03:04:05.678Z",
      };
      expect(inserted).toEqual(expected);
      expect(await store().getCompany("co1")).toEqual(expected);
      expect(await store().getCompany("missing")).toBeUndefined();
    });

    it("reads a company's snapshot in one call: the same rows the single reads give", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertConnector(connector("co1", "second"));
      await store().insertAgent(agent("a1", { name: 'Ünïcode "quoted"', reportsTo: "ceo" }));
      await store().insertAgent(agent("gone", { name: "Gone", reportsTo: "ceo" }));
      await store().setAgentStatus("gone", "terminated");
      expect((await store().getCompanySnapshot("co1"))!.latestStrategy).toBeNull();
      await store().insertApproval(approval("s1", { type: "approve_ceo_strategy" }), "ceo");
      await store().insertApproval(approval("s2", { type: "approve_ceo_strategy" }), "ceo");
      await store().insertApproval(approval("h1", { type: "hire_agent" }), "ceo");
      await store().decideApproval("s2", "approved", "ok", "operator");
      const snapshot = await store().getCompanySnapshot("co1");
      const strategies = await store().listApprovals("co1", { type: "approve_ceo_strategy" });
      expect(snapshot).toEqual({
        company: await store().getCompany("co1"),
        connectors: await store().listConnectors("co1"),
        activeAgents: await store().listAgents("co1", { status: "active" }),
        latestStrategy: strategies.at(-1),
      });
      expect(snapshot!.activeAgents.map((a) => a.id).sort()).toEqual(["a1", "ceo"]);
      expect(snapshot!.latestStrategy!.status).toBe("approved");
      expect(await store().getCompanySnapshot("missing")).toBeUndefined();
    });

    it("reads a company's summary in one call: counts, the CEO, one agent by id, the holder of a name", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertAgent(agent("a1", { name: "CTO", reportsTo: "ceo" }));
      await store().insertAgent(agent("a2", { name: "Helper", reportsTo: "a1" }));
      await store().insertAgent(agent("gone", { name: "Gone", reportsTo: "ceo" }));
      await store().setAgentStatus("gone", "terminated");
      await store().insertApproval(approval("s1", { type: "approve_ceo_strategy" }), "ceo");
      const summary = await store().getCompanySummary("co1", { agentId: "a1", name: "ｃｔｏ" });
      expect(summary).toEqual({
        company: await store().getCompany("co1"),
        connectors: await store().listConnectors("co1"),
        ceo: await store().getAgent("ceo"),
        activeAgents: 3,
        activeReports: 1,
        latestStrategy: await store().getApproval("s1"),
        agent: await store().getAgent("a1"),
        nameTaken: await store().getAgent("a1"),
      });
      const plain = await store().getCompanySummary("co1");
      expect(plain).toMatchObject({ agent: null, nameTaken: null, activeAgents: 3 });
      // A terminated agent's name is free again; an agent of another company is still returned by id.
      expect((await store().getCompanySummary("co1", { name: "Gone" }))!.nameTaken).toBeNull();
      expect((await store().getCompanySummary("co1", { agentId: "ceo-co2" }))!.agent!.companyId).toBe("co2");
      expect(await store().getCompanySummary("missing")).toBeUndefined();
    });

    it("lists by creation time, then id", async () => {
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertCompany(company("b"));
      setClock("2025-01-01T00:00:01.000Z");
      await store().insertCompany(company("c"));
      await store().insertCompany(company("a"));
      expect((await store().listCompanies()).map((c) => c.id)).toEqual(["b", "a", "c"]);
    });

    it("replaces settings", async () => {
      await store().insertCompany(company("co1"));
      const next = { ...settings, maxTeamSize: 9, requireHireApproval: false };
      await store().updateCompanySettings("co1", next);
      expect((await store().getCompany("co1"))?.settings).toEqual(next);
      await expect(store().updateCompanySettings("missing", next)).rejects.toBeInstanceOf(StoreError);
    });

    it("rejects a duplicate id with a ConflictError naming it", async () => {
      await store().insertCompany(company("co1"));
      const error = await store()
        .insertCompany(company("co1", { name: "Other" }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toContain("co1");
      expect((await store().getCompany("co1"))?.name).toBe("Company co1");
    });
  });
}

export function connectorContract(store: GetStore): void {
  describe("connectors", () => {
    it("round-trips every field, JSON config and model list included", async () => {
      setClock("2025-02-03T04:05:06.789Z");
      await store().insertCompany(company("co1"));
      const input = connector("co1", "anthropic", {
        kind: "anthropic",
        label: "Claude",
        config: { a: [1, { b: null }], c: "x" },
      });
      const expected = { ...input, createdAt: "2025-02-03T04:05:06.789Z" };
      expect(await store().insertConnector(input)).toEqual(expected);
      expect(await store().getConnector("co1", "anthropic")).toEqual(expected);

      await store().insertConnector(connector("co1", "empty", { enabledModels: [], config: {} }));
      const empty = await store().getConnector("co1", "empty");
      expect(empty?.enabledModels).toEqual([]);
      expect(empty?.config).toEqual({});
    });

    it("scopes ids to their company", async () => {
      await store().insertCompany(company("co1"));
      await store().insertCompany(company("co2"));
      await store().insertConnector(connector("co1", "offline"));
      await store().insertConnector(connector("co2", "offline", { label: "Second" }));
      expect((await store().getConnector("co2", "offline"))?.label).toBe("Second");
      expect(await store().getConnector("co1", "missing")).toBeUndefined();
      expect(await store().getConnector("co3", "offline")).toBeUndefined();

      const error = await store()
        .insertConnector(connector("co1", "offline"))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toContain("offline");
    });

    it("lists a company's connectors by creation time, then id", async () => {
      await store().insertCompany(company("co1"));
      await store().insertCompany(company("co2"));
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertConnector(connector("co1", "zeta"));
      setClock("2025-01-01T00:00:01.000Z");
      await store().insertConnector(connector("co1", "beta"));
      await store().insertConnector(connector("co1", "alpha"));
      await store().insertConnector(connector("co2", "other"));
      expect((await store().listConnectors("co1")).map((c) => c.id)).toEqual(["zeta", "alpha", "beta"]);
      expect(await store().listConnectors("none")).toEqual([]);
    });

    it("removes a connector from lists and look-ups; its agents keep naming it; the id can be added again", async () => {
      await store().insertCompany(company("co1"));
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertConnector(connector("co1", "local", { config: { baseUrl: "http://a/v1" } }));
      await store().insertConnector(connector("co1", "offline"));
      await store().insertAgent(agent("on-local", { connectorId: "local", status: "terminated" }));
      expect(await store().removeConnector("co1", "local")).toBe(true);
      expect(await store().removeConnector("co1", "local")).toBe(false);
      expect(await store().removeConnector("co1", "missing")).toBe(false);
      expect(await store().getConnector("co1", "local")).toBeUndefined();
      expect((await store().listConnectors("co1")).map((c) => c.id)).toEqual(["offline"]);
      // The one-statement reads leave it out exactly as listConnectors does.
      expect((await store().getCompanySnapshot("co1"))!.connectors).toEqual(
        await store().listConnectors("co1"),
      );
      expect((await store().getCompanySummary("co1"))!.connectors).toEqual(
        await store().listConnectors("co1"),
      );
      expect((await store().getAgent("on-local"))?.connectorId).toBe("local");
      setClock("2025-01-02T00:00:00.000Z");
      const again = await store().insertConnector(
        connector("co1", "local", { label: "Again", config: { baseUrl: "http://b/v1" } }),
      );
      expect(again).toMatchObject({ label: "Again", config: { baseUrl: "http://b/v1" } });
      expect(again.createdAt).toBe("2025-01-02T00:00:00.000Z");
      expect((await store().listConnectors("co1")).map((c) => c.id)).toEqual(["offline", "local"]);
      expect((await store().getCompanySnapshot("co1"))!.connectors).toEqual(
        await store().listConnectors("co1"),
      );
      expect((await store().getCompanySummary("co1"))!.connectors).toEqual(
        await store().listConnectors("co1"),
      );
      // Only a removed one is reused: a live one of the same id is still a conflict.
      await expect(store().insertConnector(connector("co1", "local"))).rejects.toBeInstanceOf(ConflictError);
    });

    it("keeps what the endpoint offered for its models, merged, in every read; none for a missing connector", async () => {
      await store().insertCompany(company("co1"));
      const added = await store().insertConnector(
        connector("co1", "local", { modelFingerprints: { "llama3.1:8b": "sha256:aaa" } }),
      );
      expect(added.modelFingerprints).toEqual({ "llama3.1:8b": "sha256:aaa" });
      expect(await store().pinModelFingerprints("co1", "local", { "qwen2.5:7b": "sha256:bbb" })).toBe(true);
      const expected = { "llama3.1:8b": "sha256:aaa", "qwen2.5:7b": "sha256:bbb" };
      expect((await store().getConnector("co1", "local"))?.modelFingerprints).toEqual(expected);
      expect((await store().getCompanySnapshot("co1"))!.connectors[0]!.modelFingerprints).toEqual(expected);
      expect((await store().getCompanySummary("co1"))!.connectors[0]!.modelFingerprints).toEqual(expected);
      expect(await store().pinModelFingerprints("co1", "missing", { x: "y" })).toBe(false);
    });

    it("refuses a connector of a missing company with a StoreError that is not a conflict", async () => {
      const error = await store()
        .insertConnector(connector("ghost"))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).not.toBeInstanceOf(ConflictError);
    });
  });
}

export function agentContract(store: GetStore): void {
  describe("agents", () => {
    it("round-trips every field, booleans and nulls included", async () => {
      await seed(store());
      setClock("2025-03-04T05:06:07.890Z");
      const cto = agent("cto", {
        department: null,
        reportsTo: "ceo",
        isCeo: false,
        via: "http",
        role: "CTO",
      });
      expect(await store().insertAgent(cto)).toEqual({ ...cto, createdAt: "2025-03-04T05:06:07.890Z" });
      expect(await store().getAgent("cto")).toEqual({ ...cto, createdAt: "2025-03-04T05:06:07.890Z" });

      const ceo = await store().getAgent("ceo");
      expect(ceo?.isCeo).toBe(true);
      expect(ceo?.reportsTo).toBeNull();
      expect(ceo?.department).toBe("engineering");
      expect(await store().getAgent("missing")).toBeUndefined();
    });

    it("lists by creation time then id, filters by status and company", async () => {
      setClock("2025-01-01T00:00:00.000Z");
      await seed(store());
      await seed(store(), "co2");
      setClock("2025-01-01T00:00:01.000Z");
      await store().insertAgent(agent("z"));
      await store().insertAgent(agent("b", { status: "terminated" }));
      setClock("2025-01-01T00:00:02.000Z");
      await store().insertAgent(agent("a"));
      expect((await store().listAgents("co1")).map((a) => a.id)).toEqual(["ceo", "b", "z", "a"]);
      expect((await store().listAgents("co1", { status: "active" })).map((a) => a.id)).toEqual([
        "ceo",
        "z",
        "a",
      ]);
      expect((await store().listAgents("co1", { status: "terminated" })).map((a) => a.id)).toEqual(["b"]);
      expect((await store().listAgents("co2")).map((a) => a.id)).toEqual(["ceo-co2"]);
    });

    it("reads a slice of the active team, or of one agent's reports, with the count of every match", async () => {
      setClock("2025-01-01T00:00:00.000Z");
      await seed(store());
      await seed(store(), "co2");
      setClock("2025-01-01T00:00:01.000Z");
      for (const id of ["lead", "r3", "r1", "r2"])
        await store().insertAgent(agent(id, id === "lead" ? { reportsTo: "ceo" } : { reportsTo: "lead" }));
      await store().insertAgent(agent("gone", { reportsTo: "lead", status: "terminated" }));
      await store().insertAgent(agent("x", { companyId: "co2", reportsTo: "lead" }));
      const ids = (s: { agents: { id: string }[]; total: number }) => [s.agents.map((a) => a.id), s.total];
      expect(ids(await store().listTeam("co1", { limit: 10 }))).toEqual([
        ["ceo", "lead", "r1", "r2", "r3"],
        5,
      ]);
      expect(ids(await store().listTeam("co1", { limit: 2, exclude: "ceo" }))).toEqual([["lead", "r1"], 4]);
      expect(ids(await store().listTeam("co1", { reportsTo: "lead", limit: 2 }))).toEqual([["r1", "r2"], 3]);
      expect(ids(await store().listTeam("co1", { reportsTo: "lead", exclude: "r1", limit: 5 }))).toEqual([
        ["r2", "r3"],
        2,
      ]);
      expect(ids(await store().listTeam("co1", { reportsTo: "r1", limit: 5 }))).toEqual([[], 0]);
    });

    it("changes status", async () => {
      await seed(store());
      await store().insertAgent(agent("a"));
      await store().setAgentStatus("a", "terminated");
      expect((await store().getAgent("a"))?.status).toBe("terminated");
      await expect(store().setAgentStatus("missing", "terminated")).rejects.toBeInstanceOf(StoreError);
    });

    it("changes model (MC-13)", async () => {
      await seed(store());
      await store().insertAgent(agent("a"));
      await store().setAgentModel("a", "other-model-1");
      expect((await store().getAgent("a"))?.model).toBe("other-model-1");
      await store().insertConnector(connector("co1", "second"));
      await store().setAgentModel("a", "other-model-2", "second");
      expect(await store().getAgent("a")).toMatchObject({ model: "other-model-2", connectorId: "second" });
      await expect(store().setAgentModel("missing", "other-model-1")).rejects.toBeInstanceOf(StoreError);
    });

    it("rejects a duplicate id with a ConflictError naming it", async () => {
      await seed(store());
      await store().insertAgent(agent("cto"));
      const error = await store()
        .insertAgent(agent("cto", { name: "Other" }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toContain("cto");
      expect((await store().getAgent("cto"))?.name).toBe("Agent cto");
    });

    it("keeps active agents' names unique per company on the normalised key, with a ConflictError and nothing written", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertAgent(agent("cto", { name: "CTO" }));
      // Case, compatibility forms and invisible characters fold away: each reads as "CTO".
      for (const [i, name] of [
        "cto",
        "ＣＴＯ",
        "C\u200bTO",
        "CT\u200cO",
        "CTO\u200e",
        "C\u061cTO",
        "C\u2060TO",
      ].entries()) {
        const error = await store()
          .insertAgent(agent(`look${i}`, { name }))
          .catch((e: unknown) => e);
        expect(error, JSON.stringify(name)).toBeInstanceOf(ConflictError);
        expect(await store().getAgent(`look${i}`)).toBeUndefined();
      }
      // Another company, or a terminated namesake, is no conflict; the name is free again once its agent leaves.
      await store().insertAgent(agent("cto2", { companyId: "co2", name: "CTO" }));
      await store().insertAgent(agent("old", { name: "cto", status: "terminated" }));
      await store().setAgentStatus("cto", "terminated");
      await store().insertAgent(agent("cto3", { name: "Cto" }));
      expect((await store().listAgents("co1", { status: "active" })).map((a) => a.name)).toEqual([
        "Agent ceo",
        "Cto",
      ]);
      // Bringing the old CTO back would make two: refused.
      await expect(store().setAgentStatus("cto", "active")).rejects.toBeInstanceOf(ConflictError);
    });

    it("of concurrent inserts of one name exactly one wins", async () => {
      await seed(store());
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          store().insertAgent(agent(`dup${i}`, { name: i % 2 ? "Head of Sales" : "head of sales" })),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ConflictError);
      expect(
        (await store().listAgents("co1")).filter((a) => a.name.toLowerCase() === "head of sales"),
      ).toHaveLength(1);
    });

    it("refuses references to missing records with a StoreError that is not a conflict", async () => {
      await seed(store());
      for (const bad of [
        agent("x", { companyId: "ghost" }),
        agent("x", { connectorId: "ghost" }),
        agent("x", { reportsTo: "ghost" }),
      ]) {
        const error = await store()
          .insertAgent(bad)
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StoreError);
        expect(error).not.toBeInstanceOf(ConflictError);
      }
      expect(await store().getAgent("x")).toBeUndefined();
    });
  });
}
