// `cadre wake` on PostgreSQL: the wake goes through the shared queue like every other wake of the
// installation (one running wake per agent, coalescing, leases), a worker runs it, and this command
// follows the run from the store, rendering its events as the in-process wake does.
import { setTimeout as sleep } from "node:timers/promises";
import { cueTokenCount, harnessOf, loadCompanyState, sessionOfRun } from "@cadre/company";
import { usageSummaryJson } from "@cadre/model";
import { type AgentEvent, NotFoundError, UserInputError } from "@cadre/core";
import type { PromptProfile, WakeTrigger } from "@cadre/model";
import type { RunRow, Store } from "@cadre/store";
import type { CliIO } from "../io.js";
import { createRenderer } from "../render.js";

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
  json: boolean;
}

export async function queuedWake(input: QueuedWakeInput, io: CliIO): Promise<number> {
  const { store, agentId } = input;
  const agent = await store.getAgent(agentId);
  if (!agent) throw new NotFoundError(`agent ${agentId} not found`);
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
  io.out(
    `${sent.queued ? `wake ${sent.wakeId} queued` : `joined wake ${sent.wakeId}, already waiting for ${agent.name}`}; a worker runs it (cadre worker, or cadre serve)\n`,
  );
  const run = await awaitRun(store, sent.wakeId, io);
  const cueTokens = cueTokenCount(run.cue);
  io.out(
    `run ${run.id} — mode ${run.mode}, trigger ${run.trigger}\ncue "${run.cue}" (${cueTokens} tokens)\n`,
  );
  const ended = await follow(store, run.id, createRenderer(io.out, agent.name));
  const modeAfter = (await loadCompanyState(store, agent.companyId)).mode;
  io.out(`mode: ${run.mode} → ${modeAfter}\n`);
  if (input.json) {
    const usage = usageSummaryJson(ended.usage);
    const connector = await store.getConnector(agent.companyId, agent.connectorId);
    const events = (await store.listRunEvents(ended.id)).map((r) => r.data as AgentEvent);
    const session = sessionOfRun(events, harnessOf(connector?.kind ?? "offline"));
    io.out(
      `${JSON.stringify({ runId: ended.id, agentId, terminal: ended.status, modeBefore: run.mode, modeAfter, initialCue: { text: run.cue, tokens: cueTokens }, usage, session, wakeId: sent.wakeId, via: "queue" })}\n`,
    );
  }
  return ended.status === "done" ? 0 : 1;
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
