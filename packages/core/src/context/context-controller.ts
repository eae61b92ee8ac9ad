// Per-session context controller (MC-8, MC-9): occupancy, the compact threshold, Pi's frozen
// native reserve, Claude Code's once-only /compact injection, the compaction digest and the
// in-memory `needsRollover` latch. Harness-neutral: it reads AgentEvents and answers questions;
// the harness adapter performs the actions.

import type { AgentEvent, EventOf } from "../types.js";
import { classifyCompactionFailure, type CompactionPath } from "./classify-compaction-failure.js";
import { EMPTY_COMPACTION_DIGEST, recordCompaction, type CompactionDigest } from "./compaction-digest.js";
import {
  assertValidThreshold,
  assertValidWindow,
  effectiveThreshold,
  reserveTokensFor,
} from "./context-threshold.js";
import type { HarnessKind } from "./harness-kind.js";

export interface ContextControllerOptions {
  harness: HarnessKind;
  contextWindow: number;
  /** Remote sessions have no local rollover (MC-9). */
  remote?: boolean;
  /** Explicit user override of the daily threshold (MC-8); absent means the 90% default. */
  thresholdOverride?: number;
}

/** What survives a restart. Deliberately has no latch field: the latch is live-only (MC-9). */
export interface PersistedContextState {
  harness: HarnessKind;
  contextWindow: number;
  remote: boolean;
  thresholdOverride?: number;
  tokensInWindowEstimate: number;
}

/**
 * rollover-then-send: close the old native window, write the handoff, bootstrap fresh, then send.
 * retry-compact: inject /compact (Claude Code) before the send; the compact failed transiently last turn.
 * none: send as is.
 */
export type SendAction = "rollover-then-send" | "retry-compact" | "none";

export interface SendPreparation {
  action: SendAction;
  reason: string;
}

/** Structured failure details the adapter may know beyond the event's `error` text. */
export interface CompactionEndDetails {
  path?: CompactionPath;
  status?: number;
  code?: string;
}

export const REMOTE_NO_LOCAL_ROLLOVER = "remote: no local rollover";
const FULL_WINDOW = "occupancy ≥ 100%";

export class ContextController {
  readonly harness: HarnessKind;
  readonly contextWindow: number;
  readonly remote: boolean;

  #override: number | undefined;
  #frozenReserve: number | undefined;
  #tokens = 0;
  /** False while the token count is a persisted estimate: estimates drive no decision (MC-9). */
  #tokensLive = true;
  #fired = false;
  /** After an interrupt or failed compact nothing re-injects until the next send (MC-9). */
  #injectSuppressed = false;
  #retryArmed = false;
  #interruptPending = false;
  #latchReason: string | undefined;
  #openPath: CompactionPath | undefined;
  #openTokensBefore: number | undefined;
  #digest: CompactionDigest = EMPTY_COMPACTION_DIGEST;

  constructor(options: ContextControllerOptions) {
    assertValidWindow(options.contextWindow);
    if (options.thresholdOverride !== undefined) assertValidThreshold(options.thresholdOverride);
    this.harness = options.harness;
    this.contextWindow = options.contextWindow;
    this.remote = options.remote ?? false;
    this.#override = options.thresholdOverride;
  }

  /** Restart path: the estimate is kept for display only and never re-creates the latch (MC-9). */
  static fromPersisted(state: PersistedContextState): ContextController {
    const controller = new ContextController(state);
    controller.#tokens = Math.max(0, state.tokensInWindowEstimate);
    controller.#tokensLive = false;
    return controller;
  }

  toPersisted(): PersistedContextState {
    return {
      harness: this.harness,
      contextWindow: this.contextWindow,
      remote: this.remote,
      thresholdOverride: this.#override,
      tokensInWindowEstimate: this.#tokens,
    };
  }

  /** MC-8: native auto-compaction is never disabled; a getter with intentionally no setter. */
  get nativeAutoCompact(): true {
    return true;
  }

