// A Codex run whose process died with Cadre's (killed, crashed) booked only the calls the rollout
// meter had read before the end; Codex wrote every call it made into the thread's rollout file
// (codex/rollout.ts). The agent's next wake — on whatever connector — reconciles every such run not
// checked yet, once, before its own session starts: the rollout's calls from a lost run's start to
// the start of the agent's next run are that run's, and those beyond the ones it booked are booked
// against it now — model calls priced as any other, and the run's usage. Once: the check is recorded
// (a `usage.reconciled` row) in the transaction that books, under the company's spend lock, so a
// second reconciler finds the run checked; and the booked calls are counted there too.
import {
  codexHome,
  costOf,
  openaiUsage,
  priceAt,
  type PriceEntry,
  rolloutCalls,
  type Usage,
} from "@cadre/core";
import type { AgentRow, AgentSessionRow, RunRow, Store, StoreQueries } from "@cadre/store";
import { newId } from "../ids.js";
import { INTERRUPTED_REASON } from "./recover.js";

export interface ReconciledUsage {
  runId: string;
  threadId: string;
  /** Calls booked now (0 when the run had booked every one). */
  calls: number;
  usage: Usage;
}

/** Lost runs read per wake at most (the newest): each costs a read of its events and its rollout. */
const MAX_OPEN = 20;

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
 * Reconciles every run of the agent that recovery ended (its process was lost) on Codex and that no
 * reconciliation has checked yet, oldest first; each is checked once (a `usage.reconciled` row says
 * so, with what was booked, nothing included). A run's calls are the rollout's from its start to the
 * start of the agent's next run (the reconciling wake's, `before`, for the last): a later run of the
 * same thread is never booked against an earlier one.
 */
export async function reconcileLostCodexRuns(
  store: Store,
  input: {
    agent: Pick<AgentRow, "id" | "companyId" | "model">;
    session: AgentSessionRow | undefined;
    env: Readonly<Record<string, string | undefined>>;
    before: string;
    prices: readonly PriceEntry[];
  },
): Promise<ReconciledUsage[]> {
  const failed = await store.listRuns({ agentId: input.agent.id, status: "failed" });
  const lost = failed.filter((r) => r.error === INTERRUPTED_REASON && r.startedAt < input.before);
  if (lost.length === 0) return [];
  const checked = await reconciledRuns(store, input.agent.companyId);
  // The newest few: a run lost on another harness is never marked checked, and is read again.
  const open = lost.filter((r) => !checked.has(r.id)).slice(-MAX_OPEN);
  if (open.length === 0) return [];
  const reconciled: ReconciledUsage[] = [];
  for (const run of open) {
    const [next] = await store.listRuns({
      agentId: input.agent.id,
      page: { after: { at: run.startedAt, id: run.id }, limit: 1 },
    });
    const to = next && next.startedAt < input.before ? next.startedAt : input.before;
    const one = await reconcileRun(store, run, { ...input, to });
    if (one) reconciled.push(one);
  }
  return reconciled;
}

/** The runs of the company a reconciliation has checked. */
async function reconciledRuns(store: StoreQueries, companyId: string): Promise<Set<string>> {
  const rows = await store.listActivity(companyId, { type: "usage.reconciled" });
  return new Set(rows.flatMap((a) => (a.runId !== null ? [a.runId] : [])));
}

async function reconcileRun(
  store: Store,
  lost: RunRow,
  input: {
    agent: Pick<AgentRow, "model">;
    session: AgentSessionRow | undefined;
    env: Readonly<Record<string, string | undefined>>;
    to: string;
    prices: readonly PriceEntry[];
  },
): Promise<ReconciledUsage | undefined> {
  const threadId = await threadOf(store, lost.id, input.session);
  if (threadId === undefined) return undefined;
  const recorded = await rolloutCalls(codexHome(input.env), threadId, { from: lost.startedAt, to: input.to });
  // No rollout found for it (not in this Codex home): nothing is known yet, so nothing is marked.
  if (recorded.length === 0) return undefined;
  const usages = recorded.map((c) => openaiUsage(c.usage.input, c.usage.cached, c.usage.output));
  return store.transaction(
    async (tx) => {
      // Under the company's spend lock: two reconcilers (or a reservation) decide one after the other,
      // and the second finds the run checked.
      await tx.lockSpend(lost.companyId);
      if ((await reconciledRuns(tx, lost.companyId)).has(lost.id))
        return { runId: lost.id, threadId, calls: 0, usage: zero() };
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
      if (missing.length > 0) await tx.addEndedRunUsage(lost.id, total);
      // Written when nothing was missing too: the run is checked, and not read again.
      await tx.insertActivity({
        companyId: lost.companyId,
        agentId: lost.agentId,
        runId: lost.id,
        type: "usage.reconciled",
        data: {
          threadId,
          calls: missing.length,
          usage: total,
          message:
            missing.length > 0
              ? `${missing.length} model call(s) of run ${lost.id}, lost with its process, were booked from Codex's rollout of thread ${threadId}`
              : `run ${lost.id}, lost with its process, had booked every model call Codex's rollout of thread ${threadId} records`,
        },
      });
      return { runId: lost.id, threadId, calls: missing.length, usage: total };
    },
    { isolation: "read committed" },
  );
}

/**
 * The Codex thread the run ran in: as its events said (the thread started or resumed, or a context
 * snapshot, on Codex), else — for the agent's last run — the agent's Codex session's. Undefined for
 * a run on another harness.
 */
async function threadOf(
  store: Store,
  runId: string,
  session: AgentSessionRow | undefined,
): Promise<string | undefined> {
  const events = await store.listRunEvents(runId);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    const data = e.data as {
      id?: unknown;
      harness?: unknown;
      snapshot?: { sessionId?: unknown; harness?: unknown };
    };
    const [id, harness] =
      e.type === "session"
        ? [data.id, data.harness]
        : e.type === "context"
          ? [data.snapshot?.sessionId, data.snapshot?.harness]
          : [undefined, undefined];
    if (typeof id === "string") return harness === "codex" ? id : undefined;
  }
  return session?.lastRunId === runId && session.harness === "codex"
    ? (session.sessionId ?? undefined)
    : undefined;
}
