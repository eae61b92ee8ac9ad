// The wake's own lease (one running wake per agent, across processes): taken with the run row and
// the agent's session lock in one transaction; a wake in the way whose process is gone is
// recovered first, one still held refuses this wake (AgentBusyError), writing nothing.
import { ConflictStateError } from "@cadre/core";
import {
  type AgentRow,
  type AgentSessionRow,
  ConflictError,
  type ConnectorRow,
  type Store,
  type StoreQueries,
  type WakeRow,
} from "@cadre/store";
import { lockSession } from "../agent-session.js";
import { newId } from "../ids.js";
import { WakeLease } from "../lease.js";
import { thisProcess } from "../recovery/processes.js";
import { lossOf, recoverLostRuns } from "../recovery/recover.js";
import type { WorkStart } from "../work/start.js";

/** The agent already runs a wake (in this process or another); nothing was written. HTTP 409. */
export class AgentBusyError extends ConflictStateError {
  constructor(
    agent: AgentRow,
    readonly wake: WakeRow,
  ) {
    const holder = wake.owner
      ? `process ${wake.owner.pid} on ${wake.owner.host}`
      : `worker ${wake.workerId ?? "unknown"}`;
    super(
      `${agent.name} (${agent.id}) is already running${wake.runId ? ` run ${wake.runId}` : " a wake"} (${holder}, since ${wake.createdAt}); ` +
        "one wake per agent runs at a time, so that two runs never act at once. Wait for it to end, or stop that process, then wake again.",
    );
    this.name = "AgentBusyError";
  }
}

export const DEFAULT_LEASE_MS = 30_000;

/**
 * Takes a lease of the wake's own, inserts its run under it and takes the agent's session lock for
 * it, in one transaction: the agent's one running wake, on SQLite as on PostgreSQL. A wake in the
 * way whose process is gone is recovered first; one still held refuses this wake (AgentBusyError),
 * writing nothing.
 */
export async function claimRun(
  store: Store,
  agent: AgentRow,
  connector: Pick<ConnectorRow, "id" | "kind">,
  runId: string,
  start: (tx: StoreQueries) => Promise<WorkStart>,
  leaseMs: number,
): Promise<{ lease: WakeLease; started: WorkStart; row: AgentSessionRow | undefined }> {
  const owner = thisProcess();
  const lease = new WakeLease(store, newId("wake"), `${owner.host}:${owner.pid}:${runId}`, leaseMs);
  const attempt = () =>
    store.transaction(
      async (tx) => {
        const claimed = await tx.claimWake({
          id: lease.wakeId,
          companyId: agent.companyId,
          agentId: agent.id,
          workerId: lease.workerId,
          leaseUntil: lease.leaseUntil(),
          owner,
        });
        if (claimed.outcome !== "claimed") return { busy: claimed.wake };
        const started = await start(tx);
        await tx.setWakeRun(lease.wakeId, lease.workerId, runId);
        return { started, session: await lockSession(tx, agent, connector, runId) };
      },
      { isolation: "read committed" },
    );
  let recovered = false;
  for (let tries = 0; ; tries++) {
    let result: { started: WorkStart; session: AgentSessionRow | undefined } | { busy: WakeRow };
    try {
      result = await attempt();
    } catch (error) {
      // A concurrent claim committed first (the unique index said so): look again at what it wrote.
      if (error instanceof ConflictError && tries < 3) continue;
      throw error;
    }
    if ("started" in result) {
      lease.runId = runId;
      return { lease, started: result.started, row: result.session };
    }
    if (!recovered && lossOf(result.busy)) {
      // What stands in the way is a wake whose process is gone: end it now (which releases the
      // agent's session it held) rather than refuse.
      recovered = true;
      await recoverLostRuns(store);
      continue;
    }
    throw new AgentBusyError(agent, result.busy);
  }
}
