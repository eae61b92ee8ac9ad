// A wake's claim: the agent's one running wake, its run row, trigger and cue, the due work it takes
// and the agent's session lock, in one transaction. From here on every write of the run goes
// through a lease (its own, or the worker's that holds the wake): a process cut off past its lease
// writes nothing to a run recovery has ended. A second wake of the agent, or a model switch, is
// refused while this run holds the session (MC-13), and nothing is written then.
import type { AgentSessionRow } from "@cadre/store";
import { lockSession } from "../agent-session.js";
import { newId } from "../ids.js";
import type { WakeLease } from "../lease.js";
import { inferTrigger } from "../work/trigger.js";
import { NothingDueError, startWork, type WorkStart } from "../work/start.js";
import type { WakeOptions } from "./options.js";
import type { WakePlan } from "./plan.js";
import { claimRun, DEFAULT_LEASE_MS } from "./own-lease.js";

export interface Claim {
  runId: string;
  /** The wake's own lease; none when the store given is a queue worker's lease view. */
  lease: WakeLease | undefined;
  started: WorkStart;
  /** The agent's session as the claim locked it (what the run resumes). */
  row: AgentSessionRow | undefined;
}

/** Claims the run, or undefined (nothing written) when it is to start only for due work and has none. */
export async function claimWake(
  plan: WakePlan,
  options: WakeOptions,
  onlyIfDue: boolean,
): Promise<Claim | undefined> {
  const { agent, connector, mode, profile } = plan;
  const { store } = options;
  const runId = newId("run");
  const start = startWork({
    agent,
    run: { id: runId, companyId: agent.companyId, agentId: agent.id, mode, profile },
    ...(options.trigger ? { explicit: options.trigger } : {}),
    inferred: (q) => inferTrigger(q, agent.companyId, agent.id),
    cueOf: plan.cueOf,
    onlyIfDue,
  });
  try {
    if (options.underLease) {
      // The lease's view records the run with the worker's wake inside this transaction.
      const { started, row } = await store.transaction(
        async (tx) => {
          const begun = await start(tx);
          return { started: begun, row: await lockSession(tx, agent, connector, runId) };
        },
        { isolation: "read committed" },
      );
      return { runId, lease: undefined, started, row };
    }
    const claimed = await claimRun(
      store,
      agent,
      connector,
      runId,
      start,
      options.leaseMs ?? DEFAULT_LEASE_MS,
    );
    claimed.lease.startHeartbeat();
    return { runId, ...claimed };
  } catch (error) {
    if (error instanceof NothingDueError) return undefined;
    throw error;
  }
}
