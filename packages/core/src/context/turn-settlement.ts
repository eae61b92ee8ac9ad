// MC-14 turn settlement: the continuation-claim ledger of one session. A product turn (what the
// user sees) is open until settled; SDK turns (provider turns: the origin, its retries and its
// continuations) are tombstoned when they end, and events for tombstoned or unknown SDK turns are
// late and change nothing. Only a claim minted atomically at a provider completion holds a product
// turn open. Every path that ends a product turn goes through #end, which settles its claims and
// emits its one terminal event synchronously.

import type { EventOf, TerminalStatus, Usage } from "../types.js";

export type TerminalEvent = EventOf<"terminal">;

/** An item of a completion snapshot. Items without an id are never given one (MC-14). */
export interface CompletedItem {
  id?: string;
}

/** What a continuation turn's output proves about the claimed work. */
export type ContinuationEvidence = "work-settled" | "work-running" | "unproven";

export interface ProviderCompletion {
  usage?: Usage;
  items?: readonly CompletedItem[];
  /** Mint a continuation claim on this very terminal boundary (the only way to hold the turn open). */
  claim?: boolean;
  /** Continuation turns only; absent counts as "unproven". */
  evidence?: ContinuationEvidence;
}

export type CompletionOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "held"; claimIds: string[] }
  | { kind: "ended"; status: TerminalStatus };

export interface SettlementHooks {
  /** Called exactly once per product turn. */
  terminal(productTurnId: string, event: TerminalEvent): void;
  /** Usage of one SDK turn, settled at its completion. */
  usage?(productTurnId: string, usage: Usage): void;
  /** Best-effort interrupt of a tombstoned SDK turn that may still be running; errors are swallowed. */
  interrupt?(sdkTurnId: string): void | Promise<void>;
}

export interface TurnSettlementOptions {
  /** Continuations one claim may run while its work still reports running. */
  continuationBudget?: number;
}

export type ClaimState = "open" | "settled";

interface Claim {
  readonly id: string;
  readonly productTurnId: string;
  open: boolean;
  attempts: number;
}

interface ProductTurn<I> {
  readonly id: string;
  readonly inherited: I;
  ended: boolean;
  readonly claims: Map<string, Claim>;
  readonly liveSdkTurns: Set<string>;
  usage: Usage;
  readonly itemIds: Set<string>;
  anonymousItems: number;
}

interface SdkTurn {
  readonly productTurnId: string;
  readonly claimId: string | undefined;
}

const addUsage = (a: Usage, b: Usage): Usage => ({
  input: a.input + b.input,
  output: a.output + b.output,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
});

const ZERO: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** `I` is the origin turn's opaque inherited context: permission policy, capability selection, review intent. */
export class TurnSettlement<I = unknown> {
  readonly #hooks: SettlementHooks;
  readonly #budget: number;
  readonly #turns = new Map<string, ProductTurn<I>>();
  readonly #claims = new Map<string, Claim>();
  readonly #sdkTurns = new Map<string, SdkTurn>();
  readonly #tombstones = new Set<string>();
  readonly #endWaiters = new Map<string, Array<() => void>>();
  #closed = false;
  #claimSeq = 0;

  constructor(hooks: SettlementHooks, options: TurnSettlementOptions = {}) {
    this.#hooks = hooks;
    this.#budget = options.continuationBudget ?? 3;
  }

  get closed(): boolean {
    return this.#closed;
  }

  begin(productTurnId: string, inherited: I): void {
    if (this.#closed) throw new Error("turn settlement is closed");
    if (this.#turns.has(productTurnId)) throw new Error(`product turn ${productTurnId} already exists`);
    this.#turns.set(productTurnId, {
      id: productTurnId,
      inherited,
      ended: false,
      claims: new Map(),
      liveSdkTurns: new Set(),
      usage: ZERO,
      itemIds: new Set(),
      anonymousItems: 0,
    });
  }

