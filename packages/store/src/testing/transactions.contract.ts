// transaction(), counts() and close().
import { describe, expect, it } from "vitest";
import { ConflictError, StoreError } from "../errors.js";
import { agent, approval, company, run, runEvent, seed, type GetStore } from "./fixtures.js";

// Spelled out rather than imported from schema.ts: the contract states what callers may rely on.
const TABLES = [
  "companies",
  "connectors",
  "agents",
  "approvals",
  "approval_events",
  "runs",
  "run_events",
  "activity",
  "api_tokens",
  "company_feed",
  "wakes",
  "tool_calls",
  "run_processes",
  "agent_sessions",
  "tasks",
  "task_blockers",
  "task_comments",
  "wake_requests",
  "schedules",
  "budgets",
  "model_calls",
  "operators",
  "audit_log",
  "spend_totals",
  "file_contents",
  "task_files",
];

export function transactionContract(store: GetStore, open: () => Promise<ReturnType<GetStore>>): void {
  describe("transactions", () => {
    it("commits everything fn wrote and returns its value", async () => {
      await seed(store());
      const result = await store().transaction(async (tx) => {
        await tx.insertAgent(agent("cto"));
        await tx.insertApproval(approval("ap1"), "ceo");
        // A transaction reads its own writes.
        expect((await tx.getAgent("cto"))?.id).toBe("cto");
        return 42;
      });
      expect(result).toBe(42);
      expect(await store().getAgent("cto")).toBeDefined();
      expect(await store().listApprovalEvents("ap1")).toHaveLength(1);
    });

    it("rolls back when fn throws midway, and rethrows fn's own error", async () => {
      await seed(store());
      const before = await store().counts();
      const boom = new Error("boom");
      const error = await store()
        .transaction(async (tx) => {
          await tx.insertAgent(agent("cto"));
          throw boom;
        })
        .catch((e: unknown) => e);
      expect(error).toBe(boom);
      expect(await store().getAgent("cto")).toBeUndefined();
      expect(await store().counts()).toEqual(before);
    });

    it("rolls back the multi-row methods too, which join the caller's transaction", async () => {
      await seed(store());
      await store().insertApproval(approval("decided"), "ceo");
      await store().insertRun(run("r1"));
      const before = await store().counts();
      await expect(
        store().transaction(async (tx) => {
          await tx.insertApproval(approval("ap1"), "ceo");
          expect(await tx.decideApproval("decided", "approved", null, "operator")).toBeDefined();
          await tx.appendRunEvents([runEvent("r1", 0), runEvent("r1", 1)]);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await store().counts()).toEqual(before);
      expect(await store().getApproval("ap1")).toBeUndefined();
      expect((await store().getApproval("decided"))?.status).toBe("pending");
    });

    it("rolls back when a write inside fails with a conflict", async () => {
      await seed(store());
      const before = await store().counts();
      const error = await store()
        .transaction(async (tx) => {
          await tx.insertCompany(company("co2"));
          await tx.insertAgent(agent("ceo"));
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(await store().getCompany("co2")).toBeUndefined();
      expect(await store().counts()).toEqual(before);
    });
  });

  describe("counts", () => {
    it("reports every table", async () => {
      expect(await store().counts()).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
      await seed(store());
      await store().insertApproval(approval("ap1"), "ceo");
      expect(await store().counts()).toMatchObject({
        companies: 1,
        connectors: 1,
        agents: 1,
        approvals: 1,
        approval_events: 1,
      });
    });
  });

  describe("close", () => {
    it("makes later calls fail with a StoreError", async () => {
      const other = await open();
      expect(["sqlite", "postgres"]).toContain(other.dialect);
      await other.close();
      await expect(other.listCompanies()).rejects.toBeInstanceOf(StoreError);
    });
  });
}
