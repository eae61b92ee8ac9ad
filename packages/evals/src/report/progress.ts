// One progress line per finished sample (scenario × sample), for stderr.
import type { Trace } from "../trace/types.js";

export function progressLine(p: { done: number; total: number; trace: Trace }): string {
  const t = p.trace;
  const width = String(p.total).length;
  const what =
    t.terminal === "done"
      ? `${t.hires.length} hire(s), ${t.approvalsFiled.length} filed`
      : `${t.terminal}: ${t.errors[0] ?? "no reason"}`;
  return `[${String(p.done).padStart(width)}/${p.total}] ${t.scenarioId} #${t.sample} ${t.modeBefore} → ${t.modeAfter}, ${what} (${t.latencyMs} ms)\n`;
}
