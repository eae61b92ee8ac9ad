// Approvals and their history, including the race between concurrent decisions.
import { describe, expect, it } from "vitest";
import { ConflictError } from "../errors.js";
import type { ApprovalStatus } from "@cadre/model";
import { approval, seed, setClock, type GetStore } from "./fixtures.js";

export function approvalContract(store: GetStore): void {
  describe("approvals", () => {
    it("files as pending with a first history row", async () => {
      await seed(store());
      setClock("2025-04-05T06:07:08.901Z");
      const input = approval("ap1", { type: "hire_agent", via: "http" });
      const expected = {
        ...input,
        status: "pending",
        decisionNote: null,
        createdAt: "2025-04-05T06:07:08.901Z",
        decidedAt: null,
      };
      expect(await store().insertApproval(input, "agent:ceo")).toEqual(expected);
      expect(await store().getApproval("ap1")).toEqual(expected);
      expect(await store().getApproval("missing")).toBeUndefined();

      const history = await store().listApprovalEvents("ap1");
      expect(history).toEqual([
        {
          id: expect.any(Number),
          approvalId: "ap1",
          fromStatus: null,
          toStatus: "pending",
          note: null,
          actor: "agent:ceo",
          at: "2025-04-05T06:07:08.901Z",
        },
      ]);
      expect(await store().listApprovalEvents("missing")).toEqual([]);
    });

    it("accepts an approval filed by no agent", async () => {
      await seed(store());
      const row = await store().insertApproval(
        approval("ap1", { filedByAgentId: null, via: "system" }),
        "operator",
      );
      expect(row.filedByAgentId).toBeNull();
      expect((await store().getApproval("ap1"))?.filedByAgentId).toBeNull();
    });

    it("lists by creation time then id, filtered by status, type and company", async () => {
      await seed(store());
      await seed(store(), "co2");
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertApproval(approval("z"), "ceo");
      setClock("2025-01-01T00:00:01.000Z");
      await store().insertApproval(approval("b", { type: "hire_agent" }), "ceo");
      await store().insertApproval(approval("a"), "ceo");
      await store().insertApproval(approval("other", { companyId: "co2", filedByAgentId: null }), "ceo");
      await store().decideApproval("a", "rejected", null, "operator");

      const ids = async (filter?: Parameters<ReturnType<GetStore>["listApprovals"]>[1]) =>
        (await store().listApprovals("co1", filter)).map((a) => a.id);
      expect(await ids()).toEqual(["z", "a", "b"]);
      expect(await ids({ status: "pending" })).toEqual(["z", "b"]);
      expect(await ids({ type: "hire_agent" })).toEqual(["b"]);
      expect(await ids({ status: "pending", type: "approve_ceo_strategy" })).toEqual(["z"]);
      expect(await ids({ status: "approved" })).toEqual([]);
    });

    it("decides a pending approval and appends history", async () => {
      await seed(store());
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertApproval(approval("ap1"), "agent:ceo");
      setClock("2025-01-01T00:05:00.000Z");
      const decided = await store().decideApproval("ap1", "revision_requested", "Add a budget", "operator");
      expect(decided).toEqual({
        ...approval("ap1"),
        status: "revision_requested",
        decisionNote: "Add a budget",
        decidedAt: "2025-01-01T00:05:00.000Z",
        createdAt: "2025-01-01T00:00:00.000Z",
      });
      expect(await store().getApproval("ap1")).toEqual(decided);

      const history = await store().listApprovalEvents("ap1");
      expect(
        history.map(({ fromStatus, toStatus, note, actor, at }) => ({
          fromStatus,
          toStatus,
          note,
          actor,
          at,
        })),
      ).toEqual([
        {
          fromStatus: null,
          toStatus: "pending",
          note: null,
          actor: "agent:ceo",
          at: "2025-01-01T00:00:00.000Z",
        },
        {
          fromStatus: "pending",
          toStatus: "revision_requested",
          note: "Add a budget",
          actor: "operator",
          at: "2025-01-01T00:05:00.000Z",
        },
      ]);
      expect(history[1]!.id).toBeGreaterThan(history[0]!.id);
    });

    it("returns undefined and writes nothing when the approval is not pending or missing", async () => {
      await seed(store());
      await store().insertApproval(approval("ap1"), "ceo");
      await store().decideApproval("ap1", "approved", "ok", "operator");
      const before = { row: await store().getApproval("ap1"), counts: await store().counts() };

      expect(await store().decideApproval("ap1", "rejected", "too late", "operator")).toBeUndefined();
      expect(await store().decideApproval("missing", "approved", null, "operator")).toBeUndefined();
      expect(await store().getApproval("ap1")).toEqual(before.row);
      expect(await store().counts()).toEqual(before.counts);
      expect(await store().listApprovalEvents("ap1")).toHaveLength(2);
    });

    it("lets exactly one of twenty concurrent decisions win", async () => {
      await seed(store());
      await store().insertApproval(approval("ap1"), "ceo");
      const statuses: Exclude<ApprovalStatus, "pending">[] = ["approved", "rejected", "revision_requested"];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store().decideApproval("ap1", statuses[i % 3]!, `decider ${i}`, `operator-${i}`),
        ),
      );
      const winners = results.filter((r) => r !== undefined);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(await store().getApproval("ap1")).toEqual(winner);

      const history = await store().listApprovalEvents("ap1");
      expect(history).toHaveLength(2);
      expect(history[1]).toMatchObject({
        fromStatus: "pending",
        toStatus: winner.status,
        note: winner.decisionNote,
      });
    });

    it("rejects a duplicate id with a ConflictError and leaves no stray history", async () => {
      await seed(store());
      await store().insertApproval(approval("ap1"), "ceo");
      const before = await store().counts();
      const error = await store()
        .insertApproval(approval("ap1", { title: "Again" }), "ceo")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toContain("ap1");
      expect(await store().counts()).toEqual(before);
    });
  });
}
