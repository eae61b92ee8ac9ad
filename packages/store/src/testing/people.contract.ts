// Operators (stored by token hash, revocable, unique by name) and the audit log: one row per
// audited write, with who made it, committed with the write or not at all.
import { describe, expect, it } from "vitest";
import { actingAs } from "../audit-context.js";
import { ConflictError } from "../errors.js";
import { activity, agent, approval, seed, settings, type GetStore } from "./fixtures.js";

export function peopleContract(store: GetStore): void {
  describe("operators", () => {
    it("round-trips an operator without its hash, finds it by hash, refuses a second of the same name", async () => {
      const row = await store().insertOperator({
        id: "op1",
        name: "alice",
        role: "operator",
        companyIds: ["co1"],
        hash: "hash-a",
      });
      expect(row).toMatchObject({
        id: "op1",
        name: "alice",
        role: "operator",
        companyIds: ["co1"],
        revokedAt: null,
      });
      expect(JSON.stringify(row)).not.toContain("hash-a");
      expect(await store().findOperatorByHash("hash-a")).toEqual(row);
      await store().insertOperator({
        id: "op2",
        name: "bob",
        role: "owner",
        companyIds: null,
        hash: "hash-b",
      });
      expect((await store().listOperators()).map((o) => [o.name, o.companyIds])).toEqual([
        ["alice", ["co1"]],
        ["bob", null],
      ]);
      await expect(
        store().insertOperator({
          id: "op3",
          name: "alice",
          role: "viewer",
          companyIds: null,
          hash: "hash-c",
        }),
      ).rejects.toBeInstanceOf(ConflictError);
    });

    it("revokes by name or id, once", async () => {
      await store().insertOperator({
        id: "op1",
        name: "alice",
        role: "viewer",
        companyIds: null,
        hash: "h1",
      });
      expect(await store().revokeOperator("alice")).toBe(true);
      expect(await store().revokeOperator("op1")).toBe(false);
      expect((await store().findOperatorByHash("h1"))?.revokedAt).not.toBeNull();
    });
  });

  describe("audit log", () => {
    it("records each audited write with its actor, in order, and not the writes that are not audited", async () => {
      await seed(store());
      await actingAs(
        { type: "operator", name: "alice" },
        () => store().insertApproval(approval("a1"), "ceo"),
        "req-1",
      );
      await actingAs({ type: "operator", name: "alice" }, () =>
        store().decideApproval("a1", "approved", "fine", "alice"),
      );
      await store().insertActivity(activity("task.checked_out"));
      const rows = await store().listAudit({ companyId: "co1" });
      expect(rows.map((r) => [r.action, r.actorType, r.actorName])).toEqual([
        ["company.created", "system", "system"],
        ["connector.added", "system", "system"],
        ["agent.hired", "system", "system"],
        ["approval.filed", "operator", "alice"],
        ["approval.decided", "operator", "alice"],
      ]);
      expect(rows[3]?.requestId).toBe("req-1");
      expect(rows[4]?.summary).toContain("pending → approved");
      expect((await store().listAudit({ actor: "alice" })).length).toBe(2);
      expect((await store().listAudit({ after: rows[3]!.id })).map((r) => r.action)).toEqual([
        "approval.decided",
      ]);
    });

    it("records a message of the operator's thread as the write of whoever wrote it", async () => {
      await seed(store());
      await actingAs({ type: "operator", name: "alice" }, () =>
        store().insertActivity({
          companyId: "co1",
          agentId: null,
          runId: null,
          type: "message.posted",
          data: { from: "operator", text: "How is the launch going?" },
        }),
      );
      const rows = (await store().listAudit({ companyId: "co1" })).filter(
        (r) => r.action === "message.posted",
      );
      expect(rows.map((r) => [r.actorType, r.actorName, r.summary])).toEqual([
        ["operator", "alice", 'wrote "How is the launch going?"'],
      ]);
    });

    it("names an agent actor by its name, and records nothing for a write that wrote nothing", async () => {
      await seed(store());
      await store().insertAgent(agent("cto", { name: "CTO" }));
      await actingAs({ type: "agent", agentId: "cto", runId: null }, () =>
        store().insertApproval(approval("a1"), "cto"),
      );
      await store().decideApproval("a1", "rejected", null, "operator");
      // A second decision loses (the approval is no longer pending): no row.
      expect(await store().decideApproval("a1", "approved", null, "operator")).toBeUndefined();
      const rows = await store().listAudit({ companyId: "co1" });
      expect(rows.filter((r) => r.action === "approval.decided")).toHaveLength(1);
      expect(rows.find((r) => r.action === "approval.filed")).toMatchObject({
        actorType: "agent",
        actorId: "cto",
        actorName: "CTO",
      });
    });

    it("says what changed, before → after", async () => {
      await seed(store());
      await store().updateCompanySettings("co1", { ...settings, maxTeamSize: 7 });
      await store().putBudget({
        companyId: "co1",
        agentId: null,
        limitUsd: 25,
        limitTokens: null,
        period: "month",
        warnAt: 0.8,
        runCaps: null,
      });
      const rows = await store().listAudit({ companyId: "co1" });
      expect(rows.find((r) => r.action === "company.settings_changed")?.summary).toBe("maxTeamSize: 5 → 7");
      expect(rows.find((r) => r.action === "budget.set")?.summary).toContain("usd: null → 25");
    });

    it("commits the audit row with its write, and rolls it back with it", async () => {
      await seed(store());
      const before = (await store().listAudit()).length;
      await expect(
        store().transaction(async (tx) => {
          await tx.setAgentStatus("ceo", "terminated");
          expect((await tx.listAudit()).length).toBe(before + 1);
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect((await store().listAudit()).length).toBe(before);
      await store().transaction((tx) => tx.setAgentStatus("ceo", "terminated"));
      const last = (await store().listAudit()).at(-1);
      expect(last).toMatchObject({ action: "agent.status_changed", companyId: "co1" });
      expect(last?.summary).toContain("active → terminated");
    });
  });
}
