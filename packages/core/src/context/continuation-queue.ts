// MC-14: internal continuations of one product turn run one at a time. Each waits until the
// previous continuation's SDK turn has ended; a queued one whose product turn was stopped, closed
// or failed exits without starting; a start failure is reported once, by this layer; a start
// accepted after a cancel is tombstoned and interrupted. Continuations inherit the origin turn's
// context (permission policy, capability selection, review intent) unchanged.

import type { TurnSettlement } from "./turn-settlement.js";

export interface ContinuationStart<I> {
  productTurnId: string;
  claimId: string;
  /** The origin turn's inherited context, the very same object. */
  inherited: I;
}

/** Starts the SDK turn and resolves with its id once the server accepted it. */
export type StartContinuation<I> = (start: ContinuationStart<I>) => Promise<string>;

export type ContinuationRun = { status: "ran"; sdkTurnId: string } | { status: "cancelled"; reason: string };

export class ContinuationQueue<I> {
  readonly #ledger: TurnSettlement<I>;
  readonly #chains = new Map<string, Promise<unknown>>();

  constructor(ledger: TurnSettlement<I>) {
    this.#ledger = ledger;
  }

  /** Queues a continuation for `claimId`; resolves when its SDK turn ended or it exited unstarted. */
  run(claimId: string, start: StartContinuation<I>): Promise<ContinuationRun> {
    const productTurnId = this.#ledger.productTurnOfClaim(claimId);
    if (productTurnId === undefined)
      return Promise.resolve({ status: "cancelled", reason: `unknown claim ${claimId}` });
    const previous = this.#chains.get(productTurnId) ?? Promise.resolve();
    const next = previous.then(() => this.#runOne(productTurnId, claimId, start));
    // The chain itself never rejects, so one broken run cannot jam the ones queued behind it.
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.#chains.set(productTurnId, tail);
    void tail.then(() => {
      if (this.#chains.get(productTurnId) === tail) this.#chains.delete(productTurnId);
    });
    return next;
  }

  async #runOne(
    productTurnId: string,
    claimId: string,
    start: StartContinuation<I>,
  ): Promise<ContinuationRun> {
    if (!this.#ledger.canStartContinuation(claimId)) {
      return {
        status: "cancelled",
        reason: "product turn ended, claim settled or session closed: queued continuation exits",
      };
    }
    // canStartContinuation() just proved the product turn exists, so its inherited context does.
    const inherited = this.#ledger.inheritedOf(productTurnId) as I;
    let sdkTurnId: string;
    try {
      sdkTurnId = await start({ productTurnId, claimId, inherited });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#ledger.continuationStartFailed(claimId, reason);
      return { status: "cancelled", reason: `continuation start failed: ${reason}` };
    }
    if (this.#ledger.attachSdkTurn(productTurnId, sdkTurnId, claimId) === "tombstoned") {
      return {
        status: "cancelled",
        reason: "cancelled while the start was pending: tombstoned and interrupted",
      };
    }
    await this.#ledger.whenSdkTurnEnds(sdkTurnId);
    return { status: "ran", sdkTurnId };
  }
}
