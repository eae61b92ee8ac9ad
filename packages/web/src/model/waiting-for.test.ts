import { describe, expect, it } from "vitest";
import type { Approval, Run, Task } from "../api/types.js";
import { waitingFor, type WaitingInput } from "./waiting-for.js";

const approval = (over: Partial<Approval>): Approval =>
  ({
    id: "apr_1",
    type: "approve_ceo_strategy",
    title: "Strategy v1",
    payload: "",
    status: "pending",
    createdAt: "2026-01-01T10:00:00.000Z",
    decidedAt: null,
    ...over,
  }) as Approval;
const run = (over: Partial<Run>): Run =>
  ({ id: "run_1", agentId: "ceo", status: "done", startedAt: "2026-01-01T09:00:00.000Z", ...over }) as Run;
const task = (status: Task["status"]): Task => ({ id: `t_${status}`, status }) as Task;

const input = (over: Partial<WaitingInput> & { mode: WaitingInput["company"]["ceoMode"] }): WaitingInput => ({
  company: { ceoMode: over.mode, ceoAgentId: "ceo" },
  approvals: over.approvals ?? [],
  runs: over.runs ?? [],
  tasks: over.tasks ?? [],
  agents: [],
  budgetState: over.budgetState,
});

describe("what the company is waiting for", () => {
  it("a revising CEO that filed nothing and is not at work is stuck, with a wake and a message offered", () => {
    const sentBack = approval({ status: "revision_requested", decidedAt: "2026-01-01T11:00:00.000Z" });
    const never = waitingFor(input({ mode: "revising", approvals: [sentBack], runs: [run({})] }));
    expect(never.stuck).toBe(true);
    expect(never.headline).toBe(
      "Stuck in revising: the CEO filed nothing since you sent back “Strategy v1”.",
    );
    expect(never.detail).toContain("has not run since");
    expect(never.offers).toEqual(["wake_ceo", "message_ceo"]);

    // It ran after the decision and still filed nothing: that run is named.
    const after = run({ id: "run_2", startedAt: "2026-01-01T12:00:00.000Z", status: "failed" });
    const ranDry = waitingFor(input({ mode: "revising", approvals: [sentBack], runs: [run({}), after] }));
    expect(ranDry).toMatchObject({ stuck: true, runId: "run_2" });
    expect(ranDry.detail).toContain("ended (failed) without filing");

    const rejected = approval({ status: "rejected", decidedAt: "2026-01-01T11:00:00.000Z" });
    expect(waitingFor(input({ mode: "revising", approvals: [rejected] })).headline).toContain("you rejected");
  });

  it("a revising CEO at work is not stuck", () => {
    const sentBack = approval({ status: "rejected", decidedAt: "2026-01-01T11:00:00.000Z" });
    const w = waitingFor(
      input({ mode: "revising", approvals: [sentBack], runs: [run({ id: "run_3", status: "running" })] }),
    );
    expect(w).toMatchObject({ stuck: false, runId: "run_3", offers: [], headline: "The CEO is at work." });
  });

  it("a pending approval waits for the operator's decision", () => {
    const w = waitingFor(input({ mode: "awaiting-approval", approvals: [approval({})] }));
    expect(w).toMatchObject({ headline: "Waiting for your decision on “Strategy v1”.", offers: ["decide"] });
  });

  it("an operating company with no open task and nothing running offers a task or a message", () => {
    const idle = waitingFor(input({ mode: "operating", tasks: [task("done"), task("cancelled")] }));
    expect(idle.headline).toBe("Nothing to do: no open task, nothing running.");
    expect(idle.offers).toEqual(["create_task", "message_ceo"]);
    const busy = waitingFor(
      input({
        mode: "operating",
        tasks: [task("in_review"), task("todo")],
        runs: [run({ agentId: "cto", status: "running" })],
      }),
    );
    expect(busy.headline).toBe("The team is at work: 1 run in progress.");
    expect(busy.detail).toBe("2 open tasks, 1 in review.");
  });

  it("team building waits for the operator's start", () => {
    expect(waitingFor(input({ mode: "team-building" })).offers).toEqual(["start_team_building"]);
  });

  it("an exhausted budget is what everything waits for, a pending decision apart", () => {
    const open = [task("todo"), task("in_progress")];
    const w = waitingFor(input({ mode: "operating", tasks: open, budgetState: "exhausted" }));
    expect(w.headline).toMatch(/^Waiting for budget: the company's budget is exhausted/);
    expect(w.offers).toEqual([]);
    expect(w.stuck).toBe(true);
    // A warning is no stop: the company still waits for its next wake.
    const warned = waitingFor(input({ mode: "operating", tasks: open, budgetState: "warning" }));
    expect(warned.headline).toMatch(/^Waiting for the next wake/);
    // A decision needs no budget: it is still asked for first.
    const pending = waitingFor(
      input({ mode: "awaiting-approval", approvals: [approval({})], budgetState: "exhausted" }),
    );
    expect(pending.offers).toEqual(["decide"]);
  });
});
