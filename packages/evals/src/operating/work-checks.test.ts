// Each check of the work's evidence holds on a trace that keeps its rule and fails on one that
// breaks it: a lead that handed in no file it wrote, a task accepted without a new hand-in after
// changes were asked for, a request for changes past the bound, a write outside the workspace that
// landed or was never answered, a member closing its own task, a CEO offered a file tool.
import type { AgentEvent, HarnessToolsReport } from "@cadre/core";
import type { DomainEvent } from "@cadre/model";
import type { ActivityRow, AgentRow, RunRow, TaskFileRow, TaskRow, WakeRequestRow } from "@cadre/store";
import { describe, expect, it } from "vitest";
import type { OperatingTrace } from "./checks.js";
import { type FileWrite, fileWritesOf } from "./file-writes.js";
import { runWorkCheck, type WorkCheckId } from "./work-checks.js";

const WS = "/data/agents/cto/workspace";
const agents = [
  { id: "ceo", isCeo: true, name: "CEO", status: "active" },
  { id: "cto", isCeo: false, name: "CTO", status: "active" },
] as AgentRow[];
const task = (over: Partial<TaskRow> = {}) =>
  ({
    id: "t",
    status: "done",
    assigneeAgentId: "cto",
    creatorAgentId: "ceo",
    blockers: [],
    ...over,
  }) as TaskRow;
const run = (id: string, agentId: string) => ({ id, agentId }) as RunRow;

let seq = 0;
function act(agentId: string | null, event: DomainEvent): ActivityRow {
  return { id: ++seq, companyId: "c", agentId, runId: null, at: "", ...event } as ActivityRow;
}
const change = { taskId: "t", via: "tool" as const };
const handIn = (files?: string[]) =>
  act("cto", {
    type: "task.updated",
    data: {
      ...change,
      by: "cto",
      from: "in_progress",
      status: "in_review",
      deliverable: true,
      ...(files ? { files } : {}),
    },
  });
const review = (by: string | null, decision: "accept" | "request_changes", round?: number) =>
  act(by, {
    type: "task.reviewed",
    data: {
      ...change,
      by: by ?? "operator",
      decision,
      from: "in_review",
      status: decision === "accept" ? "done" : "in_progress",
      ...(round !== undefined ? { round } : {}),
    },
  });
const wakeOnChanges = { taskId: "t", agentId: "cto", trigger: "task_changes_requested" } as WakeRequestRow;
const kept = (runId: string) => ({ taskId: "t", name: "report.md", addedBy: "cto", runId }) as TaskFileRow;
const write = (over: Partial<FileWrite> = {}): FileWrite => ({
  runId: "r1",
  agentId: "cto",
  tool: "write",
  paths: ["report.md"],
  answered: true,
  refused: false,
  ...over,
});
const offered = (tools: string[], problem?: string) =>
  ({
    harness: "pi",
    tools,
    mcpServers: [],
    expected: tools,
    source: "test",
    ...(problem ? { problem } : {}),
  }) as HarnessToolsReport;

function trace(over: Partial<OperatingTrace>): OperatingTrace {
  return {
    agents,
    ceoId: "ceo",
    strategyId: null,
    runs: [run("r0", "ceo"), run("r1", "cto")],
    requests: [],
    tasks: [task()],
    activity: [],
    modelCalls: 0,
    seeded: new Map(),
    schedules: 0,
    files: [],
    writes: [],
    offered: new Map(),
    workspaces: new Map([
      ["cto", WS],
      ["ceo", "/data/agents/ceo/workspace"],
    ]),
    reviewRounds: 1,
    acceptance: "review",
    waiting: [],
    ...over,
  };
}
const passes = (id: WorkCheckId, t: OperatingTrace) => runWorkCheck(id, t, null).pass;

