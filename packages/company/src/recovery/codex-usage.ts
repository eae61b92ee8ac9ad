// A Codex run whose process died with Cadre's (killed, crashed) booked only the calls the rollout
// meter had read before the end; Codex wrote every call it made into the thread's rollout file
// (codex/rollout.ts). The agent's next wake reconciles that run once, before its own session
// starts: the rollout's calls from the lost run's start to this wake's start are the lost run's, and
// those beyond the ones it booked are booked against it now — model calls priced as any other, and
// the run's usage. Idempotent by construction: the booked calls are counted inside the transaction
// (under the company's spend lock), so a second reconciliation finds nothing missing.
import {
  codexHome,
  costOf,
  openaiUsage,
  priceAt,
  type PriceEntry,
  rolloutCalls,
  type Usage,
} from "@cadre/core";
import type { AgentRow, AgentSessionRow, Store } from "@cadre/store";
import { newId } from "../companies.js";
import { INTERRUPTED_REASON } from "./recover.js";

export interface ReconciledUsage {
  runId: string;
  threadId: string;
  /** Calls booked now (0 when the run had booked every one). */
  calls: number;
  usage: Usage;
}

const zero = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
const plus = (a: Usage, b: Usage): Usage => ({
  input: a.input + b.input,
  output: a.output + b.output,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
});
const same = (a: Usage, b: Usage) =>
  a.input === b.input &&
  a.output === b.output &&
  a.cacheRead === b.cacheRead &&
  a.cacheWrite === b.cacheWrite;

/**
 * Reconciles the agent's last run when recovery ended it (its process was lost) and it ran on
 * Codex; undefined when there is nothing to reconcile. `before`: when the reconciling wake's run
 * started (its own calls come after).
 */
export async function reconcileLostCodexRun(
  store: Store,
  input: {
    agent: Pick<AgentRow, "id" | "companyId" | "model">;
    session: AgentSessionRow | undefined;
    env: Readonly<Record<string, string | undefined>>;
    before: string;
    prices: readonly PriceEntry[];
  },
): Promise<ReconciledUsage | undefined> {
  const lastRunId = input.session?.lastRunId;
  if (!lastRunId) return undefined;
  const lost = await store.getRun(lastRunId);
  if (!lost || lost.agentId !== input.agent.id || lost.error !== INTERRUPTED_REASON) return undefined;
  const threadId = await threadOf(store, lost.id, input.session);
  if (threadId === undefined) return undefined;
  const recorded = await rolloutCalls(codexHome(input.env), threadId, {
    from: lost.startedAt,
    to: input.before,
  });
  if (recorded.length === 0) return undefined;
  const usages = recorded.map((c) => openaiUsage(c.usage.input, c.usage.cached, c.usage.output));
  return store.transaction(
    async (tx) => {
      // Under the company's spend lock: two reconcilers (or a reservation) decide one after the other.
      await tx.lockSpend(lost.companyId);
      const booked = await tx.listModelCalls(lost.id);
      const bookedUsage = booked.reduce((t, c) => plus(t, c.usage), zero());
      // The run booked the rollout's first calls, in order: the rest are missing. When the booked
      // calls do not line up with them, what is missing is the difference, as one call.
      let missing: Usage[];
      const head = usages.slice(0, booked.length).reduce(plus, zero());
      if (booked.length <= usages.length && same(head, bookedUsage)) missing = usages.slice(booked.length);
      else {
        const diff = plus(usages.reduce(plus, zero()), {
          input: -bookedUsage.input,
          output: -bookedUsage.output,
          cacheRead: -bookedUsage.cacheRead,
          cacheWrite: -bookedUsage.cacheWrite,
        });
        const positive = Object.values(diff).every((v) => v >= 0) && Object.values(diff).some((v) => v > 0);
        missing = positive ? [diff] : [];
      }
      let total = zero();
      const model = booked[0]?.model ?? input.agent.model;
      for (const usage of missing) {
        const id = newId("call");
        await tx.reserveModelCall({
          id,
          companyId: lost.companyId,
          agentId: lost.agentId,
          runId: lost.id,
          model,
          reservedTokens: 0,
          reservedUsd: null,
        });
        const costUsd = costOf(usage, priceAt(model, lost.startedAt, input.prices));
        await tx.settleModelCall(id, { servedModel: model, usage, costUsd });
        total = plus(total, usage);
      }
      if (missing.length > 0) {
        await tx.addEndedRunUsage(lost.id, total);
        await tx.insertActivity({
          companyId: lost.companyId,
          agentId: lost.agentId,
          runId: lost.id,
          type: "usage.reconciled",
          data: {
            threadId,
            calls: missing.length,
            usage: total,
            message: `${missing.length} model call(s) of run ${lost.id}, lost with its process, were booked from Codex's rollout of thread ${threadId}`,
          },
        });
      }
      return { runId: lost.id, threadId, calls: missing.length, usage: total };
    },
    { isolation: "read committed" },
  );
}

/** The Codex thread the run ran in: as its events said (the thread started or resumed, or a context snapshot), else the agent's session's. */
async function threadOf(
  store: Store,
  runId: string,
  session: AgentSessionRow | undefined,
): Promise<string | undefined> {
  const events = await store.listRunEvents(runId);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    const data = e.data as { id?: unknown; snapshot?: { sessionId?: unknown } };
    const id = e.type === "session" ? data.id : e.type === "context" ? data.snapshot?.sessionId : undefined;
    if (typeof id === "string") return id;
  }
  return session?.harness === "codex" ? (session.sessionId ?? undefined) : undefined;
}
