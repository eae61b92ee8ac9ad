// `cadre wake` on PostgreSQL: the wake goes through the shared queue like every other wake of the
// installation (one running wake per agent, coalescing, leases), a worker runs it, and this command
// follows the run from the store, reporting its events as the in-process wake does (the operator
// port's local adapter calls it; the wake renderer prints).
import { setTimeout as sleep } from "node:timers/promises";
import { assertBudgetRoom, cueTokenCount, harnessOf, loadCompanyState, sessionOfRun } from "@cadre/company";
import { type AgentEvent, NotFoundError, UserInputError } from "@cadre/core";
import type { PromptProfile, WakeTrigger } from "@cadre/model";
import type { RunRow, Store } from "@cadre/store";
import type { CliIO } from "../io.js";
import type { WakeOutcome, WakeWatcher } from "../operator/port.js";

const POLL_MS = 150;

export interface QueuedWakeInput {
  store: Store;
  url: string;
  agentId: string;
  trigger?: WakeTrigger;
  seed?: number;
  profile?: PromptProfile;
  /** pg-boss's schema, as the workers were given it; default theirs (pgboss). */
  queueSchema?: string;
}

export async function queuedWake(
  input: QueuedWakeInput,
  watch: WakeWatcher,
  io: CliIO,
): Promise<WakeOutcome> {
  const { store, agentId } = input;
  const agent = await store.getAgent(agentId);
  if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
  // Before a wake is queued: a budget with no room refuses it (exit 2), nothing is queued.
  await assertBudgetRoom(store, agent);
  // pg-boss is loaded only here: SQLite installations never pay for it.
  const { WakeQueue } = await import("@cadre/server");
  const queue = await WakeQueue.open({
    url: input.url,
    ...(input.queueSchema ? { schema: input.queueSchema } : {}),
    supervise: false,
    log: (line) => io.err(`${line}\n`),
  });
  let sent;
  try {
    sent = await queue.enqueue({
      agentId,
      ...(input.trigger ? { trigger: input.trigger } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.profile ? { profile: input.profile } : {}),
    });
  } finally {
    await queue.stop();
  }
  watch.queued({ wakeId: sent.wakeId, joined: !sent.queued, agentName: agent.name });
  const run = await awaitRun(store, sent.wakeId, io);
  const cueTokens = cueTokenCount(run.cue);
  watch.started({
    runId: run.id,
    agentName: agent.name,
    mode: run.mode,
    trigger: run.trigger,
    profile: run.profile,
    cue: run.cue,
    cueTokens,
  });
  const ended = await follow(store, run.id, (event) => watch.event(event));
  const modeAfter = (await loadCompanyState(store, agent.companyId)).mode;
  // A worker ran it: what the run's stored events say about its native session.
  const connector = await store.getConnector(agent.companyId, agent.connectorId);
  const events = (await store.listRunEvents(ended.id)).map((r) => r.data as AgentEvent);
  return {
    kind: "ran",
    runId: ended.id,
    agentId,
    terminal: ended.status,
    modeBefore: run.mode,
    modeAfter,
    cue: run.cue,
    cueTokens,
    usage: ended.usage,
    session: sessionOfRun(events, harnessOf(connector?.kind ?? "offline")),
    wakeId: sent.wakeId,
  };
}

/** The run a worker starts for the wake; a wake that ended without one was refused. */
async function awaitRun(store: Store, wakeId: string, io: CliIO): Promise<RunRow> {
  const hintAt = Date.now() + 5000;
  let hinted = false;
  for (;;) {
    const wake = await store.getWake(wakeId);
    const run = wake?.runId ? await store.getRun(wake.runId) : undefined;
    if (run) return run;
    if (wake?.status === "failed")
      throw new UserInputError(
        `the wake was refused before its run started: ${wake.error ?? "no reason recorded"}`,
      );
    if (!hinted && Date.now() > hintAt) {
      hinted = true;
      io.err(
        `cadre wake: no worker has started wake ${wakeId} yet (busy, or none running); it stays queued if you stop waiting. --in-process runs a wake here instead.\n`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** Renders the run's stored events until it ends; the run row is read first, so its end is complete. */
async function follow(store: Store, runId: string, render: (event: AgentEvent) => void): Promise<RunRow> {
  let after: number | undefined;
  for (;;) {
    const run = await store.getRun(runId);
    for (const event of await store.listRunEvents(runId, after)) {
      render(event.data as AgentEvent);
      after = event.id;
    }
    if (run && run.status !== "running") return run;
    await sleep(POLL_MS);
  }
}
