// What `cadre sessions inspect` reports about a run, built from the run's stored events (and, for a
// run still marked running, whether its process is gone): the same builder for both adapters, so
// the report reads the same from the store and over the API.
import { INTERRUPTED_REASON } from "@cadre/company";
import { type AgentEvent, contextReportOf, type ContextReport } from "@cadre/core";

export const LATCH_SCOPE = "live session only: a restart never re-creates it from this report (MC-9)";

/**
 * How the run ended when that is not the end of a turn: "interrupted" (its process stopped and a
 * later one recovered it), "cancelled" (SIGINT, the operator, a shutdown) or still "running".
 */
function endingOf(
  status: string,
  report: ContextReport,
  lost: string | undefined,
): { ending: "interrupted" | "cancelled" | "running" | null; reason: string | null } {
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

/** The report (`--json` prints it as is). `lost`: why a run still marked running has no live process. */
export function runInspection(
  run: { id: string; agentId: string; status: string },
  events: Iterable<AgentEvent>,
  lost?: string,
) {
  const report = contextReportOf(events);
  const s = report.snapshot;
  const { ending, reason } = endingOf(run.status, report, lost);
  return {
    runId: run.id,
    agentId: run.agentId,
    status: run.status,
    ending,
    endingReason: reason,
    recorded: s !== undefined,
    harness: s?.harness ?? null,
    remote: s?.remote ?? null,
    sessionId: s?.sessionId ?? null,
    /** The run's session events: resumed, started, or healed after a resume failed. */
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
    harnessTools: report.harnessTools ?? null,
    continuations: report.continuations,
    terminal: report.terminal ?? null,
  };
}

export type RunInspection = ReturnType<typeof runInspection>;
