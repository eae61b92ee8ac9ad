// The operating-phase scenarios pass their checks on the offline connector, and the checks can
// fail: each is shown a trace that breaks its rule (the work's checks in work-checks.test.ts).
import type { DomainEvent } from "@cadre/model";
import { SAMPLE_DOMAIN_EVENTS } from "@cadre/model/testing";
import { describe, expect, it } from "vitest";
import { type OperatingTrace, runCheck } from "./checks.js";
import { runOperatingEval } from "./run.js";

const SCRIPTED = "the offline model is scripted";

describe("operating-phase evaluation", () => {
  it("delegation, deliverables and reviews, a blocked task, the review bound and an idle schedule: every rule holds; behaviour is reported as not measured", async () => {
    const report = await runOperatingEval();
    expect(report.scenarios.map((s) => s.id)).toEqual([
      "ceo-delegation",
      "deliverable-review",
      "idle-schedule",
      "member-blocked-task",
      "review-bound",
    ]);
    for (const s of report.scenarios)
      expect(
        s.checks.filter((c) => c.kind === "rule" && !c.pass),
        s.id,
      ).toEqual([]);
    expect(report.passed).toBe(true);
    const byId = Object.fromEntries(report.scenarios.map((s) => [s.id, s]));
    const lead = byId["ceo-delegation"]!.checks.find((c) => c.id === "leads-have-strategy-tasks")!;
    expect(lead).toMatchObject({ kind: "behaviour", pass: true, measured: false });
    expect(byId["ceo-delegation"]!.runs).toBe(6); // 4 leads' tasks + the CEO twice
    expect(byId["idle-schedule"]).toMatchObject({ runs: 0, modelCalls: 0 });
    expect(byId["idle-schedule"]!.checks[0]!.evidence).toMatch(
      /5 schedule\(s\), 30 tick\(s\) due, 5 skip record\(s\), 0 runs, 0 model calls/,
    );
    const blocked = byId["member-blocked-task"]!.checks.find((c) => c.id === "blocked-work-waits")!;
    expect(blocked.evidence).toMatch(
      /1 blocked task\(s\); 0 started before their blockers were done; 1 task_unblocked wake/,
    );
    // Each lead wrote its deliverable in its workspace and attached it (plumbing on this model).
    const check = (scenario: string, id: string) => byId[scenario]!.checks.find((c) => c.id === id)!;
    for (const scenario of ["ceo-delegation", "deliverable-review"])
      expect(check(scenario, "deliverable-files-attached")).toMatchObject({
        kind: "behaviour",
        pass: true,
        measured: false,
      });
    expect(check("ceo-delegation", "deliverable-files-attached").evidence).toMatch(/^4\/4 task\(s\)/);
    // The operator sent the CTO's survey back once; it came back and was accepted.
    expect(check("deliverable-review", "changes-go-back").evidence).toMatch(
      /^1 request\(s\) for changes; 1 returned/,
    );
    expect(check("deliverable-review", "revision-accepted")).toMatchObject({ pass: true, measured: false });
    expect(byId["deliverable-review"]!.runs).toBe(3); // the CTO twice, the CPO once
    // One round allowed: the CEO's second request for changes waits for the operator instead.
    expect(check("review-bound", "review-bound-escalates").evidence).toMatch(
      /bound 1; 1 request\(s\) for changes by agents, 0 past the bound; 1 escalated, 1 waiting in the operator's inbox/,
    );
    for (const id of ["writes-inside-workspace", "no-self-acceptance", "tools-by-role"])
      expect(check("review-bound", id), id).toMatchObject({ kind: "rule", pass: true, measured: true });
  });

  it("each rule check fails on a trace that breaks it", () => {
    const empty: OperatingTrace = {
      agents: [],
      ceoId: "ceo",
      strategyId: null,
      runs: [],
      requests: [],
      tasks: [],
      activity: [],
      modelCalls: 0,
      seeded: new Map(),
      schedules: 1,
      files: [],
      writes: [],
      offered: new Map(),
      workspaces: new Map(),
      reviewRounds: 3,
      acceptance: "review",
      waiting: [],
    };
    const request = {
      id: "w",
      companyId: "c",
      agentId: "a",
      trigger: "task_assigned" as const,
      taskId: "t",
      causedBy: "a",
      cause: "",
      status: "taken" as const,
      runId: "r",
      note: null,
      returns: 0,
      createdAt: "",
      updatedAt: "",
    };
    expect(runCheck("no-self-wake", { ...empty, requests: [request] }, SCRIPTED).pass).toBe(false);
    const act = (id: number, event: DomainEvent) => ({
      id,
      companyId: "c",
      agentId: null,
      runId: null,
      ...event,
      at: "",
    });
    const finishedFirst = {
      ...empty,
      requests: [{ ...request, causedBy: "x" }],
      activity: [
        act(1, {
          type: "task.updated",
          data: { ...SAMPLE_DOMAIN_EVENTS["task.updated"], taskId: "t", status: "done" },
        }),
        act(2, { type: "task.checked_out", data: { taskId: "t", runId: "r" } }),
      ],
    };
    expect(runCheck("no-wake-for-finished-work", finishedFirst, SCRIPTED).pass).toBe(false);
    const overlap = {
      ...empty,
      activity: [
        act(1, { type: "task.checked_out", data: { taskId: "t", runId: "r1" } }),
        act(2, { type: "task.checked_out", data: { taskId: "t", runId: "r2" } }),
      ],
    };
    expect(runCheck("one-run-per-task", overlap, SCRIPTED).pass).toBe(false);
    expect(runCheck("idle-schedule-zero-calls", { ...empty, modelCalls: 1 }, SCRIPTED).pass).toBe(false);
  });
});
