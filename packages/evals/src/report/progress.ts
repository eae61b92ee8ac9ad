// One progress line per finished sample (scenario × sample), for stderr.
import type { Trace } from "../trace/types.js";

/** A cost as a reader sees it: "unknown" when no price is known, never $0 for that. */
export function usdText(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "unknown";
  return `$${usd.toFixed(usd !== 0 && usd < 0.01 ? 6 : 4)}`;
}

export function progressLine(p: { done: number; total: number; trace: Trace }): string {
  const t = p.trace;
  const width = String(p.total).length;
  const what =
    t.terminal === "done"
      ? `${t.hires.length} hire(s), ${t.approvalsFiled.length} filed`
      : `${t.terminal}: ${t.cap?.message ?? t.errors[0] ?? "no reason"}`;
  const cost = t.cost ? `, ${t.usage.modelCalls} call(s), cost ${usdText(t.cost.usd)}` : "";
  return `[${String(p.done).padStart(width)}/${p.total}] ${t.scenarioId} #${t.sample} ${t.modeBefore} → ${t.modeAfter}, ${what}${cost} (${t.latencyMs} ms)\n`;
}
