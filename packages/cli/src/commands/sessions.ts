// `cadre sessions`: an agent's session across wakes and what a run's session looked like.
// `inspect RUN_ID` reads the run's stored events: the context controller's state (MC-8..MC-14) —
// the native session it ran in, who owns compaction, occupancy, threshold, Pi's frozen reserve, the
// rollover latch and why, open continuation claims, the last compaction and its classification —
// the history of session, compaction, recovery, compression and rollover events, and how a run
// ended that did not end its turn (interrupted, cancelled). A report only: nothing here re-creates
// a latch (it lives in the live session). `show AGENT_ID` prints the agent's kept session;
// `reset AGENT_ID` makes its next wake start fresh.
import { INTERRUPTED_REASON, lossOf, resetAgentSession } from "@cadre/company";
import { type AgentEvent, contextReportOf, type ContextReport, NotFoundError } from "@cadre/core";
import type { AgentSessionRow } from "@cadre/store";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, recoverInterruptedRuns } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const SESSIONS_HELP = `Usage: cadre sessions inspect RUN_ID [--data DIR] [--database URL] [--json]
       cadre sessions show AGENT_ID [--data DIR] [--database URL] [--json]
       cadre sessions reset AGENT_ID [--force] [--data DIR] [--database URL] [--json]

An agent's session lives across its wakes: a later wake continues it (a Pi session file under
DATA_DIR/agents/AGENT_ID/sessions, a Claude Code session id, a Codex thread id) unless a rollover,
a model switch with handoff, or the operator starts a fresh one.

inspect RUN_ID   the context state of a run's session, as the run stored it (a snapshot at the end
                 of each product turn, and every session, compaction, recovery and rollover event):
  session          the native session the run ran in; resumed, started, or healed after a resume failed
  compaction       who owns it (Pi compacts natively at contextWindow − reserveTokens; for Claude
                   Code the host injects /compact), the threshold (90% unless the connector
                   overrides it) and, for Pi, compaction.reserveTokens frozen at the session's start/resume
  occupancy        tokens in the native window / the model's context window
  latch            needsRollover and why (live-session state: a restart never re-creates it)
  open claims      continuation claims still holding a product turn open
  last compaction  its result as the one failure classifier saw it (ok, deterministic, transient, …)
  history          compactions, recoveries (replay or fail closed, with the rule), compression
                   decisions (strip images, handoff rebuild, fail closed: MC-12) and rollovers
  ended            how a run ended that did not end its turn: interrupted (its process stopped —
                   killed or crashed; also said of a run still marked running whose process is
                   gone), cancelled (SIGINT, SIGTERM, the operator) with the reason, or still running
                   (--json: ending, endingReason)
show AGENT_ID    the agent's kept session: harness, native id (and Pi file), model, reserve, a
                 pending handoff, whether it rolled over, the run holding it
reset AGENT_ID   forget the kept session: the next wake starts a fresh one, with no handoff.
                 Refused while a run of the agent is running (exit 2). A run whose process died is
                 recovered first (as by demo, wake and serve), which releases its session; --force
                 releases a session still held by a run marked running all the same

Options:
  --json       one JSON line
  --data DIR   data directory (default ./.cadre)
${DATABASE_HELP}`;

/** One line for a wake's native session (demo and wake summaries). */
export function sessionLine(s: {
  harness: string;
  id: string | null;
  resumed: boolean;
  rolledOver: boolean;
}): string {
  const what = s.resumed ? "resumed" : s.rolledOver ? "fresh from a handoff (rolled over)" : "new";
  return `${s.harness} ${s.id ?? "(none started)"} — ${what}`;
}

const LATCH_SCOPE = "live session only: a restart never re-creates it from this report (MC-9)";

/**
 * How the run ended when that is not the end of a turn: "interrupted" (its process stopped and a
 * later one recovered it), "cancelled" (SIGINT, the operator, a shutdown) or still "running".
 */
