// Every behaviour dimension a candidate sample is checked on, against what the baseline's samples
// did in the same scenario. All are always on: a candidate that stops filing its strategy, ends in
// another mode or never calls a tool the baseline calls fails here whatever the options say;
// `--trajectory` only chooses how the tool-call sequence is matched.
import type { SampleCheck } from "../report/schema.js";
import type { Scenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";
import { actionSequence, refusalsOf } from "./actions.js";
import { bestJaccard, functionsOf, median, medianBand, precisionAgainst } from "./measures.js";
import { hireProblems } from "./params.js";
import type { CompareSettings } from "./settings.js";
import { matchesAny } from "./trajectory.js";

export type Dimension = SampleCheck["name"];

/** What each dimension is called in reports (the check names are the JSON's). */
export const DIMENSION_LABELS: Readonly<Record<Dimension, string>> = {
  terminal: "terminal status",
  hireCount: "hire count",
  functions: "roles by department",
  params: "parameter validity",
  approvals: "approvals filed",
  endMode: "end mode",
  toolCalls: "tool calls",
  refused: "refused calls and retries",
  modelCalls: "model calls",
};

function modal(values: string[], fallback: string): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? fallback;
}

function countBy(values: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/** In more than half of the samples: what "the baseline does" means when its samples disagree. */
const most = (count: number, of: number) => of > 0 && count * 2 > of;

/** What the baseline did in one scenario, computed once for all candidate samples. */
export interface Reference {
  samples: number;
  terminal: string;
  endMode: string;
  modes: Map<string, number>;
  hireBand: [number, number];
  functions: Array<Set<string>>;
  /** Approval type → samples that filed it, and the band of how many per sample. */
  approvals: Map<string, { samples: number; band: [number, number] }>;
  sequences: string[][];
  /** Actions → how many baseline samples called them. */
  actions: Map<string, number>;
  refusedBand: [number, number];
  retriesBand: [number, number];
  modelCallBand: [number, number];
  modelCallMedian: number;
  idleBand: [number, number];
  idleMedian: number;
}

export function referenceOf(baseline: readonly Trace[], settings: CompareSettings): Reference {
  const tol = settings.hireTolerance;
  const approvals = new Map<string, { samples: number; band: [number, number] }>();
  const types = new Set(baseline.flatMap((t) => t.approvalsFiled.map((a) => a.type)));
  for (const type of types) {
    const counts = baseline.map((t) => t.approvalsFiled.filter((a) => a.type === type).length);
    approvals.set(type, { samples: counts.filter((n) => n > 0).length, band: medianBand(counts, tol) });
  }
  const sequences = baseline.map((t) => actionSequence(t));
  const refusals = baseline.map((t) => refusalsOf(t));
  const band = (values: number[]): [number, number] => {
    const m = median(values);
    const slack = Math.max(2, Math.ceil(settings.modelCallTolerance * m));
    return [Math.max(0, Math.floor(m - slack)), Math.ceil(m + slack)];
  };
  const calls = baseline.map((t) => t.usage.modelCalls);
  const idle = baseline.map(idleTurns);
  return {
    samples: baseline.length,
    terminal: modal(
      baseline.map((t) => t.terminal),
      "done",
    ),
    endMode: modal(
      baseline.map((t) => t.modeAfter),
      "",
    ),
    modes: countBy(baseline.map((t) => t.modeAfter)),
    hireBand: medianBand(
      baseline.map((t) => t.hires.length),
      tol,
    ),
    functions: baseline.map((t) => functionsOf(t.hires)),
    approvals,
    sequences,
    actions: countBy(sequences.flatMap((s) => [...new Set(s)])),
    refusedBand: medianBand(
      refusals.map((r) => r.refused),
      tol,
    ),
    retriesBand: medianBand(
      refusals.map((r) => r.retries),
      tol,
    ),
    modelCallBand: band(calls),
    modelCallMedian: median(calls),
    idleBand: band(idle),
    idleMedian: median(idle),
  };
}

/** Actions the baseline calls in most of its samples: a candidate sample must call each of them. */
export function requiredActions(ref: Reference): string[] {
  return [...ref.actions].filter(([, n]) => most(n, ref.samples)).map(([a]) => a);
}

const within = (n: number, [lo, hi]: [number, number]) => n >= lo && n <= hi;
const list = (xs: readonly string[]) => `[${xs.join(", ")}]`;

function approvalsCheck(t: Trace, ref: Reference): SampleCheck {
  const filed = countBy(t.approvalsFiled.map((a) => a.type));
  const problems: string[] = [];
  for (const [type, { samples, band }] of ref.approvals) {
    const n = filed.get(type) ?? 0;
    if (n === 0 && most(samples, ref.samples))
      problems.push(`never filed ${type} (the baseline filed it in ${samples}/${ref.samples} samples)`);
    else if (!within(n, band)) problems.push(`filed ${n} ${type} (baseline band ${band[0]}–${band[1]})`);
  }
  for (const [type, n] of filed)
    if (!ref.approvals.has(type)) problems.push(`filed ${n} ${type}, which the baseline never files here`);
  const shown =
    [...filed]
      .map(([type, n]) => `${n} ${type}`)
      .sort()
      .join(", ") || "none";
  return {
    name: "approvals",
    pass: problems.length === 0,
    detail: problems.length === 0 ? `filed ${shown}, as the baseline does` : problems.join("; "),
  };
}

function endModeCheck(t: Trace, ref: Reference): SampleCheck {
  const seen = [...ref.modes]
    .map(([mode, n]) => `${mode} ${n}/${ref.samples}`)
    .sort()
    .join(", ");
  return {
    name: "endMode",
    pass: t.modeAfter === ref.endMode,
    detail: `ends in ${t.modeAfter} (baseline ends in ${ref.endMode}: ${seen || "no sample"})`,
  };
}

function toolCallsCheck(t: Trace, ref: Reference, settings: CompareSettings): SampleCheck {
  const seq = actionSequence(t);
  const mode = settings.trajectory;
  const ok = matchesAny(seq, ref.sequences, mode);
  // What the closest baseline sample calls that this one does not, to name it when nothing matches.
  const called = new Set(seq);
  const missing = ok
    ? []
    : [...new Set(ref.sequences.flat())].filter(
        (a) => !called.has(a) && ref.sequences.every((s) => s.includes(a)),
      );
  return {
    name: "toolCalls",
    pass: ok,
    detail: `${mode}: ${list(seq)} ${ok ? "matches a" : "matches no"} baseline sample (e.g. ${list(ref.sequences[0] ?? [])})${missing.length > 0 ? `; never calls ${missing.join(", ")}, which every baseline sample calls` : ""}`,
  };
}

// Fewer refused calls or model calls than the baseline is no regression (what the sample then left
// undone, the other dimensions see); more than the baseline's band is one.
function refusedCheck(t: Trace, ref: Reference): SampleCheck {
  const r = refusalsOf(t);
  const ok = r.refused <= ref.refusedBand[1] && r.retries <= ref.retriesBand[1];
  return {
    name: "refused",
    pass: ok,
    detail: `${r.refused} refused call(s), ${r.retries} retried (baseline at most ${ref.refusedBand[1]} and ${ref.retriesBand[1]})`,
  };
}

/** Model turns that issued no tool call (at most): thinking, looping, talking instead of acting. */
const idleTurns = (t: Trace) => Math.max(0, t.usage.modelCalls - t.toolCalls.length);

/**
 * More model calls than the baseline's band fail, unless the sample's own extra tool calls explain
 * them (the tool-call dimension judges those): what fails is turns spent without acting.
 */
function modelCallsCheck(t: Trace, ref: Reference): SampleCheck {
  const n = t.usage.modelCalls;
  const idle = idleTurns(t);
  const pass = n <= ref.modelCallBand[1] || idle <= ref.idleBand[1];
  return {
    name: "modelCalls",
    pass,
    detail: `${n} model call(s), ${idle} without a tool call (baseline at most ${ref.modelCallBand[1]} and ${ref.idleBand[1]}: medians ${ref.modelCallMedian} and ${ref.idleMedian} and their tolerance)`,
  };
}

/** One candidate sample checked on every dimension; `problems` are its hires' parameter problems. */
export function sampleChecks(
  t: Trace,
  ref: Reference,
  scenario: Scenario,
  settings: CompareSettings,
): { checks: SampleCheck[]; problems: string[]; validHires: number; jaccard: number; precision: number } {
  const count = t.hires.length;
  const functions = functionsOf(t.hires);
  const j = bestJaccard(functions, ref.functions);
  const precision = precisionAgainst(functions, ref.functions);
  const perHire = t.hires.map((h) => hireProblems(h, scenario, t.ceoRoute).map((p) => `${h.name}: ${p}`));
  const problems = perHire.flat();
  const band = ref.hireBand;
  const checks: SampleCheck[] = [
    {
      name: "terminal",
      pass: t.terminal === ref.terminal,
      detail: `${t.terminal} (baseline: ${ref.terminal})`,
    },
    {
      name: "hireCount",
      pass: within(count, band),
      detail: `${count} hire(s) (baseline band ${band[0]}–${band[1]})`,
    },
    {
      name: "functions",
      // A team of another size built from the baseline's functions is a count question, not a role one.
      pass: precision === 1 || j >= settings.functionJaccard,
      detail: `[${[...functions].join(", ")}]: ${(precision * 100).toFixed(0)}% of them hired by the baseline here, best Jaccard ${j.toFixed(2)} with a baseline team (needs 100% or ≥ ${settings.functionJaccard})`,
    },
    {
      name: "params",
      pass: problems.length === 0,
      detail: problems.length === 0 ? `${count}/${count} hires valid` : problems.join("; "),
    },
    approvalsCheck(t, ref),
    endModeCheck(t, ref),
    toolCallsCheck(t, ref, settings),
    refusedCheck(t, ref),
    modelCallsCheck(t, ref),
  ];
  return {
    checks,
    problems,
    validHires: perHire.filter((p) => p.length === 0).length,
    jaccard: j,
    precision,
  };
}
