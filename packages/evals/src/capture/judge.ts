// Judges a candidate's samples of a captured scenario against the captured behaviour. A labelled
// capture is behaviour to avoid: a sample that shows it again, on the dimension its fault type
// names, fails the scenario. An unlabelled capture is behaviour to hold: a sample that departs from
// it fails. A failure is an observation on any source; a pass counts only where behaviour is
// measured (a scripted or stand-in answer passing says nothing about a model).
import type { Trace } from "../trace/types.js";
import type { Captured, CapturedBehaviour, CapturedVerdict, FaultLabel } from "./schema.js";

/** The kinds of action a run took: hiring at all, filing each approval type (what the run did, not its wording). */
const actionKinds = (b: Pick<CapturedBehaviour, "hires" | "approvalsFiled">): string[] =>
  [
    ...new Set([...(b.hires.length > 0 ? ["hire"] : []), ...b.approvalsFiled.map((a) => `file:${a.type}`)]),
  ].sort();

const subset = (part: string[], whole: string[]) => part.every((x) => whole.includes(x));

/** Whether `seq` occurs in `inside` in order, other items allowed between (a subsequence). */
function inOrder<T>(seq: T[], inside: T[], same: (a: T, b: T) => boolean): boolean {
  let i = 0;
  for (const x of inside) if (i < seq.length && same(seq[i] as T, x)) i++;
  return i === seq.length;
}

const argsMatch = (want: Record<string, unknown>, got: unknown) =>
  Object.entries(want).every(([k, v]) => (got as Record<string, unknown> | null)?.[k] === v);

const list = (xs: string[]) => (xs.length === 0 ? "nothing" : xs.join(", "));

type Call = { name: string; args: unknown; ok: boolean };

/**
 * The calls a label is about: the captured run's refused calls when it had any (the code refused
 * them: that is the wrong tool or argument), otherwise every call it made.
 */
const faulty = (was: CapturedBehaviour): CapturedBehaviour["toolCalls"] => {
  const refused = was.toolCalls.filter((c) => !c.ok);
  return refused.length > 0 ? refused : was.toolCalls;
};

/** Whether the sample shows the captured behaviour again, on the label's dimension, and how. */
function repeats(label: FaultLabel, was: CapturedBehaviour, t: Trace): { yes: boolean; evidence: string } {
  const names = t.toolCalls.map((c) => c.name);
  const kinds = actionKinds(t);
  switch (label) {
    case "wrong-tool": {
      const seq = faulty(was).map((c) => c.name);
      const yes = seq.length > 0 && inOrder(seq, names, (a, b) => a === b);
      return { yes, evidence: `tool calls ${list(names)} (captured ${list(seq)})` };
    }
    case "wrong-argument": {
      const seq = faulty(was);
      const yes =
        seq.length > 0 &&
        inOrder<Call>(
          seq,
          t.toolCalls,
          (a, b) => a.name === b.name && argsMatch(a.args as Record<string, unknown>, b.args),
        );
      const shown = seq.map(
        (c) =>
          `${c.name}(${Object.entries(c.args)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(", ")})`,
      );
      return { yes, evidence: `${yes ? "calls" : "does not call"} ${list(shown)} again` };
    }
    case "unintended-action": {
      const was_ = actionKinds(was);
      return {
        yes: was_.length > 0 && subset(was_, kinds),
        evidence: `actions ${list(kinds)} (captured ${list(was_)})`,
      };
    }
    case "missed-step": {
      const yes = subset(kinds, actionKinds(was)) && t.modeAfter === was.modeAfter;
      return {
        yes,
        evidence: `actions ${list(kinds)}, ends in ${t.modeAfter} (captured ${list(actionKinds(was))}, ended in ${was.modeAfter})`,
      };
    }
    case "other": {
      const tools = [...new Set(names)].sort();
      const wasTools = [...new Set(was.toolCalls.map((c) => c.name))].sort();
      const yes =
        tools.join(",") === wasTools.join(",") &&
        kinds.join(",") === actionKinds(was).join(",") &&
        t.modeAfter === was.modeAfter &&
        t.terminal === was.terminal;
      return {
        yes,
        evidence: `tools ${list(tools)}, actions ${list(kinds)}, ends ${t.terminal} in ${t.modeAfter}`,
      };
    }
  }
}

/** How the sample departs from a behaviour to hold (empty: it holds). */
function departures(was: CapturedBehaviour, t: Trace): string[] {
  const out: string[] = [];
  if (t.terminal !== was.terminal) out.push(`ends ${t.terminal}, the capture ${was.terminal}`);
  if (t.modeAfter !== was.modeAfter) out.push(`ends in ${t.modeAfter}, the capture in ${was.modeAfter}`);
  const filed = t.approvalsFiled.map((a) => a.type).sort();
  const wasFiled = was.approvalsFiled.map((a) => a.type).sort();
  if (filed.join(",") !== wasFiled.join(",")) out.push(`files ${list(filed)}, the capture ${list(wasFiled)}`);
  if (Math.abs(t.hires.length - was.hires.length) > 1)
    out.push(`hires ${t.hires.length}, the capture ${was.hires.length} (±1)`);
  const called = new Set(t.toolCalls.map((c) => c.name));
  const missing = [...new Set(was.toolCalls.filter((c) => c.ok).map((c) => c.name))].filter(
    (n) => !called.has(n),
  );
  if (missing.length > 0) out.push(`never calls ${missing.join(", ")}`);
  return out;
}

export function judgeCaptured(
  id: string,
  captured: Captured,
  traces: Trace[],
  measured: boolean,
): CapturedVerdict {
  const label = captured.label ?? null;
  const samples = traces.map((t) => {
    if (label) {
      const r = repeats(label, captured.behaviour, t);
      return {
        sample: t.sample,
        failed: r.yes,
        evidence: `${r.yes ? "repeats" : "does not repeat"} the captured ${label}: ${r.evidence}`,
      };
    }
    const d = departures(captured.behaviour, t);
    return {
      sample: t.sample,
      failed: d.length > 0,
      evidence: d.length > 0 ? d.join("; ") : "holds the captured behaviour",
    };
  });
  const failed = samples.filter((s) => s.failed);
  const result =
    traces.length === 0 ? "not measured" : failed.length > 0 ? "fail" : measured ? "pass" : "not measured";
  const evidence =
    traces.length === 0
      ? "no sample ran"
      : failed.length > 0
        ? `${failed.length}/${samples.length} sample(s): ${failed[0]?.evidence}`
        : `${samples.length} sample(s): ${samples[0]?.evidence}${measured ? "" : " (behaviour not measured on these answers)"}`;
  return { id, label, expect: captured.expect, result, measured, samples, evidence };
}
