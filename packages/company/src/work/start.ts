// How a wake starts its run (inside the transaction that claims it): the agent's due work is
// planned and taken, the trigger chosen — the caller's explicit one, else the first of the taken
// requests' in precedence order, else inferred (trigger.ts) — and the cue with it, from (mode,
// trigger); then the run is inserted and its tasks checked out, all in that one transaction.
import type { WakeTrigger } from "@cadre/model";
import type { AgentRow, NewRun, RunRow, StoreQueries, WakeRequestRow } from "@cadre/store";
import { planDueWork, primaryTrigger, takeDueWork } from "./due.js";

/** A wake asked to start only for due work found none: nothing was written. */
export class NothingDueError extends Error {
  constructor(agent: Pick<AgentRow, "id" | "name">) {
    super(`${agent.name} (${agent.id}) has no due work: nothing was started`);
    this.name = "NothingDueError";
  }
}

export interface WorkStart {
  run: RunRow;
  trigger: WakeTrigger;
  cue: string;
  /** The wake requests this run took (coalesced: all of the agent's that were due). */
  taken: WakeRequestRow[];
}

export interface WorkStartInput {
  agent: AgentRow;
  run: Omit<NewRun, "trigger" | "cue">;
  /** The caller's trigger; wins over the requests' (the requests are taken all the same). */
  explicit?: WakeTrigger;
  /** When neither the caller nor a request names one. */
  inferred: (q: StoreQueries) => Promise<WakeTrigger>;
  cueOf: (trigger: WakeTrigger) => string;
  /** Start only when a request is due; otherwise NothingDueError (the transaction writes nothing). */
  onlyIfDue?: boolean;
}

export function startWork(input: WorkStartInput): (tx: StoreQueries) => Promise<WorkStart> {
  return async (tx) => {
    const plan = await planDueWork(tx, input.agent.id, input.run.id);
    if (input.onlyIfDue && plan.take.length === 0) throw new NothingDueError(input.agent);
    const trigger = input.explicit ?? primaryTrigger(plan.take) ?? (await input.inferred(tx));
    const cue = input.cueOf(trigger);
    const run = await tx.insertRun({ ...input.run, trigger, cue });
    const taken = await takeDueWork(tx, plan, input.run);
    if (input.onlyIfDue && taken.length === 0) throw new NothingDueError(input.agent);
    return { run, trigger, cue, taken };
  };
}
