// `cadre sessions`, rendered once for both adapters, from the answers themselves: a run's context
// (inspect), an agent's kept session (show) and its reset; and the one line a wake prints about its
// native session.
import { INTERRUPTED_REASON, type WakeSession } from "@cadre/company";
import type { AgentSessionAnswer, SessionResetView } from "@cadre/server/views";
import type { RunInspection } from "../port.js";

/** One line for a wake's native session (wake and demo summaries). */
export function sessionLine(s: WakeSession): string {
  const what = s.resumed ? "resumed" : s.rolledOver ? "fresh from a handoff (rolled over)" : "new";
  return `${s.harness} ${s.id ?? "(none started)"} — ${what}`;
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

export function inspectionText(r: RunInspection): string {
  const out: string[] = [`run ${r.runId} — agent ${r.agentId}, ${r.status}`];
  if (r.ending === "interrupted")
    out.push(`  ended      interrupted: ${r.endingReason ?? INTERRUPTED_REASON}`);
  else if (r.ending === "cancelled")
    out.push(`  ended      cancelled${r.endingReason ? `: ${r.endingReason}` : ""}`);
  else if (r.ending === "running") out.push("  ended      not yet: the run is still running");
  const tools = r.harnessTools;
  if (tools) {
    out.push(
      `  tools      ${tools.harness} offered ${tools.tools.length === 0 ? "no tools" : tools.tools.join(", ")}${tools.problem ? ` — NOT the company's decision: ${tools.problem}` : " — as the company decided"}`,
    );
    for (const server of tools.mcpServers) out.push(`  mcp        ${server.name}: ${server.status}`);
    out.push(`             (read from ${tools.source})`);
  }
  if (!r.recorded && r.ending !== null) {
    out.push(
      `  context    no snapshot: the run ${r.ending === "running" ? "has not ended a turn yet" : `was ${r.ending} before its turn ended`}`,
    );
  } else if (!r.recorded) {
    out.push("  context    no snapshot recorded: the run ended before its harness reported one");
  } else {
    const window = r.contextWindow ?? 0;
    out.push(
      `  harness    ${r.harness}${r.remote ? " (remote)" : ""}, model ${r.model}, window ${window} tokens`,
    );
    out.push(`  session    ${r.sessionId ?? "(none)"}`);
    if (r.compactionOwner !== null)
      out.push(
        `  owner      ${r.compactionOwner === "pi" ? `Pi compacts natively (reserveTokens ${r.reserveTokens ?? "?"}, frozen at the session's start/resume); the host only consumes its events` : r.compactionOwner === "codex" ? "Codex compacts natively; the host only consumes its events" : "the host injects /compact at the threshold; Claude Code's own auto-compact stays on"}`,
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
  for (const e of r.session)
    out.push(
      `  ◇ session ${e.action}${e.id !== undefined ? ` ${e.id}` : ""}${e.previousId !== undefined ? ` (was ${e.previousId})` : ""}${e.reason !== undefined ? `: ${e.reason}` : ""}`,
    );
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
  for (const c of r.continuations)
    out.push(`  ⧗ continuation ${c.action}${c.attempt !== undefined ? ` (${c.attempt})` : ""}: ${c.reason}`);
  for (const x of r.rollovers)
    out.push(
      `  ⇢ rollover: ${x.reason} (handoff ${x.handoffBytes} bytes${x.tokensBefore !== undefined ? `, ${x.tokensBefore} → ${x.tokensAfter ?? "?"} tokens` : ""}${x.fromSession !== undefined ? `; session ${x.fromSession} → ${x.toSession ?? "a fresh one"}` : ""})`,
    );
  out.push(
    `  totals     replays ${r.replays}, rollovers ${r.rollovers.length}${r.terminal ? `; terminal ${r.terminal.status}${r.terminal.reason ? ` (${r.terminal.reason})` : ""}` : ""}`,
  );
  return out.map((l) => `${l}\n`).join("");
}

/** `sessions show`: the agent's kept session, or that none is kept. */
export function agentSessionText(name: string, answer: AgentSessionAnswer): string {
  const s = answer.session;
  if (!s) return `${name}: no session kept — the next wake starts a fresh one\n`;
  const out = [`${name} — ${s.harness} session on ${s.connectorId}/${s.model}`];
  out.push(`  session    ${s.sessionId ?? "(none: the next wake starts a fresh one)"}`);
  if (s.sessionFile) out.push(`  file       ${s.sessionFile}`);
  if (s.reserveTokens !== null)
    out.push(`  reserve    Pi compaction.reserveTokens ${s.reserveTokens} (frozen at start/resume)`);
  if (s.tokensInWindow !== null)
    out.push(`  window     ${s.tokensInWindow} tokens at the end of the last run`);
  if (s.bootstrap)
    out.push(
      `  handoff    ${Buffer.byteLength(s.bootstrap.handoff, "utf8")} bytes pending for the next wake: ${s.bootstrap.reason}`,
    );
  out.push(
    `  rolled over ${s.rolledOver ? "yes" : "no"}${s.previousSessionId ? ` (previous session ${s.previousSessionId})` : ""}`,
  );
  out.push(
    `  last run   ${s.lastRunId ?? "none"}${s.runningRunId ? `; held by running run ${s.runningRunId}` : ""}`,
  );
  return out.map((l) => `${l}\n`).join("");
}

/** `sessions reset`: what was forgotten. */
export function sessionResetText(name: string, r: SessionResetView): string {
  return r.reset
    ? `${name}: session ${r.previousSessionId ?? "(pending handoff)"} forgotten; the next wake starts a fresh session\n`
    : `${name}: no session kept; the next wake starts a fresh one anyway\n`;
}
