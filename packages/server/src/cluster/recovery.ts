// Recovery of wakes whose worker is gone (killed, crashed, cut off). The pass itself is in
// @cadre/company (recovery/recover.ts), since every run is held under a wake lease, in-process runs
// too: a wake whose lease ran out, or whose process is gone from this host, fails with its run —
// one error event, one terminal event, usage as its stored model calls add up — in one transaction
// only one recoverer wins, so the run gets exactly one terminal event (MC-14).
import { recoverLostRuns } from "@cadre/company";
import type { Store, WakeRow } from "@cadre/store";

/**
 * Takes every lost wake: one with a run fails, with its run; one that had started none goes back
 * for a retry (its job is redelivered by the queue). Returns the wakes this call took.
 */
export async function recoverExpiredWakes(store: Store, now: Date = new Date()): Promise<WakeRow[]> {
  return (await recoverLostRuns(store, { now })).wakes;
}
