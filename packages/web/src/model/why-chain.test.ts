import { describe, expect, it } from "vitest";
import { jsonLines, type RunWhy, whyLines } from "./why-chain.js";

const why: RunWhy = {
  runId: "run_3",
  runs: [
    {
      runId: "run_3",
      agentId: "agt_ceo",
      agentName: "CEO",
      trigger: "task_done",
      status: "done",
      startedAt: "2026-12-01T10:00:00.000Z",
      reasons: [
        {
          trigger: "task_done",
          cause: 'task "Build" is done',
          by: { type: "agent", name: "CTO" },
          taskId: "task_1",
          approvalId: null,
          requestId: "wrq_2",
          fromRunId: "run_2",
        },
      ],
    },
    {
      runId: "run_2",
      agentId: "agt_cto",
      agentName: "CTO",
      trigger: "task_assigned",
      status: "done",
      startedAt: "2026-12-01T09:00:00.000Z",
      reasons: [
        {
          trigger: "task_assigned",
          cause: "assigned",
          by: { type: "agent", name: "CEO" },
          taskId: "task_1",
          approvalId: null,
          requestId: "wrq_1",
          fromRunId: "run_1",
        },
      ],
    },
    {
      runId: "run_1",
      agentId: "agt_ceo",
      agentName: "CEO",
      trigger: "approval_decided",
      status: "done",
      startedAt: "2026-12-01T08:00:00.000Z",
      reasons: [
        {
          trigger: "approval_decided",
          cause: 'operator alice approved "Plan"',
          by: { type: "operator", name: "alice" },
          taskId: null,
          approvalId: "apr_1",
          requestId: "wrq_0",
          fromRunId: null,
        },
      ],
    },
  ],
};

describe("a run's why, as lines", () => {
  it("walks from the run back to the operator's decision, indenting each cause under what it caused", () => {
    const lines = whyLines(why);
    expect(lines.map((l) => [l.depth, l.runId])).toEqual([
      [0, "run_3"],
      [1, null],
      [2, "run_2"],
      [3, null],
      [4, "run_1"],
      [5, null],
    ]);
    expect(lines.at(-1)?.text).toBe('← operator alice approved "Plan" [approval apr_1] — by operator alice');
    expect(lines[1]?.text).toContain("by CTO, in run run_2");
  });

  it("shows a run reached twice only once", () => {
    const twice: RunWhy = {
      ...why,
      runs: why.runs.map((r) =>
        r.runId === "run_3" ? { ...r, reasons: [...r.reasons, { ...r.reasons[0]!, requestId: "wrq_9" }] } : r,
      ),
    };
    expect(whyLines(twice).filter((l) => l.runId === "run_2")).toHaveLength(1);
  });

  it("names the operator of `cadre serve`'s own token as the operator", () => {
    const served: RunWhy = {
      ...why,
      runs: why.runs.map((r) =>
        r.runId === "run_1"
          ? { ...r, reasons: [{ ...r.reasons[0]!, by: { type: "operator" as const, name: "operator" } }] }
          : r,
      ),
    };
    expect(whyLines(served).at(-1)?.text).toMatch(/— by the operator$/);
  });

  it("exports rows as JSON Lines", () => {
    expect(jsonLines([{ a: 1 }, { b: "x" }])).toBe('{"a":1}\n{"b":"x"}\n');
  });
});
