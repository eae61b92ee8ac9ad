// The wake, in stages: plan (one read of what it decides from: agent, company, budgets, readiness,
// the prompt) → claim (the run, its due work and the agent's session lock: one transaction) → run
// (the harness's session, its events recorded as they come) → settle (the run's end: one
// transaction). Code decides the mode, the trigger and the governance; the model only acts.
import { errorMessage } from "@cadre/core";
import { cueTokenCount } from "./prompts/cues.js";
import { flushTracing } from "./tracing/otel.js";
import { beginRun } from "./wake/begin.js";
import { claimWake } from "./wake/claim.js";
import { DriftRefused } from "./wake/context.js";
import type { WakeOptions, WakeResult } from "./wake/options.js";
import { wakeResult } from "./wake/result.js";
import { planWake } from "./wake/plan.js";
import { runSession } from "./wake/run.js";
import { settleRun } from "./wake/settle.js";

export type { WakeOptions, WakeResult, WakeSession } from "./wake/options.js";
export { AgentBusyError } from "./wake/own-lease.js";

export async function wakeAgent(options: WakeOptions): Promise<WakeResult> {
  return (await wake(options, false)) as WakeResult;
}

/**
 * Wakes the agent only for due work (a pending wake request whose reason still holds, OP-1):
 * undefined, with nothing written, when it has none. `cadre run`, the schedules and the workers wake
 * agents this way.
 */
export function wakeIfDue(options: WakeOptions): Promise<WakeResult | undefined> {
  return wake(options, true);
}

async function wake(options: WakeOptions, onlyIfDue: boolean): Promise<WakeResult | undefined> {
  const plan = await planWake(options);
  const claim = await claimWake(plan, options, onlyIfDue);
  if (!claim) return undefined;
  const { ctx, replaced } = await beginRun(options, plan, claim);
  const { record, run } = ctx;
  const { lease } = claim;
  const cueTokens = cueTokenCount(run.cue);
  const signal =
    lease && options.signal
      ? AbortSignal.any([options.signal, lease.signal])
      : (lease?.signal ?? options.signal);
  let thrown: unknown;
  let native: Awaited<ReturnType<typeof settleRun>> | undefined;
  try {
    // Inside: whatever the caller's callback throws ends the run (failed), never leaves it running.
    options.onStart?.({ run, cue: run.cue, cueTokens, mode: plan.mode });
    if (replaced) {
      options.onEvent?.(replaced);
      await record.flush(); // the run's first event, written at once (a feed follower learns it started)
    }
    await runSession(ctx, signal);
  } catch (error) {
    const failure = plan.redact.text(errorMessage(error));
    record.say({
      type: "error",
      message: failure,
      code: error instanceof DriftRefused ? "model_drift" : "wake_failed",
    });
    record.say({ type: "terminal", status: "failed", reason: failure });
    record.terminal = "failed";
    record.failure = failure;
  } finally {
    ctx.trace.end(record.terminal, record.failure);
    // Sent in the background: a slow or absent collector never holds the run's end.
    void flushTracing().catch(() => undefined);
    try {
      native = await settleRun(ctx);
    } catch (error) {
      thrown = error;
    } finally {
      lease?.stop();
    }
  }
  if (thrown !== undefined) throw thrown;
  return wakeResult(ctx, native, cueTokens);
}
