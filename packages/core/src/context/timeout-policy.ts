// MC-11 timeouts: a Pi prompt timeout is the only timeout that may hand off. Ordinary Claude
// Code/Codex timeouts, large histories and network failures never trigger rollover, replay,
// compression or an auto-continue loop. A watchdog is only a fallback close-out, and stderr text is
// diagnostic: it never drives recovery.

import type { ErrorSource, HarnessKind } from "./harness-kind.js";

/** Codex reconnect watchdog: a fallback close-out, not a diagnosis (MC-11). */
export const CODEX_RECONNECT_WATCHDOG_MS = 120_000;

export type TimeoutKind = "pi-prompt-timeout" | "request-timeout" | "network" | "watchdog";

export interface TimeoutFailure {
  harness: HarnessKind;
  kind: TimeoutKind;
  source: ErrorSource | "watchdog";
  remote?: boolean;
}

/** Every recovery a caller might try; all but "handoff"/"report" are never allowed here (MC-11). */
export type RecoveryAction = "handoff" | "rollover" | "replay" | "compress" | "auto-continue" | "report";

export interface TimeoutVerdict {
  allowed: readonly RecoveryAction[];
  reason: string;
}

const REPORT_ONLY: readonly RecoveryAction[] = Object.freeze(["report"]);

export function timeoutPolicy(failure: TimeoutFailure): TimeoutVerdict {
  if (failure.source === "stderr")
    return { allowed: [], reason: "stderr is diagnostic only; it never drives recovery" };
  if (failure.kind === "watchdog" || failure.source === "watchdog") {
    return {
      allowed: REPORT_ONLY,
      reason: "watchdog fired: fallback close-out of the turn, not a diagnosis",
    };
  }
  if (failure.kind === "pi-prompt-timeout" && failure.harness === "pi" && failure.source === "protocol") {
    if (failure.remote)
      return { allowed: REPORT_ONLY, reason: "remote Pi prompt timeout: no local handoff exists" };
    return { allowed: ["handoff", "report"], reason: "Pi prompt timeout: the one timeout that may hand off" };
  }
  if (failure.kind === "network")
    return { allowed: REPORT_ONLY, reason: `${failure.harness} network failure: report only` };
  return { allowed: REPORT_ONLY, reason: `${failure.harness} ordinary timeout: report only` };
}
