// What a lost run spent that its harness kept a record of (Codex's rollout), booked once by the
// agent's next wake before it calls anything. Keyed by the harness whose record is read.
import type { SessionHarness, Store } from "@cadre/store";
import { reconcileLostCodexRun } from "../recovery/codex-usage.js";

type Reconciler = (store: Store, input: Parameters<typeof reconcileLostCodexRun>[1]) => Promise<unknown>;

const LOST_RUN_USAGE: Partial<Record<SessionHarness, Reconciler>> = { codex: reconcileLostCodexRun };

export async function bookLostRunUsage(
  harness: SessionHarness,
  store: Store,
  input: Parameters<Reconciler>[1],
): Promise<void> {
  await LOST_RUN_USAGE[harness]?.(store, input);
}
