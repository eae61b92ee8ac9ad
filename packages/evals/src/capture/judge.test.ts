// Judging a captured scenario: real traces (one offline run), against captured behaviours built
// from them and altered the way a bad run differs. Each fault type is judged on its own dimension;
// a failure counts on any source, a pass only where behaviour is measured.
import { beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import type { Trace } from "../trace/types.js";
import { judgeCaptured } from "./judge.js";
import type { Captured, CapturedBehaviour, FaultLabel } from "./schema.js";

let traces: Trace[];
beforeAll(async () => {
  const run = await runProfile({
    profile: "semantic",
    samples: 2,
    seed: 5,
    only: ["empty-single-connector"],
    concurrency: 2,
  });
  traces = run.traces.get("empty-single-connector")!;
});

const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x));
const ids = (args: unknown) => {
  const a = (args ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    ["connectorId", "model", "department", "type"]
      .filter((k) => typeof a[k] === "string")
      .map((k) => [k, a[k] as string]),
  );
};
/** What a capture of this trace would hold. */
const behaviourOf = (t: Trace): CapturedBehaviour => ({
  toolCalls: t.toolCalls.map((c) => ({ name: c.name, ok: c.ok, args: ids(c.args) })),
  hires: t.hires.map((h) => ({
    role: h.role,
    department: h.department,
    connectorId: h.connectorId,
    model: h.model,
  })),
  approvalsFiled: t.approvalsFiled.map((a) => ({ type: a.type })),
  modeAfter: t.modeAfter as CapturedBehaviour["modeAfter"],
  terminal: t.terminal,
});
const captured = (behaviour: CapturedBehaviour, label?: FaultLabel): Captured => ({
  run: {
    id: "run_x",
    companyId: "cmp_x",
    startedAt: "2026-01-01T00:00:00.000Z",
    endedAt: null,
    connectorKind: "offline",
    model: "m",
  },
  capturedAt: "2026-01-01T00:00:00.000Z",
  ...(label ? { label } : {}),
  expect: label ? "avoid" : "hold",
  behaviour,
});
const judge = (b: CapturedBehaviour, label: FaultLabel | undefined, ts: Trace[], measured = true) =>
  judgeCaptured("s", captured(b, label), ts, measured);
const noHires = (ts: Trace[]) =>
  copy(ts).map((t) => ({
    ...t,
    hires: [],
    approvalsFiled: [],
    toolCalls: [],
    modeAfter: "team-building",
    trajectory: [],
  }));

describe("judging a captured scenario", () => {
  it("the run's own traces hold their behaviour; a pass counts only when measured", () => {
    const held = judge(behaviourOf(traces[0]!), undefined, traces);
    expect(held).toMatchObject({ result: "pass", expect: "hold", label: null });
    expect(judge(behaviourOf(traces[0]!), undefined, traces, false)).toMatchObject({
      result: "not measured",
      measured: false,
    });
    // Departing from it fails, with the dimension named, measured or not.
    const departed = judge(behaviourOf(traces[0]!), undefined, noHires(traces), false);
    expect(departed.result).toBe("fail");
    expect(departed.evidence).toMatch(/ends in team-building, the capture in awaiting-approval/);
    expect(departed.evidence).toMatch(/files nothing, the capture approve_ceo_strategy/);
    expect(departed.evidence).toMatch(/never calls hire_agent, file_approval/);
  });

  it("unintended-action: doing the same kinds of action again fails; not doing them does not", () => {
    const bad = behaviourOf(traces[0]!);
    expect(judge(bad, "unintended-action", traces, false)).toMatchObject({ result: "fail" });
    expect(judge(bad, "unintended-action", noHires(traces))).toMatchObject({ result: "pass" });
    // Filing alone is not hiring: a capture that only hired is not repeated by a sample that only files.
    const filesOnly = copy(traces).map((t) => ({ ...t, hires: [] }));
    expect(judge({ ...bad, approvalsFiled: [] }, "unintended-action", filesOnly).result).toBe("pass");
  });

  it("missed-step: still not doing the missing step (and ending where the capture ended) fails", () => {
    const missed = {
      ...behaviourOf(traces[0]!),
      approvalsFiled: [],
      modeAfter: "strategy-drafting" as const,
    };
    expect(judge(missed, "missed-step", traces).result).toBe("pass"); // the candidate files
    const stillMissing = copy(traces).map((t) => ({
      ...t,
      approvalsFiled: [],
      modeAfter: "strategy-drafting",
    }));
    const r = judge(missed, "missed-step", stillMissing);
    expect(r.result).toBe("fail");
    expect(r.evidence).toMatch(/repeats the captured missed-step: actions hire, ends in strategy-drafting/);
  });

  it("wrong-argument: the refused call's identifying arguments again fail; other arguments do not", () => {
    const b = behaviourOf(traces[0]!);
    b.toolCalls.unshift({
      name: "hire_agent",
      ok: false,
      args: { connectorId: "anthropic", model: "claude-x", department: "sales" },
    });
    expect(judge(b, "wrong-argument", traces).result).toBe("pass");
    const again = copy(traces);
    again[1]!.toolCalls.push({
      name: "hire_agent",
      ok: false,
      result: "refused",
      args: { name: "Other wording", connectorId: "anthropic", model: "claude-x", department: "sales" },
    });
    const r = judge(b, "wrong-argument", again);
    expect(r.result).toBe("fail");
    expect(r.samples.map((s) => s.failed)).toEqual([false, true]);
    expect(r.evidence).toMatch(/hire_agent\(connectorId=anthropic, model=claude-x, department=sales\)/);
  });

  it("wrong-tool: calling the refused tool again fails", () => {
    const b = behaviourOf(traces[0]!);
    b.toolCalls = [{ name: "create_task", ok: false, args: {} }];
    expect(judge(b, "wrong-tool", traces).result).toBe("pass");
    const again = copy(traces);
    again[0]!.toolCalls.push({ name: "create_task", ok: false, result: "refused", args: {} });
    expect(judge(b, "wrong-tool", again).result).toBe("fail");
  });

  it("other: the same tools, actions, end mode and terminal again fail; a change in any does not", () => {
    const b = behaviourOf(traces[0]!);
    expect(judge(b, "other", traces, false).result).toBe("fail");
    const failed = copy(traces).map((t) => ({ ...t, terminal: "failed" as const }));
    expect(judge(b, "other", failed).result).toBe("pass");
  });
});
