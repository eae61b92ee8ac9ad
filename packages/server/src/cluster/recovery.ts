// Recovery of wakes whose worker is gone (killed, crashed, cut off): once a wake's lease has run
// out, any worker fails it and ends its run if the run was still going — one error event, one
// terminal event, usage as far as it was recorded — all in one transaction that only one recoverer
// can win (expireWake is conditional), so the run gets exactly one terminal event (MC-14).
import { emptyUsage } from "@cadre/core";
import type { Store, StoreQueries, WakeRow } from "@cadre/store";

interface UsageData {
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
}

async function endLostRun(tx: StoreQueries, runId: string, reason: string): Promise<void> {
  const run = await tx.getRun(runId);
  if (!run || run.status !== "running") return;
  const events = await tx.listRunEvents(runId);
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
    // The worker persisted the run's end but died before recording it on the run row.
    const status = (terminal.data as { status?: "done" | "failed" | "cancelled" }).status ?? "failed";
    await tx.finishRun(runId, { status, usage, error: status === "done" ? null : reason });
    return;
  }
  let seq = (events.at(-1)?.seq ?? -1) + 1;
  await tx.appendRunEvents([
    {
      runId,
      companyId: run.companyId,
      seq: seq++,
      type: "error",
      data: { type: "error", message: reason, code: "worker_lost" },
    },
    {
      runId,
      companyId: run.companyId,
      seq: seq++,
      type: "terminal",
      data: { type: "terminal", status: "failed", reason },
    },
  ]);
  await tx.finishRun(runId, { status: "failed", usage, error: reason });
}

/**
 * Takes every wake whose lease ran out before `now`: one with a run fails, with its run; one that
 * had started none goes back for a retry (its job is redelivered by the queue). Returns the wakes
 * this call took.
 */
export async function recoverExpiredWakes(store: Store, now: Date = new Date()): Promise<WakeRow[]> {
  const before = now.toISOString();
  const recovered: WakeRow[] = [];
  for (const wake of await store.listExpiredWakes(before)) {
    const reason = `the worker running this wake (${wake.workerId ?? "unknown"}) stopped renewing its lease, which ran out at ${wake.leaseUntil}`;
    const won = await store.transaction(
      async (tx) => {
        if (!(await tx.expireWake(wake.id, before, reason))) return false;
        // Read again inside the transaction: the run recorded last is the one to end.
        const current = await tx.getWake(wake.id);
        if (current?.runId) await endLostRun(tx, current.runId, reason);
        return true;
        // The wake's row lock orders this against the holder's fenced writes (see lease.ts).
      },
      { isolation: "read committed" },
    );
    if (won) recovered.push(wake);
  }
  return recovered;
}
