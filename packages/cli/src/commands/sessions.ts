// `cadre sessions inspect RUN_ID`: what a run's session looked like to its context controller
// (MC-8..MC-14) — occupancy, threshold, Pi's frozen reserve, the rollover latch and why, open
// continuation claims, the last compaction and how the one classifier classified it — read from the
// run's stored events. A report only: nothing here re-creates a latch (it lives in the live session).
import { INTERRUPTED_REASON, lossOf } from "@cadre/company";
import { type AgentEvent, contextReportOf, type ContextReport, NotFoundError } from "@cadre/core";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const SESSIONS_HELP = `Usage: cadre sessions inspect RUN_ID [--data DIR] [--database URL] [--json]

The context state of a run's session, as the run stored it (a snapshot at the end of each product
turn, and every compaction, recovery and rollover event):
  occupancy        tokens in the native window / the model's context window
  threshold        the compaction threshold (90% unless the connector overrides it) and, for Pi,
                   compaction.reserveTokens frozen at session start
  latch            needsRollover and why (live-session state: a restart never re-creates it)
  open claims      continuation claims still holding a product turn open
  last compaction  its result as the one failure classifier saw it (ok, deterministic, transient, …)
  history          compactions, recoveries (replay or fail closed, with the rule), compression
                   decisions (strip images, handoff rebuild, fail closed: MC-12), rollovers and
                   continuation claims (MC-14: opened, settled, lost-handle)
  harness tools    Claude Code and Codex: the tools the harness offered the model, as it reported
                   them at the start of the run (Claude Code's init line; for Codex, what
                   \`cadre mcp\` gave it plus the built-ins its configuration leaves on), the MCP
                   servers' status, and whether that is what the company decided
  ended            how a run ended that did not end its turn: interrupted (its process stopped —
                   killed or crashed; also said of a run still marked running whose process is
                   gone), cancelled (SIGINT, SIGTERM, the operator) with the reason, or still running
                   (--json: ending, endingReason)

Options:
  --json       one JSON line
  --data DIR   data directory (default ./.cadre)
${DATABASE_HELP}`;

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
    harnessTools: report.harnessTools ?? null,
    continuations: report.continuations,
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
  const tools = report.harnessTools;
  if (tools) {
    io.out(
      `  tools      ${tools.harness} offered ${tools.tools.length === 0 ? "no tools" : tools.tools.join(", ")}${tools.problem ? ` — NOT the company's decision: ${tools.problem}` : " — as the company decided"}\n`,
    );
    for (const server of tools.mcpServers) io.out(`  mcp        ${server.name}: ${server.status}\n`);
    io.out(`             (read from ${tools.source})\n`);
  }
  if (!s && ending !== null) {
    io.out(
      `  context    no snapshot: the run ${ending === "running" ? "has not ended a turn yet" : `was ${ending} before its turn ended`}\n`,
    );
  } else if (!s) {
    io.out("  context    no snapshot recorded: the run ended before its harness reported one\n");
  } else {
    io.out(
      `  harness    ${s.harness}${s.remote ? " (remote)" : ""}, model ${s.model}, window ${s.contextWindow} tokens\n`,
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
  for (const c of report.continuations)
    io.out(`  ⧗ continuation ${c.action}${c.attempt !== undefined ? ` (${c.attempt})` : ""}: ${c.reason}\n`);
  for (const r of report.rollovers)
    io.out(
      `  ⇢ rollover: ${r.reason} (handoff ${r.handoffBytes} bytes${r.tokensBefore !== undefined ? `, ${r.tokensBefore} → ${r.tokensAfter ?? "?"} tokens` : ""})\n`,
    );
  io.out(
    `  totals     replays ${report.replays}, rollovers ${report.rollovers.length}${report.terminal ? `; terminal ${report.terminal.status}${report.terminal.reason ? ` (${report.terminal.reason})` : ""}` : ""}\n`,
  );
}

export async function sessionsCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse("sessions", args, STORE_OPTIONS, 2);
  if (values.help) return (io.out(`${SESSIONS_HELP}\n`), 0);
  const [sub, runId] = positionals;
  if (sub !== "inspect")
    throw new UsageError(`sessions: unknown subcommand "${sub ?? ""}"; use: cadre sessions inspect RUN_ID`);
  if (!runId) throw new UsageError("sessions inspect: RUN_ID is required (see `cadre usage` for run ids)");
  const { store } = await openData(values, io.env);
  try {
    const run = await store.getRun(runId);
    if (!run) throw new NotFoundError(`sessions inspect: run ${runId} not found`);
    const rows = await store.listRunEvents(runId);
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