describe("the checks of the work's evidence", () => {
  it("a lead's hand-in counts only with a file it wrote in its workspace in that run and attached", () => {
    const good = trace({ activity: [handIn(["report.md"])], files: [kept("r1")], writes: [write()] });
    expect(passes("deliverable-files-attached", good)).toBe(true);
    expect(runWorkCheck("deliverable-files-attached", good, "the offline model is scripted")).toMatchObject({
      kind: "behaviour",
      measured: false,
    });
    expect(passes("deliverable-files-attached", { ...good, files: [] })).toBe(false);
    expect(passes("deliverable-files-attached", { ...good, writes: [] })).toBe(false);
    expect(passes("deliverable-files-attached", { ...good, writes: [write({ refused: true })] })).toBe(false);
    expect(passes("deliverable-files-attached", { ...good, writes: [write({ runId: "r9" })] })).toBe(false);
    // An absolute path names the same file when it is in the workspace; one elsewhere does not.
    expect(
      passes("deliverable-files-attached", { ...good, writes: [write({ paths: [`${WS}/report.md`] })] }),
    ).toBe(true);
    expect(
      passes("deliverable-files-attached", { ...good, writes: [write({ paths: ["/elsewhere/report.md"] })] }),
    ).toBe(false);
  });

  it("a request for changes returns the task, wakes its assignee, and nothing is accepted before a new hand-in", () => {
    const back = () => review("ceo", "request_changes", 1);
    const good = trace({
      requests: [wakeOnChanges],
      activity: [handIn(), back(), handIn(), review("ceo", "accept")],
    });
    expect(passes("changes-go-back", good)).toBe(true);
    expect(passes("revision-accepted", good)).toBe(true);
    // Accepted straight after the request for changes, with no hand-in between.
    const skipped = trace({
      requests: [wakeOnChanges],
      activity: [handIn(), back(), review("ceo", "accept")],
    });
    expect(passes("changes-go-back", skipped)).toBe(false);
    expect(passes("revision-accepted", skipped)).toBe(false);
    // The assignee was never woken with the changes.
    expect(passes("changes-go-back", { ...good, requests: [] })).toBe(false);
    // Sent "back" to done.
    const first = handIn();
    const toDone = { ...back(), data: { ...(back().data as object), status: "done" } } as ActivityRow;
    expect(passes("changes-go-back", { ...good, activity: [first, toDone] })).toBe(false);
    // Nothing was ever sent back: the scenario did not exercise the rule.
    expect(passes("changes-go-back", trace({ activity: [handIn(), review("ceo", "accept")] }))).toBe(false);
  });

  it("past the bound, a request for changes goes to the operator as a decision", () => {
    const escalated = () =>
      act("ceo", {
        type: "task.review_escalated",
        data: { taskId: "t", by: "ceo", rounds: 1, bound: 1 },
      });
    const waiting = {
      task: { id: "t" },
      reviewerAgentId: null,
      reviewer: "the operator",
      escalated: true,
      changeRounds: 1,
      bound: 1,
    } as OperatingTrace["waiting"][number];
    const good = trace({
      tasks: [task({ status: "in_review" })],
      activity: [handIn(), review("ceo", "request_changes", 1), handIn(), escalated()],
      waiting: [waiting],
    });
    expect(passes("review-bound-escalates", good)).toBe(true);
    // The bound not enforced: an agent's second round took effect.
    const past = trace({
      tasks: [task({ status: "in_progress" })],
      activity: [
        handIn(),
        review("ceo", "request_changes", 1),
        handIn(),
        review("ceo", "request_changes", 2),
      ],
    });
    expect(passes("review-bound-escalates", past)).toBe(false);
    // Escalated, but the agent decided it anyway.
    expect(
      passes("review-bound-escalates", {
        ...good,
        tasks: [task()],
        activity: [...good.activity, review("ceo", "accept")],
      }),
    ).toBe(false);
    // Escalated, but not in the operator's inbox.
    expect(passes("review-bound-escalates", { ...good, waiting: [] })).toBe(false);
    expect(
      passes("review-bound-escalates", { ...good, waiting: [{ ...waiting, reviewerAgentId: "ceo" }] }),
    ).toBe(false);
  });

  it("a write outside the workspace is refused and shown in the run; the CEO writes nothing", () => {
    const outside = write({ paths: ["../../other/workspace/x.md"], refused: true });
    const good = trace({ writes: [write(), outside] });
    expect(passes("writes-inside-workspace", good)).toBe(true);
    expect(
      passes("writes-inside-workspace", { ...good, writes: [write(), { ...outside, refused: false }] }),
    ).toBe(false);
    expect(
      passes("writes-inside-workspace", { ...good, writes: [write(), { ...outside, answered: false }] }),
    ).toBe(false);
    expect(
      passes("writes-inside-workspace", {
        ...good,
        writes: [write(), write({ agentId: "ceo", runId: "r0", paths: ["/tmp/x.md"] })],
      }),
    ).toBe(false);
    expect(
      passes("writes-inside-workspace", {
        ...good,
        writes: [write({ tool: "Write", paths: [`${WS}/../../ceo/workspace/y.md`] })],
      }),
    ).toBe(false);
  });

  it("no member closes its own task: it is accepted by its reviewer, unless the company accepts automatically", () => {
    const good = trace({ activity: [handIn(), review("ceo", "accept")] });
    expect(passes("no-self-acceptance", good)).toBe(true);
    const selfDone = act("cto", {
      type: "task.updated",
      data: { ...change, by: "cto", from: "in_progress", status: "done", deliverable: true },
    });
    expect(passes("no-self-acceptance", trace({ activity: [selfDone] }))).toBe(false);
    expect(passes("no-self-acceptance", trace({ activity: [selfDone], acceptance: "automatic" }))).toBe(true);
    expect(passes("no-self-acceptance", trace({ activity: [handIn(), review("cto", "accept")] }))).toBe(
      false,
    );
  });

  it("every run records what it was offered, as decided; the CEO is offered no file tool", () => {
    const good = trace({
      offered: new Map([
        ["r0", offered(["list_my_tasks", "create_task", "review_task"])],
        ["r1", offered(["list_my_tasks", "update_task", "read", "write", "edit", "ls"])],
      ]),
    });
    expect(passes("tools-by-role", good)).toBe(true);
    expect(
      passes("tools-by-role", {
        ...good,
        offered: new Map([...good.offered, ["r0", offered(["create_task", "write"])]]),
      }),
    ).toBe(false);
    expect(passes("tools-by-role", { ...good, offered: new Map([["r1", good.offered.get("r1")!]]) })).toBe(
      false,
    );
    expect(
      passes("tools-by-role", {
        ...good,
        offered: new Map([...good.offered, ["r1", offered(["update_task"], "write was not offered")]]),
      }),
    ).toBe(false);
  });

  it("reads each harness's file writes from the run's events: the paths, and whether they were refused", () => {
    const events: AgentEvent[] = [
      { type: "tool_use", id: "1", name: "write", input: { path: "a.md", content: "x" } },
      { type: "tool_result", toolUseId: "1", name: "write", content: [], isError: false },
      { type: "tool_use", id: "2", name: "Write", input: { file_path: "/w/b.md", content: "x" } },
      { type: "tool_result", toolUseId: "2", name: "Write", content: [], isError: true },
      {
        type: "tool_use",
        id: "3",
        name: "apply_patch",
        input: "*** Begin Patch\n*** Add File: /out/c.md\n+x\n*** End Patch\n",
      },
      {
        type: "tool_use",
        id: "4",
        name: "file_change",
        input: { changes: [{ path: "/w/d.md", kind: "add" }] },
      },
      { type: "tool_result", toolUseId: "4", name: "file_change", content: [], isError: false },
      { type: "tool_use", id: "5", name: "list_my_tasks", input: {} },
    ];
    expect(
      fileWritesOf({ id: "r", agentId: "a" }, events).map((w) => [w.tool, w.paths, w.answered, w.refused]),
    ).toEqual([
      ["write", ["a.md"], true, false],
      ["Write", ["/w/b.md"], true, true],
      ["apply_patch", ["/out/c.md"], false, false],
      ["file_change", ["/w/d.md"], true, false],
    ]);
  });
});
