// Recovery of runs whose process is gone (killed, crashed, cut off), on SQLite and PostgreSQL alike.
// Every run is held under a wake lease (wake.ts, lease.ts): a wake whose lease ran out, or whose
// holding process no longer exists on this host, is taken — by whichever process looks first — and
// its run ends `failed` ("the process running it stopped"): one error event and one terminal event
// (none when the run had already stored its own), usage as its stored model calls add up, the
// tokens minted for it revoked, the agent's session it held released (the next wake resumes or
// heals it as after any run), all in one transaction only one recoverer can win; then the
// process groups it left behind on this host are killed. Runs from before leases existed (running,
// with no running wake) end the same way.
import { emptyUsage } from "@cadre/core";
import type { Store, StoreQueries, WakeRow } from "@cadre/store";
import { sessionRowFields } from "../agent-session.js";
import { releaseLostRunWork } from "../work/release.js";
import { killProcessGroup, processState } from "./processes.js";

/** The reason a recovered run ends with (its terminal event's, and the run row's `error`). */
export const INTERRUPTED_REASON = "the process running it stopped";
/** The code of the error event recovery appends. */
export const PROCESS_LOST_CODE = "process_lost";

export interface RecoveredRun {
  runId: string;
  agentId: string;
  companyId: string;
  /** The wake that held it; null for a run from before leases. */
  wakeId: string | null;
  /** How the loss was noticed (which process, which lease). */
  detail: string;
  tokensRevoked: number;
  /** The agent's session lock it held was released (the session row no longer names it running). */
  sessionReleased: boolean;
  /** Process groups it left on this host that were killed. */
  processesKilled: number;
}

export interface Recovery {
  /** Runs ended by this pass. */
  runs: RecoveredRun[];
  /** Wakes taken by this pass, as they were before (with or without a run: see expireWake). */
  wakes: WakeRow[];
}

interface UsageData {
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
}

interface EndedRun {
  run: Omit<RecoveredRun, "processesKilled" | "wakeId">;
  processes: Array<{ host: string; pid: number; started: string }>;
}

/**
 * Ends a running run as lost, inside the caller's transaction; undefined when it is not running (any
 * more). A run that had stored its own terminal event (its process died before recording the end
 * on the run row) keeps it: exactly one terminal event per run.
 */
async function endLostRun(tx: StoreQueries, runId: string, detail: string): Promise<EndedRun | undefined> {
  const run = await tx.getRun(runId);
  if (!run || run.status !== "running") return undefined;
  const events = await tx.listRunEvents(runId);
  // The stored model calls are the record: each one's usage event was written with the run's totals.
  const usage = emptyUsage();
  for (const e of events) {
    if (e.type !== "usage") continue;
    const u = (e.data as UsageData).usage ?? {};
    usage.input += u.input ?? 0;
    usage.output += u.output ?? 0;
    usage.cacheRead += u.cacheRead ?? 0;
    usage.cacheWrite += u.cacheWrite ?? 0;
  }
  const terminal = events.find((e) => e.type === "terminal");
  if (terminal) {
    const data = terminal.data as { status?: "done" | "failed" | "cancelled"; reason?: string };
    const status = data.status ?? "failed";
    await tx.finishRun(runId, {
      status,
      usage,
      error: status === "done" ? null : (data.reason ?? INTERRUPTED_REASON),
    });
  } else {
    let seq = (events.at(-1)?.seq ?? -1) + 1;
    await tx.appendRunEvents([
      {
        runId,
        companyId: run.companyId,
        seq: seq++,
        type: "error",
        data: { type: "error", message: `${INTERRUPTED_REASON}: ${detail}`, code: PROCESS_LOST_CODE },
      },
      {
        runId,
        companyId: run.companyId,
        seq: seq++,
        type: "terminal",
        data: { type: "terminal", status: "failed", reason: INTERRUPTED_REASON },
      },
    ]);
    await tx.finishRun(runId, { status: "failed", usage, error: INTERRUPTED_REASON });
  }
  // Its tasks are free again, and each one it left unfinished is to be resumed by its agent: once.
  await releaseLostRunWork(tx, run);
  const tokensRevoked = await tx.revokeApiTokens({ runId });
  // The session lock it held goes with it. The session row keeps what the last completed run left
  // (the native session to resume, or a handoff): the next wake verifies that resume, and heals it
  // once from the digest if it fails, as after any run; no `sessions reset --force` is needed.
  const session = await tx.getAgentSession(run.agentId);
  const sessionReleased = session?.runningRunId === runId;
  if (sessionReleased)
    await tx.putAgentSession({ ...sessionRowFields(session), runningRunId: null, lastRunId: runId });
  const processes = await tx.listRunProcesses(runId);
  for (const p of processes) await tx.deleteRunProcess(runId, p.pid);
  return {
    run: { runId, agentId: run.agentId, companyId: run.companyId, detail, tokensRevoked, sessionReleased },
    processes,
  };
}