function endingOf(
  status: string,
  report: ContextReport,
  lost: string | undefined,
): { ending: string | null; reason: string | null } {
  const reason = report.terminal?.reason ?? null;
  if (status === "running" && lost !== undefined)
    return {
      ending: "interrupted",
      reason: `${INTERRUPTED_REASON} (${lost}); the next demo, wake or serve on this store records its end`,
    };
  if (status === "running") return { ending: "running", reason: null };
  if (status === "failed" && reason === INTERRUPTED_REASON) return { ending: "interrupted", reason };
  if (status === "cancelled") return { ending: "cancelled", reason };
  return { ending: null, reason: null };
}

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function toJson(runId: string, agentId: string, status: string, report: ContextReport, lost?: string) {
  const s = report.snapshot;
  const { ending, reason } = endingOf(status, report, lost);
  return {
    runId,
    agentId,
    status,
    ending,
    endingReason: reason,
    recorded: s !== undefined,
    harness: s?.harness ?? null,
    sessionId: s?.sessionId ?? null,
    session: report.sessions,
    compactionOwner: s?.compactionOwner ?? null,
    model: s?.model ?? null,
    contextWindow: s?.contextWindow ?? null,
    tokensInWindow: s?.tokensInWindow ?? null,
    occupancy: s?.occupancy ?? null,
    threshold: s?.threshold ?? null,
    thresholdSource: s?.thresholdSource ?? null,
    reserveTokens: s?.reserveTokens ?? null,
    latch: { needsRollover: s?.needsRollover ?? null, reason: s?.latchReason ?? null, scope: LATCH_SCOPE },
    openClaims: s?.openClaims ?? [],
    lastCompaction: s?.lastCompaction ?? null,
    compactionCount: s?.compactions ?? {
      count: report.compactions.length,
      succeeded: report.compactions.filter((c) => c.ok).length,
    },
    compactions: report.compactions,
    recoveries: report.recoveries,
    rollovers: report.rollovers,
    compressions: report.compressions,
    replays: report.replays,
    terminal: report.terminal ?? null,
  };
}

