// What a session does after a failed model call (MC-10, MC-11), harness-neutral. One function
// over the failure, the turn's evidence and the replays already made: an explicit context overflow
// in a turn with no assistant output and no tool side effects gets ONE wire-only replay of the
// failed user message; everything else fails closed (reported, never replayed). Timeouts and
// network failures never trigger rollover, replay, compression or an auto-continue loop.

import {
  decideReplay,
  evidenceFromEvents,
  isExplicitContextOverflow,
  timeoutPolicy,
  type HarnessKind,
  type TurnErrorDescription,
  type TurnEvidence,
} from "../context/index.js";
import type { AgentEvent } from "../types.js";
import { type FailureKind, failureKindOf } from "./provider-error.js";

export interface FailedCallInput {
  harness: HarnessKind;
  error: TurnErrorDescription;
  evidence: TurnEvidence;
  /** Wire-only replays already made for this user message. */
  replaysDone: number;
  /** The session is rolling over after a deterministic compaction failure (MC-9/MC-10). */
  afterCompactionRollover?: boolean;
  remote?: boolean;
  /** The session's own Pi prompt timeout aborted this call (MC-11); only the session knows that. */
  promptTimeout?: boolean;
}

export interface RecoveryDecision {
  action: "replay" | "fail-closed";
  kind: FailureKind;
  reason: string;
  /** MC-11: the next send starts from a handoff (a Pi prompt timeout only). */
  handoff?: true;
}

export function decideRecovery(input: FailedCallInput): RecoveryDecision {
  if (input.promptTimeout) {
    // Never replayed (the call may have streamed output); the policy says whether it may hand off.
    const verdict = timeoutPolicy({
      harness: input.harness,
      kind: "pi-prompt-timeout",
      source: "protocol",
      remote: input.remote ?? false,
    });
    return verdict.allowed.includes("handoff")
      ? {
          action: "fail-closed",
          kind: "timeout",
          reason: `${verdict.reason}; no replay: the next send starts from a handoff`,
          handoff: true,
        }
      : {
          action: "fail-closed",
          kind: "timeout",
          reason: `${verdict.reason}; no rollover, no replay`,
        };
  }
  const kind = failureKindOf(input.error, isExplicitContextOverflow);
  if (kind === "context-overflow") {
    const gate = decideReplay({
      error: input.error,
      evidence: input.evidence,
      replaysDone: input.replaysDone,
      ...(input.afterCompactionRollover ? { afterCompactionRollover: true } : {}),
    });
    return gate.replay === "wire-only"
      ? {
          action: "replay",
          kind,
          reason: `${gate.reason}: one wire-only replay of the failed user message`,
        }
      : { action: "fail-closed", kind, reason: `context overflow, not replayed: ${gate.reason}` };
  }
  if (kind === "timeout" || kind === "network") {
    // The session's own prompt timeout is flagged above; any other timeout is a request timeout.
    const verdict = timeoutPolicy({
      harness: input.harness,
      kind: kind === "timeout" ? "request-timeout" : "network",
      source: input.error.source,
      remote: input.remote ?? false,
    });
    return { action: "fail-closed", kind, reason: `${verdict.reason}; no rollover, no replay` };
  }
  return {
    action: "fail-closed",
    kind,
    reason: "not an explicit context-overflow error: reported, never replayed",
  };
}

/**
 * The replay gate's evidence for one product turn, gathered as events stream (MC-4: a reference
 * push per event, no copies). Evidence only grows, and a tool execution already makes it as strong
 * as it can get (output and side effects), so recording stops there.
 */
export class TurnEvidenceTracker {
  #events: AgentEvent[] = [];
  #saturated = false;

  reset(): void {
    this.#events = [];
    this.#saturated = false;
  }

  observe(event: AgentEvent): void {
    if (this.#saturated) return;
    this.#events.push(event);
    if (event.type === "tool_use" || event.type === "tool_result") this.#saturated = true;
  }

  /** The one evidence rule of the replay gate, over what this turn streamed. */
  evidence(): TurnEvidence {
    return evidenceFromEvents(this.#events);
  }
}