  get threshold(): number {
    return effectiveThreshold(this.#override);
  }

  /** Takes effect for Claude Code at once; for Pi only at the next start()/resume() (MC-8). */
  setThresholdOverride(value: number | undefined): void {
    if (value !== undefined) assertValidThreshold(value);
    this.#override = value;
  }

  start(): void {
    this.#frozenReserve = reserveTokensFor(this.contextWindow, this.threshold);
  }

  resume(): void {
    this.start();
  }

  /** Pi's native `compaction.reserveTokens`, frozen at the last start()/resume() (MC-8). */
  piReserveTokens(): number {
    if (this.#frozenReserve === undefined)
      throw new Error("piReserveTokens() needs start() or resume() first");
    return this.#frozenReserve;
  }

  occupancy(): number {
    return this.#tokens / this.contextWindow;
  }

  /** A live token count from the harness; ≥ 100% latches rollover (MC-9). */
  observeTokens(tokensInWindow: number): void {
    if (!Number.isFinite(tokensInWindow) || tokensInWindow < 0)
      throw new RangeError(`invalid token count ${tokensInWindow}`);
    this.#tokens = tokensInWindow;
    this.#tokensLive = true;
    if (this.occupancy() >= 1) this.#latch(FULL_WINDOW);
    // A remote session holds no latch, only a note for its report; it follows the live window.
    else if (this.remote && this.#latchReason === FULL_WINDOW) this.#latchReason = undefined;
  }

  get needsRollover(): boolean {
    return !this.remote && this.#latchReason !== undefined;
  }

  digest(): CompactionDigest {
    return this.#digest;
  }

  /**
   * Claude Code only (MC-8): at the threshold with the window not yet full, inject /compact once.
   * Test-and-set: a true answer sets the "fired" flag, so two callers can never both inject.
   */
  shouldInjectCompact(): boolean {
    if (!this.#canInject() || this.#injectSuppressed) return false;
    this.#fired = true;
    return true;
  }

  /** Stop, graceful stop or an idle watchdog cut a silent compact: clear "fired", re-inject nothing (MC-9). */
  interruptSilentCompaction(): void {
    if (!this.#fired && this.#openPath === undefined) return;
    this.#fired = false;
    this.#injectSuppressed = true;
    this.#interruptPending = true;
  }

  consume(event: AgentEvent, details: CompactionEndDetails = {}): void {
    if (event.type === "compaction_start") {
      this.#openPath = details.path ?? (event.reason === "manual" ? "manual" : "silent");
      this.#openTokensBefore = this.#tokensLive ? this.#tokens : undefined;
    } else if (event.type === "compaction_end") {
      this.#endCompaction(event, details);
    }
  }

  /** What must happen before a send. Idle direct sends take exactly the same path (MC-9). */
  prepareSend(options: { idle: boolean }): SendPreparation {
    const via = options.idle ? "idle direct send" : "send";
    this.#injectSuppressed = false;
    if (this.#latchReason !== undefined) {
      if (this.remote)
        return {
          action: "none",
          reason: `${REMOTE_NO_LOCAL_ROLLOVER} (${this.#latchReason}); ${via} goes to the native window`,
        };
      return { action: "rollover-then-send", reason: `${via}: needsRollover latched (${this.#latchReason})` };
    }
    if (this.#retryArmed) {
      this.#retryArmed = false;
      if (this.#canInject()) {
        this.#fired = true;
        return {
          action: "retry-compact",
          reason: `${via}: retry the compact that failed transiently last turn`,
        };
      }
    }
    return { action: "none", reason: `${via}: session healthy` };
  }

  /**
   * The host's own reasons to hand off at the next send, beside MC-9's: a Pi prompt timeout (MC-11)
   * and a broken token budget found at a terminal error (MC-12). Same latch, same preparation, so
   * there is one rollover path. A remote session holds no latch (needsRollover stays false).
   */
  requestRollover(reason: string): void {
    this.#latch(reason);
  }

  /** The host closed the old native window, wrote a handoff and bootstrapped fresh (MC-9). */
  rolloverCompleted(tokensInFreshWindow: number): void {
    if (this.remote)
      throw new Error(`${REMOTE_NO_LOCAL_ROLLOVER}: a remote session cannot complete a local handoff`);
    this.#latchReason = undefined;
    this.#fired = false;
    this.#retryArmed = false;
    this.#injectSuppressed = false;
    this.#interruptPending = false;
    this.#openPath = undefined;
    this.observeTokens(tokensInFreshWindow);
    this.start();
  }

  #canInject(): boolean {
    const occupancy = this.occupancy();
    return (
      this.harness === "claude-code" &&
      this.#tokensLive &&
      !this.#fired &&
      this.#latchReason === undefined &&
      occupancy >= this.threshold &&
      occupancy < 1
    );
  }

  #latch(reason: string): void {
    this.#latchReason ??= reason;
  }

  #endCompaction(event: EventOf<"compaction_end">, details: CompactionEndDetails): void {
    const path = details.path ?? this.#openPath ?? "silent";
    const tokens = {
      tokensBefore: event.tokensBefore ?? this.#openTokensBefore,
      tokensAfter: event.tokensAfter,
    };
    const interrupted = this.#interruptPending;
    this.#openPath = undefined;
    this.#openTokensBefore = undefined;
    this.#interruptPending = false;
    this.#fired = false;

    const blankSummary = event.summary !== undefined && event.summary.trim() === "";
    if (event.ok && !blankSummary) {
      this.#retryArmed = false;
      if (this.remote) this.#latchReason = undefined;
      if (event.tokensAfter !== undefined) this.observeTokens(event.tokensAfter);
      this.#digest = recordCompaction(this.#digest, "ok", `${path} compaction succeeded`, tokens);
      return;
    }
    if (interrupted) {
      this.#digest = recordCompaction(
        this.#digest,
        "interrupted",
        `${path} compaction interrupted; fired cleared, nothing re-injected`,
        tokens,
      );
      return;
    }

    const verdict = classifyCompactionFailure({
      ...details,
      message: event.error,
      harness: this.harness,
      path,
      summary: event.summary,
    });
    this.#injectSuppressed = true;
    if (path === "manual") {
      // MC-9: a failed manual compact never latches and arms no retry.
      this.#digest = recordCompaction(
        this.#digest,
        verdict.kind,
        `${verdict.reason} (manual: never latches)`,
        tokens,
      );
      return;
    }
    if (verdict.kind === "deterministic") this.#latch(verdict.reason);
    // Only Claude Code has a host compact path to retry; Pi retries natively, Codex has none (MC-8).
    if (verdict.kind === "transient" && this.harness === "claude-code") this.#retryArmed = true;
    this.#digest = recordCompaction(this.#digest, verdict.kind, verdict.reason, tokens);
  }
}