function killLeftovers(ended: EndedRun): number {
  let killed = 0;
  for (const p of ended.processes) if (killProcessGroup(p)) killed++;
  return killed;
}

/**
 * Why a running wake is lost, or undefined while its holder may still be working. On the holder's
 * own host its process decides: gone, the wake is lost at once; alive, it keeps the wake however
 * long it goes without renewing (stopped with Ctrl-Z, in a debugger), since it can still resume and
 * a user can see it and stop it. Elsewhere only the lease can tell.
 */
export function lossOf(
  wake: WakeRow,
  now: Date = new Date(),
): { detail: string; expired: boolean } | undefined {
  if (wake.status !== "running") return undefined;
  const state = wake.owner ? processState(wake.owner) : "elsewhere";
  if (state === "alive") return undefined;
  if (state === "gone")
    return {
      detail: `process ${wake.owner!.pid} on ${wake.owner!.host}, which held wake ${wake.id}, is gone`,
      expired: false,
    };
  if (wake.leaseUntil !== null && wake.leaseUntil < now.toISOString())
    return {
      detail: `the process holding wake ${wake.id} (${wake.workerId ?? "unknown"}) stopped renewing its lease, which ran out at ${wake.leaseUntil}`,
      expired: true,
    };
  return undefined;
}

/**
 * One recovery pass: takes every lost wake (ending its run) and ends every running run no running
 * wake holds. Safe to run from any number of processes at once: each loss is taken by one of them.
 */
export async function recoverLostRuns(store: Store, options: { now?: Date } = {}): Promise<Recovery> {
  const now = options.now ?? new Date();
  const before = now.toISOString();
  const recovery: Recovery = { runs: [], wakes: [] };
  for (const wake of await store.listRunningWakes()) {
    const loss = lossOf(wake, now);
    if (!loss) continue;
    const taken = await store.transaction(
      async (tx) => {
        const won = loss.expired
          ? await tx.expireWake(wake.id, before, loss.detail)
          : await tx.takeOverWake(wake.id, wake.workerId ?? "", loss.detail);
        if (!won) return undefined;
        // Read again inside the transaction: the run recorded last is the one to end.
        const current = await tx.getWake(wake.id);
        return { ended: current?.runId ? await endLostRun(tx, current.runId, loss.detail) : undefined };
        // The wake's row lock orders this against the holder's fenced writes (see lease.ts).
      },
      { isolation: "read committed" },
    );
    if (!taken) continue;
    recovery.wakes.push(wake);
    if (taken.ended)
      recovery.runs.push({
        ...taken.ended.run,
        wakeId: wake.id,
        processesKilled: killLeftovers(taken.ended),
      });
  }

  // Runs no running wake holds: every run since leases exist is held by one from its first write
  // (the run row and its wake's record of it are one transaction), so these are older runs whose
  // process is long gone.
  const held = new Set((await store.listRunningWakes()).map((w) => w.runId));
  for (const run of await store.listRuns({ status: "running" })) {
    if (held.has(run.id)) continue;
    const ended = await store.transaction(async (tx) => {
      if ((await tx.listRunningWakes()).some((w) => w.runId === run.id)) return undefined;
      return endLostRun(
        tx,
        run.id,
        `run ${run.id} was started by a process that held no lease (an older Cadre)`,
      );
    });
    if (ended) recovery.runs.push({ ...ended.run, wakeId: null, processesKilled: killLeftovers(ended) });
  }
  return recovery;
}

/** One line per recovered run, for a command's stderr. */
export function describeRecovery(recovery: Recovery): string[] {
  return recovery.runs.map(
    (r) =>
      `recovered run ${r.runId} of agent ${r.agentId}: ${INTERRUPTED_REASON} (${r.detail}); it ended failed` +
      (r.tokensRevoked > 0 ? `, ${r.tokensRevoked} token(s) revoked` : "") +
      (r.processesKilled > 0 ? `, ${r.processesKilled} leftover process group(s) killed` : "") +
      (r.sessionReleased ? ", its agent's session released" : ""),
  );
}
