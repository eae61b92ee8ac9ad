// The run's end, in one transaction under its lease: the rest of its events, its calls settled and
// its unsettled reservations dropped, the run finished, the drifts it saw, its tasks released, the
// CEO's report on delegated work that came back, the agent's session (what the next wake
// continues, the lock released) and the wake's release. Whatever the session holds is closed first;
// the terminal event is out already, so a failure closing it cannot become an event.
import type { HarnessSessionState } from "@cadre/core";
import { sessionRowAfter } from "../agent-session.js";
import { postDelegatedReport } from "../messages/thread.js";
import { releaseRunWork } from "../work/release.js";
import type { RunContext } from "./context.js";

/** Wake reasons that bring delegated work back to the CEO: handed in for its review, or done. */
const DELEGATED_BACK: ReadonlySet<string> = new Set(["task_in_review", "task_done"]);

export async function settleRun(ctx: RunContext): Promise<HarnessSessionState | undefined> {
  const { plan, claim, budget, drift, record, held, run } = ctx;
  const { agent, connector } = plan;
  const { runId, lease } = claim;
  await held.profileRun?.close();
  const native = held.session?.sessionState;
  // The next wake verifies (and if need be heals) what it resumes.
  await held.session?.close().catch(() => undefined);
  const next = sessionRowAfter({
    agent,
    connector,
    row: claim.row,
    plan: held.sessionPlan,
    state: native,
    runId,
  });
  const { batch, calls } = record.drain();
  const { terminal, failure } = record;
  await ctx.runStore.transaction(
    async (tx) => {
      await tx.appendRunEvents(batch);
      await budget.settle(tx, calls);
      await budget.finish(tx);
      await tx.finishRun(runId, {
        status: terminal,
        usage: record.usage,
        error: failure,
        stopReason: budget.stop?.reason ?? drift.stop?.reason ?? null,
      });
      for (const d of drift.drifts)
        await tx.insertActivity({
          companyId: agent.companyId,
          agentId: agent.id,
          runId,
          type: "model.drifted",
          data: {
            connectorId: connector.id,
            declared: d.declared,
            served: d.served,
            ...(d.fingerprint ? { fingerprint: d.fingerprint } : {}),
            policy: drift.stop ? "refuse" : "warn",
          },
        });
      await releaseRunWork(tx, run, terminal);
      // Decided here, not asked of the model, unless the CEO wrote to the operator itself.
      if (
        agent.isCeo &&
        terminal === "done" &&
        claim.started.taken.some((r) => DELEGATED_BACK.has(r.trigger))
      )
        await postDelegatedReport(tx, {
          companyId: agent.companyId,
          ceoId: agent.id,
          runId,
          text: record.closing.join("\n\n"),
        });
      await tx.putAgentSession(next);
      if (lease)
        await tx.releaseWake(lease.wakeId, lease.workerId, {
          status: terminal === "done" ? "done" : "failed",
          error: failure,
        });
    },
    { isolation: "read committed" },
  );
  return native;
}
