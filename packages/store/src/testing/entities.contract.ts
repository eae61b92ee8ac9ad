// Every record the store answers is what its entity's schema (@cadre/model) says, on every dialect:
// the schema is the record's type, and the API's views are built from it.
import {
  AgentRowSchema,
  ApprovalEventRowSchema,
  ApprovalRowSchema,
  CompanyRowSchema,
  ConnectorRowSchema,
  parse,
  RunRowSchema,
  TaskRowSchema,
  type TSchema,
} from "@cadre/model";
import { describe, expect, it } from "vitest";
import { agent, approval, connector, run, seed, type GetStore } from "./fixtures.js";

/** The fields of `record` its schema refuses, with why; {} when it conforms. */
function problemsOf(schema: TSchema, record: unknown): Record<string, string> {
  const parsed = parse(schema, record);
  return parsed.ok ? {} : parsed.problems;
}

export function entityContract(store: GetStore): void {
  describe("records match their entity schemas", () => {
    it("agents: inserted, read one by one and listed, nulls and booleans included", async () => {
      await seed(store());
      const inserted = await store().insertAgent(
        agent("a1", { reportsTo: "ceo", department: null, via: "http" }),
      );
      const read = [inserted, await store().getAgent("ceo"), ...(await store().listAgents("co1"))];
      expect(read).toHaveLength(4);
      for (const record of read) expect(problemsOf(AgentRowSchema, record)).toEqual({});
    });

    it("connectors: JSON config, model list and fingerprints decoded", async () => {
      await seed(store());
      const inserted = await store().insertConnector(
        connector("co1", "local", { modelFingerprints: { "offline-1": "digest:abc" } }),
      );
      const read = [
        inserted,
        await store().getConnector("co1", "local"),
        ...(await store().listConnectors("co1")),
      ];
      expect(read).toHaveLength(4);
      for (const record of read) expect(problemsOf(ConnectorRowSchema, record)).toEqual({});
    });

    it("tasks: blockers decoded, nulls kept, a checkout and a deliverable included", async () => {
      await seed(store());
      const base = {
        companyId: "co1",
        description: "Do it.",
        status: "todo" as const,
        assigneeAgentId: null,
        parentTaskId: null,
        strategyId: null,
        deliverable: null,
        via: "tool" as const,
      };
      await store().insertTask({ ...base, id: "t1", title: "First", creatorAgentId: null, blockers: [] });
      await store().insertTask({
        ...base,
        id: "t2",
        title: "Second",
        creatorAgentId: "ceo",
        blockers: ["t1"],
      });
      await store().insertRun(run("r1"));
      expect(await store().checkoutTask("t1", "r1")).toBe(true);
      await store().updateTask("t2", { deliverable: "Done.", deliverableBy: "operator" });
      const read = [
        await store().getTask("t1"),
        await store().getTask("t2"),
        ...(await store().listTasks("co1")),
      ];
      expect(read).toHaveLength(4);
      for (const record of read) expect(problemsOf(TaskRowSchema, record)).toEqual({});
    });

    it("companies: settings decoded", async () => {
      await seed(store());
      await seed(store(), "co2");
      const read = [await store().getCompany("co1"), ...(await store().listCompanies())];
      expect(read).toHaveLength(3);
      for (const record of read) expect(problemsOf(CompanyRowSchema, record)).toEqual({});
    });

    it("approvals and their history: filed, decided, read back", async () => {
      await seed(store());
      const filed = await store().insertApproval(approval("s1"), "ceo");
      await store().insertApproval(approval("h1", { type: "hire_agent", filedByAgentId: null }), "operator");
      const decided = await store().decideApproval("s1", "approved", "Go.", "operator");
      const read = [filed, decided, await store().getApproval("h1"), ...(await store().listApprovals("co1"))];
      expect(read).toHaveLength(5);
      for (const record of read) expect(problemsOf(ApprovalRowSchema, record)).toEqual({});
      const history = await store().listApprovalEvents("s1");
      expect(history).toHaveLength(2);
      for (const e of history) expect(problemsOf(ApprovalEventRowSchema, e)).toEqual({});
    });

    it("runs: running and ended, usage and stop reason included", async () => {
      await seed(store());
      const started = await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().finishRun("r2", {
        status: "failed",
        usage: { input: 10, output: 5, cacheRead: 3, cacheWrite: 1 },
        error: "no room",
        stopReason: "budget",
      });
      const read = [started, await store().getRun("r2"), ...(await store().listRuns({ companyId: "co1" }))];
      expect(read).toHaveLength(4);
      for (const record of read) expect(problemsOf(RunRowSchema, record)).toEqual({});
    });
  });
}
