// The wake lease: what workers on several machines rely on. A wake starts at most one run per
// attempt, only its holder writes to it, one running wake per agent, and exactly one recoverer
// takes a wake whose lease ran out.
import { describe, expect, it } from "vitest";
import type { WakeClaim } from "../types.js";
import { agent, run, seed, type GetStore } from "./fixtures.js";

const claim = (id: string, over: Partial<WakeClaim> = {}): WakeClaim => ({
  id,
  companyId: "co1",
  agentId: "ceo",
  workerId: "w1",
  leaseUntil: "2030-01-01T00:00:30.000Z",
  ...over,
});

export function wakeContract(store: GetStore): void {
  describe("wakes", () => {
    it("claims a new wake for its worker, records its run, renews and releases only for the holder", async () => {
      await seed(store());
      const claimed = await store().claimWake(claim("wk1"));
      expect(claimed).toEqual({
        outcome: "claimed",
        wake: {
          id: "wk1",
          companyId: "co1",
          agentId: "ceo",
          status: "running",
          runId: null,
          attempts: 0,
          workerId: "w1",
          leaseUntil: "2030-01-01T00:00:30.000Z",
          error: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          owner: null,
        },
      });
      await store().insertRun(run("r1"));
      expect(await store().setWakeRun("wk1", "w2", "r1")).toBe(false);
      expect(await store().setWakeRun("wk1", "w1", "r1")).toBe(true);
      expect(await store().renewWake("wk1", "w2", "2030-01-01T00:01:00.000Z")).toBe(false);
      expect(await store().renewWake("wk1", "w1", "2030-01-01T00:01:00.000Z")).toBe(true);
      expect(await store().getWake("wk1")).toMatchObject({
        runId: "r1",
        attempts: 1,
        leaseUntil: "2030-01-01T00:01:00.000Z",
      });

      expect(await store().releaseWake("wk1", "w2", { status: "done", error: null })).toBe(false);
      expect(await store().releaseWake("wk1", "w1", { status: "done", error: null })).toBe(true);
      expect(await store().getWake("wk1")).toMatchObject({
        status: "done",
        workerId: null,
        leaseUntil: null,
        runId: "r1",
      });
      // Once released, the former holder writes nothing more.
      expect(await store().renewWake("wk1", "w1", "2030-01-01T00:02:00.000Z")).toBe(false);
      expect(await store().releaseWake("wk1", "w1", { status: "failed", error: "late" })).toBe(false);
      expect(await store().getWake("missing")).toBeUndefined();
    });

    it("says why a wake cannot be claimed: finished, held, or its agent busy with another", async () => {
      await seed(store());
      await store().insertAgent(agent("cto"));
      await store().claimWake(claim("wk1"));
      expect(await store().claimWake(claim("wk1", { workerId: "w2" }))).toMatchObject({
        outcome: "held",
        wake: { id: "wk1", workerId: "w1" },
      });
      expect(await store().claimWake(claim("wk2", { workerId: "w2" }))).toMatchObject({
        outcome: "busy",
        wake: { id: "wk1" },
      });
      expect(await store().getWake("wk2")).toBeUndefined();
      // Another agent of the company is not held up.
      expect((await store().claimWake(claim("wk3", { agentId: "cto", workerId: "w2" }))).outcome).toBe(
        "claimed",
      );

      await store().releaseWake("wk1", "w1", { status: "failed", error: "no" });
      expect(await store().claimWake(claim("wk1", { workerId: "w2" }))).toMatchObject({
        outcome: "finished",
        wake: { status: "failed", error: "no" },
      });
      expect((await store().claimWake(claim("wk2", { workerId: "w2" }))).outcome).toBe("claimed");
    });

    it("hands a wake back for a retry: claimable again, attempts kept", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().claimWake(claim("wk1"));
      await store().setWakeRun("wk1", "w1", "r1");
      await store().releaseWake("wk1", "w1", { status: "retrying", error: "overloaded" });
      const again = await store().claimWake(claim("wk1", { workerId: "w2" }));
      expect(again).toMatchObject({
        outcome: "claimed",
        wake: { status: "running", workerId: "w2", attempts: 1, runId: "r1" },
      });
      await store().setWakeRun("wk1", "w2", "r2");
      expect(await store().getWake("wk1")).toMatchObject({ attempts: 2, runId: "r2" });
    });

    it("lets exactly one recoverer expire a wake whose lease ran out, and then its holder is out", async () => {
      await seed(store());
      await store().insertAgent(agent("cto"));
      await store().claimWake(claim("old", { leaseUntil: "2025-01-01T00:00:00.000Z" }));
      await store().claimWake(claim("live", { agentId: "cto", leaseUntil: "2025-01-01T00:10:00.000Z" }));
      const now = "2025-01-01T00:05:00.000Z";
      expect((await store().listExpiredWakes(now)).map((w) => w.id)).toEqual(["old"]);
      expect(await store().expireWake("live", now, "lost")).toBe(false);

      await store().insertRun(run("r1"));
      await store().setWakeRun("old", "w1", "r1");
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store().expireWake("old", now, "worker lost")),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store().getWake("old")).toMatchObject({
        status: "failed",
        error: "worker lost",
        workerId: null,
      });
      expect(await store().renewWake("old", "w1", "2030-01-01T00:00:00.000Z")).toBe(false);
      expect(await store().listExpiredWakes(now)).toEqual([]);
      // The agent is free again.
      expect((await store().claimWake(claim("next"))).outcome).toBe("claimed");
    });

    it("hands an expired wake that had started no run back for a retry", async () => {
      await seed(store());
      await store().claimWake(claim("wk", { leaseUntil: "2025-01-01T00:00:00.000Z" }));
      expect(await store().expireWake("wk", "2025-01-01T00:05:00.000Z", "worker lost before its run")).toBe(
        true,
      );
      expect(await store().getWake("wk")).toMatchObject({
        status: "retrying",
        runId: null,
        attempts: 0,
        workerId: null,
        error: "worker lost before its run",
      });
      expect(await store().claimWake(claim("wk", { workerId: "w2" }))).toMatchObject({
        outcome: "claimed",
        wake: { workerId: "w2" },
      });
    });

    it("records the process holding a wake while it runs, and forgets it once released", async () => {
      await seed(store());
      const owner = { host: "box-1", pid: 4242, started: "boot:123" };
      expect(await store().claimWake(claim("wk1", { owner }))).toMatchObject({ wake: { owner } });
      expect((await store().listRunningWakes()).map((w) => [w.id, w.owner])).toEqual([["wk1", owner]]);
      await store().releaseWake("wk1", "w1", { status: "done", error: null });
      expect(await store().getWake("wk1")).toMatchObject({ status: "done", owner: null });
      expect(await store().listRunningWakes()).toEqual([]);
    });

    it("lets exactly one recoverer take over a wake whose holder is gone, before its lease runs out", async () => {
      await seed(store());
      await store().claimWake(claim("wk", { owner: { host: "h", pid: 1, started: "s" } }));
      await store().insertRun(run("r1"));
      await store().setWakeRun("wk", "w1", "r1");
      expect(await store().takeOverWake("wk", "someone-else", "gone")).toBe(false);
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store().takeOverWake("wk", "w1", "process gone")),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store().getWake("wk")).toMatchObject({
        status: "failed",
        error: "process gone",
        workerId: null,
        owner: null,
        runId: "r1",
      });
      expect(await store().renewWake("wk", "w1", "2030-01-01T00:02:00.000Z")).toBe(false);
      // One that had started no run goes back for a retry, as an expired one does.
      await store().claimWake(claim("wk2"));
      expect(await store().takeOverWake("wk2", "w1", "gone")).toBe(true);
      expect(await store().getWake("wk2")).toMatchObject({ status: "retrying" });
    });

    it("gives one agent to exactly one of many concurrent claims", async () => {
      await seed(store());
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store().claimWake(claim(`wk${i}`, { workerId: `w${i}` }))),
      );
      const claimed = results.filter((r) => r.outcome === "claimed");
      expect(claimed).toHaveLength(1);
      for (const r of results)
        if (r.outcome !== "claimed")
          expect(r).toMatchObject({ outcome: "busy", wake: { id: claimed[0]!.wake.id } });
    });
  });
}