function print(
  io: CliIO,
  runId: string,
  agentId: string,
  status: string,
  report: ContextReport,
  lost?: string,
): void {
  const s = report.snapshot;
  io.out(`run ${runId} — agent ${agentId}, ${status}\n`);
  const { ending, reason } = endingOf(status, report, lost);
  if (ending === "interrupted") io.out(`  ended      interrupted: ${reason ?? INTERRUPTED_REASON}\n`);
  else if (ending === "cancelled") io.out(`  ended      cancelled${reason ? `: ${reason}` : ""}\n`);
  else if (ending === "running") io.out("  ended      not yet: the run is still running\n");
  if (!s && ending !== null) {
    io.out(
      `  context    no snapshot: the run ${ending === "running" ? "has not ended a turn yet" : `was ${ending} before its turn ended`}\n`,
    );
  } else if (!s) {
    io.out(
      "  context    no snapshot recorded: this run's harness records none (Pi sessions — offline, anthropic, openai, openai-compatible — do)\n",
    );
  } else {
    io.out(
      `  harness    ${s.harness}${s.remote ? " (remote)" : ""}, model ${s.model}, window ${s.contextWindow} tokens\n`,
    );
    io.out(`  session    ${s.sessionId ?? "(none)"}\n`);
    if (s.compactionOwner !== undefined)
      io.out(
        `  owner      ${s.compactionOwner === "pi" ? `Pi compacts natively (reserveTokens ${s.reserveTokens ?? "?"}, frozen at the session's start/resume); the host only consumes its events` : s.compactionOwner === "codex" ? "Codex compacts natively; the host only consumes its events" : "the host injects /compact at the threshold; Claude Code's own auto-compact stays on"}\n`,
      );
    io.out(`  occupancy  ${pct(s.occupancy)} (${s.tokensInWindow} of ${s.contextWindow} tokens)\n`);
    io.out(
      `  threshold  ${pct(s.threshold)} (${s.thresholdSource})${s.reserveTokens !== undefined ? `; Pi reserveTokens ${s.reserveTokens} (frozen at start), compacts at ${s.contextWindow - s.reserveTokens} tokens` : ""}\n`,
    );
    io.out(
      `  latch      needsRollover ${s.needsRollover ? `SET: ${s.latchReason ?? "reason not recorded"}` : "clear"} — ${LATCH_SCOPE}\n`,
    );
    io.out(`  claims     ${s.openClaims.length === 0 ? "none open" : s.openClaims.join(", ")}\n`);
    const last = s.lastCompaction;
    io.out(
      `  compaction ${s.compactions.count} (${s.compactions.succeeded} ok)${last ? `; last: ${last.result} — ${last.reason}${last.tokensBefore !== undefined ? ` (${last.tokensBefore}${last.tokensAfter !== undefined ? ` → ${last.tokensAfter}` : ""} tokens)` : ""}` : ""}\n`,
    );
  }
  for (const e of report.sessions)
    io.out(
      `  ◇ session ${e.action}${e.id !== undefined ? ` ${e.id}` : ""}${e.previousId !== undefined ? ` (was ${e.previousId})` : ""}${e.reason !== undefined ? `: ${e.reason}` : ""}\n`,
    );
  for (const c of report.compactions) {
    io.out(
      `  ⟳ compaction (${c.reason}) ${c.ok ? "ok" : `failed: ${c.error ?? "no reason given"}`}${c.tokensBefore !== undefined ? `, ${c.tokensBefore}${c.tokensAfter !== undefined ? ` → ${c.tokensAfter}` : ""} tokens` : ""}\n`,
    );
  }
  for (const r of report.recoveries)
    io.out(`  ${r.action === "replay" ? "↻ replay" : "✗ fail closed"}: ${r.reason}\n`);
  for (const c of report.compressions) {
    const sizes =
      c.bytes !== undefined
        ? ` (request ${c.bytes} of ${c.byteLimit ?? "?"} bytes${c.strippedImages !== undefined ? `; ${c.strippedImages} image(s) stripped, ${c.bytesFreed ?? "?"} bytes freed` : ""})`
        : "";
    io.out(`  ⇲ compression at ${c.trigger}: ${c.action} — ${c.reason}${sizes}\n`);
  }
  for (const r of report.rollovers)
    io.out(
      `  ⇢ rollover: ${r.reason} (handoff ${r.handoffBytes} bytes${r.tokensBefore !== undefined ? `, ${r.tokensBefore} → ${r.tokensAfter ?? "?"} tokens` : ""}${r.fromSession !== undefined ? `; session ${r.fromSession} → ${r.toSession ?? "a fresh one"}` : ""})\n`,
    );
  io.out(
    `  totals     replays ${report.replays}, rollovers ${report.rollovers.length}${report.terminal ? `; terminal ${report.terminal.status}${report.terminal.reason ? ` (${report.terminal.reason})` : ""}` : ""}\n`,
  );
}

function rowJson(row: AgentSessionRow) {
  const bootstrap = row.bootstrap as { reason?: string; handoff?: string; fromSession?: string } | null;
  return {
    agentId: row.agentId,
    harness: row.harness,
    connectorId: row.connectorId,
    model: row.model,
    sessionId: row.sessionId,
    sessionFile: row.sessionFile,
    reserveTokens: row.reserveTokens,
    tokensInWindow: row.tokensInWindow,
    rolledOver: row.rolledOver,
    pendingHandoff: bootstrap
      ? {
          reason: bootstrap.reason ?? null,
          bytes: Buffer.byteLength(bootstrap.handoff ?? "", "utf8"),
          fromSession: bootstrap.fromSession ?? null,
        }
      : null,
    previousSessionId: row.previousSessionId,
    runningRunId: row.runningRunId,
    lastRunId: row.lastRunId,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

function printRow(io: CliIO, name: string, row: AgentSessionRow | undefined): void {
  if (!row) {
    io.out(`${name}: no session kept — the next wake starts a fresh one\n`);
    return;
  }
  const j = rowJson(row);
  io.out(`${name} — ${j.harness} session on ${j.connectorId}/${j.model}\n`);
  io.out(
    `  session    ${j.sessionId ?? "(none: the next wake starts a fresh one)"}${j.sessionFile ? `\n  file       ${j.sessionFile}` : ""}\n`,
  );
  if (j.reserveTokens !== null)
    io.out(`  reserve    Pi compaction.reserveTokens ${j.reserveTokens} (frozen at start/resume)\n`);
  if (j.tokensInWindow !== null)
    io.out(`  window     ${j.tokensInWindow} tokens at the end of the last run\n`);
  if (j.pendingHandoff)
    io.out(
      `  handoff    ${j.pendingHandoff.bytes} bytes pending for the next wake: ${j.pendingHandoff.reason ?? ""}\n`,
    );
  io.out(
    `  rolled over ${j.rolledOver ? "yes" : "no"}${j.previousSessionId ? ` (previous session ${j.previousSessionId})` : ""}\n`,
  );
  io.out(
    `  last run   ${j.lastRunId ?? "none"}${j.runningRunId ? `; held by running run ${j.runningRunId}` : ""}\n`,
  );
}

export async function sessionsCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(
    "sessions",
    args,
    { ...STORE_OPTIONS, force: { type: "boolean" } },
    2,
  );
  if (values.help) return (io.out(`${SESSIONS_HELP}\n`), 0);
  const [sub, id] = positionals;
  if (sub !== "inspect" && sub !== "show" && sub !== "reset")
    throw new UsageError(
      `sessions: unknown subcommand "${sub ?? ""}"; use: cadre sessions inspect RUN_ID | show AGENT_ID | reset AGENT_ID`,
    );
  if (!id)
    throw new UsageError(
      sub === "inspect"
        ? "sessions inspect: RUN_ID is required (see `cadre usage` for run ids)"
        : `sessions ${sub}: AGENT_ID is required (see \`cadre agents list\`)`,
    );
  const { store } = await openData(values, io.env);
  try {
    if (sub === "show") {
      const agent = await store.getAgent(id);
      if (!agent) throw new NotFoundError(`sessions show: agent ${id} not found`);
      const row = await store.getAgentSession(id);
      if (values.json) io.out(`${JSON.stringify({ agentId: id, session: row ? rowJson(row) : null })}\n`);
      else printRow(io, `${agent.name} (${agent.id})`, row);
      return 0;
    }
    if (sub === "reset") {
      // A run whose process died still holds the session until it is recovered: recover it first.
      await recoverInterruptedRuns(store, io);
      const { agent, reset, previous } = await resetAgentSession(store, id, { force: values.force ?? false });
      if (values.json)
        io.out(
          `${JSON.stringify({ agentId: agent.id, reset, previousSessionId: previous?.sessionId ?? null })}\n`,
        );
      else
        io.out(
          reset
            ? `${agent.name}: session ${previous?.sessionId ?? "(pending handoff)"} forgotten; the next wake starts a fresh session\n`
            : `${agent.name}: no session kept; the next wake starts a fresh one anyway\n`,
        );
      return 0;
    }
    const run = await store.getRun(id);
    if (!run) throw new NotFoundError(`sessions inspect: run ${id} not found`);
    const rows = await store.listRunEvents(id);
    const report = contextReportOf(rows.map((r) => r.data as AgentEvent));
    // A run still marked running whose process is gone is reported as interrupted (read only: the
    // next command that runs wakes records its end).
    let lost: string | undefined;
    if (run.status === "running") {
      const wake = (await store.listRunningWakes()).find((w) => w.runId === run.id);
      lost = wake ? lossOf(wake)?.detail : "no process holds it";
    }
    if (values.json) io.out(`${JSON.stringify(toJson(run.id, run.agentId, run.status, report, lost))}\n`);
    else print(io, run.id, run.agentId, run.status, report, lost);
    return 0;
  } finally {
    await store.close();
  }
}
