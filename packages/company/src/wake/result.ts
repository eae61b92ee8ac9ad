// What a wake answers once its run is settled: the run as stored, the mode before and after (mode
// changes were recorded by the tool handlers that caused them, inside their transactions), the
// run's counters and the native session it ran in.
import type { HarnessSessionState } from "@cadre/core";
import type { RunRow } from "@cadre/store";
import { harnessOf } from "../agent-session.js";
import { loadCompanySummary } from "../state.js";
import type { RunContext } from "./context.js";
import type { WakeResult, WakeSession } from "./options.js";

export async function wakeResult(
  ctx: RunContext,
  native: HarnessSessionState | undefined,
  cueTokens: number,
): Promise<WakeResult> {
  const { options, plan, claim, record, budget, drift, run } = ctx;
  const after = await loadCompanySummary(options.store, plan.agent.companyId);
  const finished = (await options.store.getRun(claim.runId)) as RunRow;
  const session: WakeSession = {
    harness: native?.harness ?? harnessOf(plan.connector.kind),
    id: record.ranIn ?? native?.ref?.id ?? null,
    resumed: native?.resumed ?? false,
    rolledOver: record.rollovers > 0 || (native?.rolledOver ?? false),
  };
  return {
    run: finished,
    cue: run.cue,
    cueTokens,
    modeBefore: plan.mode,
    modeAfter: after.mode,
    terminal: record.terminal,
    usage: record.usage,
    replays: record.replays,
    rollovers: record.rollovers,
    requests: claim.started.taken,
    session,
    stopReason: budget.stop?.reason ?? drift.stop?.reason ?? null,
  };
}
