// `cadre sessions inspect`, rendered once for both adapters, from the report itself.
import { INTERRUPTED_REASON } from "@cadre/company";
import type { RunInspection } from "../port.js";

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

export function inspectionText(r: RunInspection): string {
  const out: string[] = [`run ${r.runId} — agent ${r.agentId}, ${r.status}`];
  if (r.ending === "interrupted")
    out.push(`  ended      interrupted: ${r.endingReason ?? INTERRUPTED_REASON}`);
  else if (r.ending === "cancelled")
    out.push(`  ended      cancelled${r.endingReason ? `: ${r.endingReason}` : ""}`);
  else if (r.ending === "running") out.push("  ended      not yet: the run is still running");
  if (!r.recorded && r.ending !== null) {
    out.push(
      `  context    no snapshot: the run ${r.ending === "running" ? "has not ended a turn yet" : `was ${r.ending} before its turn ended`}`,
    );
  } else if (!r.recorded) {
    out.push(
      "  context    no snapshot recorded: this run's harness records none (Pi sessions — offline, anthropic, openai, openai-compatible — do)",
    );
  } else {
    const window = r.contextWindow ?? 0;
    out.push(
      `  harness    ${r.harness}${r.remote ? " (remote)" : ""}, model ${r.model}, window ${window} tokens`,
    );
    out.push(`  occupancy  ${pct(r.occupancy ?? 0)} (${r.tokensInWindow} of ${window} tokens)`);
    out.push(
      `  threshold  ${pct(r.threshold ?? 0)} (${r.thresholdSource})${r.reserveTokens !== null ? `; Pi reserveTokens ${r.reserveTokens} (frozen at start), compacts at ${window - r.reserveTokens} tokens` : ""}`,
    );
    out.push(
      `  latch      needsRollover ${r.latch.needsRollover ? `SET: ${r.latch.reason ?? "reason not recorded"}` : "clear"} — ${r.latch.scope}`,
    );
    out.push(`  claims     ${r.openClaims.length === 0 ? "none open" : r.openClaims.join(", ")}`);
    const last = r.lastCompaction;
    out.push(
      `  compaction ${r.compactionCount.count} (${r.compactionCount.succeeded} ok)${last ? `; last: ${last.result} — ${last.reason}${last.tokensBefore !== undefined ? ` (${last.tokensBefore}${last.tokensAfter !== undefined ? ` → ${last.tokensAfter}` : ""} tokens)` : ""}` : ""}`,
    );
  }
  for (const c of r.compactions)
    out.push(
      `  ⟳ compaction (${c.reason}) ${c.ok ? "ok" : `failed: ${c.error ?? "no reason given"}`}${c.tokensBefore !== undefined ? `, ${c.tokensBefore}${c.tokensAfter !== undefined ? ` → ${c.tokensAfter}` : ""} tokens` : ""}`,
    );
  for (const x of r.recoveries)
    out.push(`  ${x.action === "replay" ? "↻ replay" : "✗ fail closed"}: ${x.reason}`);
  for (const c of r.compressions) {
    const sizes =
      c.bytes !== undefined
        ? ` (request ${c.bytes} of ${c.byteLimit ?? "?"} bytes${c.strippedImages !== undefined ? `; ${c.strippedImages} image(s) stripped, ${c.bytesFreed ?? "?"} bytes freed` : ""})`
        : "";
    out.push(`  ⇲ compression at ${c.trigger}: ${c.action} — ${c.reason}${sizes}`);
  }
  for (const x of r.rollovers)
    out.push(
      `  ⇢ rollover: ${x.reason} (handoff ${x.handoffBytes} bytes${x.tokensBefore !== undefined ? `, ${x.tokensBefore} → ${x.tokensAfter ?? "?"} tokens` : ""})`,
    );
  out.push(
    `  totals     replays ${r.replays}, rollovers ${r.rollovers.length}${r.terminal ? `; terminal ${r.terminal.status}${r.terminal.reason ? ` (${r.terminal.reason})` : ""}` : ""}`,
  );
  return out.map((l) => `${l}\n`).join("");
}
