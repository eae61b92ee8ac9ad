// The live context state of one session (MC-8, MC-9, MC-13), harness-neutral: the ContextController
// fed by real usage, plus what a report needs and the controller does not expose — why the latch
// was set, the replays and rollovers made, the last compaction across a model switch. The latch
// itself stays inside the controller, in memory only; a snapshot is display data and never
// re-creates it.

import {
  type CompactionDigest,
  type CompactionEndDetails,
  ContextController,
  type HarnessKind,
  type SendPreparation,
} from "../context/index.js";
import type { AgentEvent, ContextSnapshot, ModelInfo, Usage } from "../types.js";

export interface SessionContextOptions {
  harness: HarnessKind;
  model: ModelInfo;
  /** Explicit user override of the 90% daily threshold (MC-8). */
  thresholdOverride?: number;
  remote?: boolean;
}

/** Tokens a model call put in the native window: everything it read (MC-8 occupancy). */
export function windowTokensOf(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite;
}

export class SessionContext {
  readonly harness: HarnessKind;
  readonly #override: number | undefined;
  readonly #remote: boolean;
  #model: ModelInfo;
  #controller: ContextController;
  #tokens = 0;
  #latchReason: string | undefined;
  #replays = 0;
  #rollovers = 0;
  /** Compactions of controllers this session replaced on a model switch. */
  #earlier: { count: number; succeeded: number; last: CompactionDigest | undefined } = {
    count: 0,
    succeeded: 0,
    last: undefined,
  };

  constructor(options: SessionContextOptions) {
    this.harness = options.harness;
    this.#override = options.thresholdOverride;
    this.#remote = options.remote ?? false;
    this.#model = options.model;
    this.#controller = this.#newController(options.model);
    this.#controller.start(); // MC-8: the reserve is frozen at start
  }

  get controller(): ContextController {
    return this.#controller;
  }

  get model(): ModelInfo {
    return this.#model;
  }

  get contextWindow(): number {
    return this.#controller.contextWindow;
  }

  get tokensInWindow(): number {
    return this.#tokens;
  }

  get needsRollover(): boolean {
    return this.#controller.needsRollover;
  }

  get latchReason(): string | undefined {
    return this.#controller.needsRollover ? this.#latchReason : undefined;
  }

  get replays(): number {
    return this.#replays;
  }

  get rollovers(): number {
    return this.#rollovers;
  }

  /** Pi's native compaction.reserveTokens, frozen at the last start/resume (MC-8). */
  get reserveTokens(): number {
    return this.#controller.piReserveTokens();
  }

  /** Where Pi compacts natively: contextWindow − reserveTokens. */
  get compactAt(): number {
    return this.contextWindow - this.reserveTokens;
  }

  resume(): void {
    this.#controller.resume();
  }

  /**
   * A resumed native session: the window held `tokens` at the end of the last turn. Kept as a
   * restart estimate (MC-9): shown, and read by a model-switch assessment, but it drives no latch;
   * the first live reading replaces it. The reserve is frozen again at this resume (MC-8).
   */
  resumeAt(tokens: number): void {
    this.#controller = ContextController.fromPersisted({
      ...this.#controller.toPersisted(),
      tokensInWindowEstimate: Math.max(0, tokens),
    });
    this.#tokens = Math.max(0, tokens);
    this.#controller.resume();
  }

  /** A live reading from a model call's usage; ≥ 100% latches (MC-9). */
  observeUsage(usage: Usage): void {
    this.#observe(windowTokensOf(usage));
  }

  /** compaction_start / compaction_end, consumed for usage, UI and the digest (MC-8). */
  consume(event: AgentEvent, details: CompactionEndDetails = {}): void {
    const before = this.#controller.needsRollover;
    this.#controller.consume(event, details);
    if (event.type === "compaction_end" && event.ok && event.tokensAfter !== undefined)
      this.#tokens = event.tokensAfter;
    if (!before && this.#controller.needsRollover)
      this.#latchReason = this.#controller.digest().lastReason ?? "deterministic compaction failure";
  }

  /** What must happen before this send; idle direct sends pass the same preparation (MC-9). */
  prepareSend(idle: boolean): SendPreparation {
    return this.#controller.prepareSend({ idle });
  }

  /** The host decided to hand off at the next send (MC-11 Pi prompt timeout, MC-12 broken token budget). */
  requestRollover(reason: string): void {
    const before = this.#controller.needsRollover;
    this.#controller.requestRollover(reason);
    if (!before && this.#controller.needsRollover) this.#latchReason = reason;
  }

  /** The host closed the old window, wrote the handoff and bootstrapped fresh (MC-9). */
  rolloverCompleted(tokensInFreshWindow: number): void {
    this.#controller.rolloverCompleted(tokensInFreshWindow);
    this.#tokens = tokensInFreshWindow;
    this.#latchReason = undefined;
    this.#rollovers += 1;
  }

  replayed(): void {
    this.#replays += 1;
  }

  /** MC-13: the session now routes to `target`; a fresh controller for its window, reserve re-frozen. */
  switchModel(target: ModelInfo): void {
    const digest = this.#controller.digest();
    this.#earlier = {
      count: this.#earlier.count + digest.count,
      succeeded: this.#earlier.succeeded + digest.succeeded,
      last: digest.lastResult ? digest : this.#earlier.last,
    };
    this.#model = target;
    this.#controller = this.#newController(target);
    this.#controller.start();
    this.#observe(this.#tokens);
  }

  snapshot(openClaims: readonly string[] = [], native: { sessionId?: string } = {}): ContextSnapshot {
    const controller = this.#controller;
    const digest = controller.digest();
    const last = digest.lastResult ? digest : this.#earlier.last;
    const latchReason = this.latchReason;
    let reserveTokens: number | undefined;
    try {
      reserveTokens = controller.piReserveTokens();
    } catch {
      reserveTokens = undefined;
    }
    return {
      harness: this.harness,
      model: this.#model.id,
      contextWindow: controller.contextWindow,
      tokensInWindow: this.#tokens,
      occupancy: controller.occupancy(),
      threshold: controller.threshold,
      thresholdSource: this.#override === undefined ? "default" : "override",
      ...(this.harness === "pi" && reserveTokens !== undefined ? { reserveTokens } : {}),
      compactionOwner: this.harness === "claude-code" ? "host" : this.harness,
      ...(native.sessionId !== undefined ? { sessionId: native.sessionId } : {}),
      remote: controller.remote,
      needsRollover: controller.needsRollover,
      ...(latchReason ? { latchReason } : {}),
      openClaims: [...openClaims],
      compactions: {
        count: this.#earlier.count + digest.count,
        succeeded: this.#earlier.succeeded + digest.succeeded,
      },
      ...(last?.lastResult
        ? {
            lastCompaction: {
              result: last.lastResult,
              reason: last.lastReason ?? "",
              ...(last.tokensBefore !== undefined ? { tokensBefore: last.tokensBefore } : {}),
              ...(last.tokensAfter !== undefined ? { tokensAfter: last.tokensAfter } : {}),
            },
          }
        : {}),
      replays: this.#replays,
      rollovers: this.#rollovers,
    };
  }

  #observe(tokens: number): void {
    const before = this.#controller.needsRollover;
    this.#tokens = tokens;
    this.#controller.observeTokens(tokens);
    if (!before && this.#controller.needsRollover)
      this.#latchReason = `occupancy ≥ 100% (${tokens} of ${this.contextWindow} tokens)`;
  }

  #newController(model: ModelInfo): ContextController {
    return new ContextController({
      harness: this.harness,
      contextWindow: model.contextWindow,
      remote: this.#remote,
      ...(this.#override !== undefined ? { thresholdOverride: this.#override } : {}),
    });
  }
}