  /**
   * The server accepted an SDK turn (origin, retry, or a continuation of `claimId`). If its product
   * turn already ended (cancelled while the start was pending), it is tombstoned by id and
   * interrupted best-effort, and nothing is reported again.
   */
  attachSdkTurn(productTurnId: string, sdkTurnId: string, claimId?: string): "attached" | "tombstoned" {
    const turn = this.#turns.get(productTurnId);
    if (!turn) throw new Error(`unknown product turn ${productTurnId}`);
    if (this.#sdkTurns.has(sdkTurnId) || this.#tombstones.has(sdkTurnId))
      throw new Error(`SDK turn ${sdkTurnId} already attached`);
    const claim = claimId === undefined ? undefined : this.#claims.get(claimId);
    if (claimId !== undefined && claim?.productTurnId !== productTurnId)
      throw new Error(`claim ${claimId} does not belong to ${productTurnId}`);
    // Internal continuations of one product turn run one at a time (MC-14).
    if (claim?.open && !turn.ended && turn.liveSdkTurns.size > 0)
      throw new Error(`product turn ${productTurnId} already has a running SDK turn`);
    this.#sdkTurns.set(sdkTurnId, { productTurnId, claimId });
    if (turn.ended || (claim !== undefined && !claim.open)) {
      this.#tombstone(sdkTurnId);
      this.#interrupt(sdkTurnId);
      return "tombstoned";
    }
    if (claim) claim.attempts += 1;
    turn.liveSdkTurns.add(sdkTurnId);
    return "attached";
  }

  providerCompleted(sdkTurnId: string, completion: ProviderCompletion = {}): CompletionOutcome {
    const live = this.#liveOwner(sdkTurnId);
    if (!live) return { kind: "ignored", reason: "late or foreign completion" };
    const { turn, sdk } = live;
    // The provider turn is over: tombstone it and settle its usage and items at once.
    this.#tombstone(sdkTurnId);
    if (completion.usage) {
      turn.usage = addUsage(turn.usage, completion.usage);
      this.#hooks.usage?.(turn.id, completion.usage);
    }
    for (const item of completion.items ?? []) {
      if (item.id === undefined) turn.anonymousItems += 1;
      else turn.itemIds.add(item.id);
    }

    const claim = sdk.claimId === undefined ? undefined : this.#claims.get(sdk.claimId);
    if (claim?.open) {
      const evidence = completion.evidence ?? "unproven";
      if (evidence === "unproven") return this.#endOutcome(turn, "failed", "lost-handle");
      if (evidence === "work-settled") claim.open = false;
      else if (claim.attempts >= this.#budget)
        return this.#endOutcome(turn, "failed", "continuation budget exhausted");
    }
    if (completion.claim) this.#mint(turn);

    const open = [...turn.claims.values()].filter((c) => c.open).map((c) => c.id);
    if (open.length > 0 || turn.liveSdkTurns.size > 0) return { kind: "held", claimIds: open };
    return this.#endOutcome(turn, "done");
  }

  /** A non-retry failure ends the product turn; a retry only retires this SDK turn. */
  providerFailed(sdkTurnId: string, reason: string, options: { retry?: boolean } = {}): CompletionOutcome {
    const live = this.#liveOwner(sdkTurnId);
    if (!live) return { kind: "ignored", reason: "late or foreign failure" };
    this.#tombstone(sdkTurnId);
    if (options.retry) return { kind: "held", claimIds: this.openClaims(live.turn.id) };
    return this.#endOutcome(live.turn, "failed", reason);
  }

  /** A provider interrupt of a live SDK turn; for a tombstoned one it is swallowed (already reported). */
  providerInterrupted(sdkTurnId: string): CompletionOutcome {
    const live = this.#liveOwner(sdkTurnId);
    if (!live) return { kind: "ignored", reason: "interrupt of a tombstoned or foreign SDK turn" };
    this.#tombstone(sdkTurnId);
    return this.#endOutcome(live.turn, "cancelled", "interrupted");
  }

  /** The continuation layer reports its start failure; this is the only terminal for it. */
  continuationStartFailed(claimId: string, reason: string): boolean {
    const turn = this.#openTurnOfClaim(claimId);
    if (!turn) return false;
    this.#end(turn, "failed", `continuation-start-failed: ${reason}`);
    return true;
  }

  /** Tombstone every SDK turn of the product turn by id, interrupt best-effort, report cancelled once. */
  cancel(productTurnId: string, reason = "cancelled"): boolean {
    const turn = this.#turns.get(productTurnId);
    if (!turn || turn.ended) return false;
    this.#end(turn, "cancelled", reason);
    return true;
  }

  /** Stop/close: every open product turn is cancelled, so queued continuations exit. */
  close(reason = "closed"): void {
    this.#closed = true;
    for (const turn of this.#turns.values()) if (!turn.ended) this.#end(turn, "cancelled", reason);
  }

  isTurnRunning(productTurnId: string): boolean {
    const turn = this.#turns.get(productTurnId);
    return turn !== undefined && !turn.ended;
  }

  openClaims(productTurnId?: string): string[] {
    return [...this.#claims.values()]
      .filter((c) => c.open && (productTurnId === undefined || c.productTurnId === productTurnId))
      .map((c) => c.id);
  }

  claimState(claimId: string): ClaimState | undefined {
    const claim = this.#claims.get(claimId);
    return claim && (claim.open ? "open" : "settled");
  }

  /** A continuation may start only for an open claim of a live product turn with nothing running. */
  canStartContinuation(claimId: string): boolean {
    const turn = this.#openTurnOfClaim(claimId);
    return turn !== undefined && turn.liveSdkTurns.size === 0;
  }

  productTurnOfClaim(claimId: string): string | undefined {
    return this.#claims.get(claimId)?.productTurnId;
  }

  inheritedOf(productTurnId: string): I | undefined {
    return this.#turns.get(productTurnId)?.inherited;
  }

  usageOf(productTurnId: string): Usage | undefined {
    return this.#turns.get(productTurnId)?.usage;
  }

  itemCountOf(productTurnId: string): number | undefined {
    const turn = this.#turns.get(productTurnId);
    return turn && turn.itemIds.size + turn.anonymousItems;
  }

  /** Resolves once the SDK turn is tombstoned (completed, failed, interrupted or cancelled). */
  whenSdkTurnEnds(sdkTurnId: string): Promise<void> {
    if (this.#tombstones.has(sdkTurnId) || !this.#sdkTurns.has(sdkTurnId)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.#endWaiters.get(sdkTurnId) ?? [];
      waiters.push(resolve);
      this.#endWaiters.set(sdkTurnId, waiters);
    });
  }

  #liveOwner(sdkTurnId: string): { turn: ProductTurn<I>; sdk: SdkTurn } | undefined {
    if (this.#closed || this.#tombstones.has(sdkTurnId)) return undefined;
    const sdk = this.#sdkTurns.get(sdkTurnId);
    const turn = sdk && this.#turns.get(sdk.productTurnId);
    return turn && sdk && !turn.ended ? { turn, sdk } : undefined;
  }

  #openTurnOfClaim(claimId: string): ProductTurn<I> | undefined {
    const claim = this.#claims.get(claimId);
    const turn = claim && this.#turns.get(claim.productTurnId);
    return claim?.open && turn && !turn.ended ? turn : undefined;
  }

  #mint(turn: ProductTurn<I>): void {
    const claim: Claim = {
      id: `${turn.id}#claim-${++this.#claimSeq}`,
      productTurnId: turn.id,
      open: true,
      attempts: 0,
    };
    turn.claims.set(claim.id, claim);
    this.#claims.set(claim.id, claim);
  }

  #tombstone(sdkTurnId: string): void {
    this.#tombstones.add(sdkTurnId);
    const owner = this.#sdkTurns.get(sdkTurnId);
    if (owner) this.#turns.get(owner.productTurnId)?.liveSdkTurns.delete(sdkTurnId);
    const waiters = this.#endWaiters.get(sdkTurnId) ?? [];
    this.#endWaiters.delete(sdkTurnId);
    for (const wake of waiters) wake();
  }

  #interrupt(sdkTurnId: string): void {
    try {
      void Promise.resolve(this.#hooks.interrupt?.(sdkTurnId)).catch(() => undefined);
    } catch {
      // Best-effort by definition (MC-14): the cancel is already reported.
    }
  }

  #endOutcome(turn: ProductTurn<I>, status: TerminalStatus, reason?: string): CompletionOutcome {
    this.#end(turn, status, reason);
    return { kind: "ended", status };
  }

  /** The single exit: settle claims and SDK turns synchronously, then emit the one terminal. */
  #end(turn: ProductTurn<I>, status: TerminalStatus, reason?: string): void {
    if (turn.ended) return;
    turn.ended = true;
    for (const claim of turn.claims.values()) claim.open = false;
    for (const sdkTurnId of [...turn.liveSdkTurns]) {
      this.#tombstone(sdkTurnId);
      this.#interrupt(sdkTurnId);
    }
    this.#hooks.terminal(
      turn.id,
      reason === undefined ? { type: "terminal", status } : { type: "terminal", status, reason },
    );
  }
}
