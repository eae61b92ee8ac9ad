// The report's run section: the sources compared (and whether --cross-source allowed a mismatch),
// the caps in force, the cost (or "unknown"), the samples a cap ended or the cost limit skipped,
// and what the rate gateway saw. Computed from the candidate's result and traces, never stored in them.
import type { SuiteResult } from "../runner/run-suite.js";
import { usdText } from "./progress.js";
import type { RunSection } from "./schema.js";

export function runSection(
  candidate: SuiteResult,
  sources: { baseline: string; candidate: string; crossSource: boolean },
): RunSection {
  const traces = [...candidate.traces.values()].flat();
  const capped: Record<string, number> = {};
  for (const t of traces) if (t.cap) capped[t.cap.kind] = (capped[t.cap.kind] ?? 0) + 1;
  const priced = traces.filter((t) => t.cost !== undefined);
  const unpriced = priced.filter((t) => t.cost?.usd === null).length;
  const cost = candidate.cost ?? {
    limitUsd: null,
    usd: priced.length === 0 || unpriced > 0 ? null : priced.reduce((s, t) => s + (t.cost?.usd ?? 0), 0),
    unpricedSamples: unpriced,
    trusted: true,
  };
  const skipped = candidate.skipped ?? [];
  const warnings: string[] = [];
  if (sources.crossSource)
    warnings.push(
      `cross-source: the baseline was recorded on ${sources.baseline}, the candidate ran on ${sources.candidate}; differences may be the model's, not the change's`,
    );
  if (cost.usd === null)
    warnings.push(
      `cost unknown: ${cost.unpricedSamples} sample(s) used a model with no known price${cost.limitUsd !== null ? `; the --max-cost-usd of $${cost.limitUsd} cannot be trusted` : ""}`,
    );
  if (skipped.length > 0) warnings.push(`${skipped.length} sample(s) skipped: ${skipped[0]?.reason ?? ""}`);
  const gave = candidate.rateLimit?.gaveUp ?? 0;
  if (gave > 0) warnings.push(`${gave} model request(s) still rate-limited after the gateway's retries`);
  return {
    baselineSource: sources.baseline,
    candidateSource: sources.candidate,
    crossSource: sources.crossSource,
    caps: candidate.caps ?? null,
    cost: {
      usd: cost.usd,
      limitUsd: cost.limitUsd,
      trusted: cost.trusted,
      unpricedSamples: cost.unpricedSamples,
    },
    capped,
    skipped: { count: skipped.length, reason: skipped[0]?.reason ?? null },
    rateLimit: candidate.rateLimit ?? null,
    warnings,
  };
}

/** The run section as terminal / markdown lines. */
export function runSectionLines(run: RunSection): string[] {
  const caps = run.caps;
  const capped = Object.entries(run.capped)
    .map(([k, n]) => `${n} by ${k}`)
    .join(", ");
  const rl = run.rateLimit;
  return [
    `sources    baseline ${run.baselineSource} · candidate ${run.candidateSource}${run.crossSource ? " (CROSS-SOURCE: --cross-source)" : " (same source)"}`,
    caps
      ? `caps       per sample: ${caps.modelCalls} model calls, ${caps.toolCalls} tool calls, ${caps.tokens} tokens, $${caps.costUsd}, ${Math.round(caps.wallTimeMs / 1000)} s${capped ? ` · samples capped: ${capped}` : " · no sample capped"}`
      : "caps       not recorded",
    `cost       ${usdText(run.cost.usd)}${run.cost.limitUsd !== null ? ` of --max-cost-usd $${run.cost.limitUsd}${run.cost.trusted ? "" : " (NOT TRUSTED: unknown prices)"}` : ""}${run.skipped.count > 0 ? ` · ${run.skipped.count} sample(s) skipped: ${run.skipped.reason}` : ""}`,
    ...(rl
      ? [
          `rate       ${rl.requests} model server request(s), ${rl.rateLimited} answered 429, ${rl.retries} retried by the gateway${rl.gaveUp ? `, ${rl.gaveUp} given up` : ""}; concurrency ${rl.initialLimit} → lowest ${rl.lowestLimit}`,
        ]
      : []),
    ...run.warnings.map((w) => `warning    ${w}`),
  ];
}
