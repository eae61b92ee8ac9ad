// Where a run's evidence comes from: the CEO's connector and model. A live candidate is compared
// only with a baseline from the same source: a different model behaves differently,
// and that difference is not the prompt change's. --cross-source compares anyway, and says so.
import { UserInputError } from "@cadre/core";
import type { Trace } from "../trace/types.js";

export interface RunSource {
  connector: string;
  model: string | null;
}

/** The model of a run's CEO, from its traces (`ceoRoute` is "connector/model"). */
export function modelOfTraces(traces: Iterable<Trace[]>): string | null {
  for (const list of traces)
    for (const t of list) {
      const slash = t.ceoRoute.indexOf("/");
      if (slash >= 0) return t.ceoRoute.slice(slash + 1);
    }
  return null;
}

export function sourceText(s: RunSource): string {
  return `${s.connector} (model ${s.model ?? "unknown"})`;
}

export function sameSource(a: RunSource, b: RunSource): boolean {
  return a.connector === b.connector && (a.model === null || b.model === null || a.model === b.model);
}

/** Refuses a comparison across sources unless `crossSource`; returns whether it is one. */
export function checkSources(baseline: RunSource, candidate: RunSource, crossSource: boolean): boolean {
  if (sameSource(baseline, candidate)) return false;
  if (crossSource) return true;
  throw new UserInputError(
    `the baseline was recorded on ${sourceText(baseline)} but the candidate runs on ${sourceText(candidate)}: ` +
      "a candidate is compared only with a baseline from the same connector and model. Record a baseline on " +
      `this source (cadre eval record --connector … --model …), or pass --cross-source to compare anyway (the report then says so).`,
  );
}
