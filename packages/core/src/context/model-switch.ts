// MC-13 model switch: assessed inside the session lock shared with send, against the TARGET
// window. The forced-rollover line is 90% of the target window for every harness, independent of
// the daily compact threshold. Danger/overflow → bounded handoff (context rebuild) first, then the
// new route; the old native window is never resumed. Running turn, remote session without local
// handoff, or a recovery in flight → fail closed.

import { floorOfFraction } from "./context-threshold.js";
import type { HarnessKind } from "./harness-kind.js";
import type { SessionLock } from "./session-lock.js";

export const FORCED_ROLLOVER_FRACTION = 0.9;

export interface ModelSwitchInput {
  harness: HarnessKind;
  tokensInWindow: number;
  targetContextWindow: number;
  turnRunning: boolean;
  remote: boolean;
  /** Whether this (remote) session can write a local handoff at all. */
  localHandoffAvailable: boolean;
  recoveryInFlight: boolean;
}

export type ModelSwitchAction = "switch" | "handoff-then-switch" | "fail-closed";

export interface ModelSwitchVerdict {
  action: ModelSwitchAction;
  reason: string;
  /** Tokens at which the target window forces a rollover. */
  forcedRolloverLine: number;
}

export function forcedRolloverLine(targetContextWindow: number): number {
  return floorOfFraction(FORCED_ROLLOVER_FRACTION, targetContextWindow);
}

export function assessModelSwitch(input: ModelSwitchInput): ModelSwitchVerdict {
  const line = forcedRolloverLine(input.targetContextWindow);
  const verdict = (action: ModelSwitchAction, reason: string): ModelSwitchVerdict => ({
    action,
    reason,
    forcedRolloverLine: line,
  });

  if (
    !Number.isInteger(input.targetContextWindow) ||
    input.targetContextWindow <= 0 ||
    !Number.isFinite(input.tokensInWindow) ||
    input.tokensInWindow < 0
  ) {
    return verdict("fail-closed", "uncertain sizes: cannot assess the switch");
  }
  if (input.turnRunning) return verdict("fail-closed", "a turn is running: no hot switch then send");
  if (input.recoveryInFlight) return verdict("fail-closed", "a recovery is in flight");

  const state =
    input.tokensInWindow >= input.targetContextWindow
      ? "overflow"
      : input.tokensInWindow >= line
        ? "danger"
        : "fits";
  if (state === "fits")
    return verdict(
      "switch",
      `${input.harness}: ${input.tokensInWindow} tokens fit under the target's 90% line (${line})`,
    );
  if (input.remote && !input.localHandoffAvailable) {
    return verdict("fail-closed", `${state} on a remote session without local handoff`);
  }
  return verdict(
    "handoff-then-switch",
    `${input.harness}: ${state} at ${input.tokensInWindow} tokens ≥ target's 90% line (${line}); rebuild, never resume the old window`,
  );
}

export interface ModelSwitchSteps {
  /** Read inside the lock, so the assessment sees the state the send will see. */
  snapshot(): ModelSwitchInput;
  /** Bounded handoff into a fresh window (no model call). */
  handoffRebuild(): Promise<void>;
  /** Point the session at the new model route. */
  route(): Promise<void>;
}

/** Set-model: assess and act inside the session lock; the handoff always precedes the new route. */
export function switchModel(lock: SessionLock, steps: ModelSwitchSteps): Promise<ModelSwitchVerdict> {
  return lock.run(async () => {
    const verdict = assessModelSwitch(steps.snapshot());
    if (verdict.action === "fail-closed") return verdict;
    if (verdict.action === "handoff-then-switch") await steps.handoffRebuild();
    await steps.route();
    return verdict;
  });
}
