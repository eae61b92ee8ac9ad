// What lost runs spent that their harness kept a record of (Codex's rollout), booked once by the
// agent's next wake before it calls anything — whatever harness this wake runs on, since the
// agent may have moved to another connector since. One reconciler per harness that keeps a record.
import type { Store } from "@cadre/store";
import { reconcileLostCodexRuns } from "../recovery/codex-usage.js";

type Input = Parameters<typeof reconcileLostCodexRuns>[1];
type Reconciler = (store: Store, input: Input) => Promise<unknown>;

const LOST_RUN_USAGE: readonly Reconciler[] = [reconcileLostCodexRuns];

export async function bookLostRunUsage(store: Store, input: Input): Promise<void> {
  for (const reconcile of LOST_RUN_USAGE) await reconcile(store, input);
}
