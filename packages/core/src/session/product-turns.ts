// Turn settlement (MC-14) for a harness whose provider turns never mint continuation claims (Pi:
// the agent loop runs inside one prompt() call). Each product turn is a TurnSettlement product turn;
// each attempt at it (the first send, a wire-only replay) is one SDK turn. A replay retires the
// failed attempt as a retry; every other end goes through the ledger's one exit, so a product turn
// has exactly one outcome. No claim is ever minted here: there is no continuation to hold one.

import { TurnSettlement, type TerminalEvent } from "../context/index.js";
import type { TerminalStatus } from "../types.js";

export interface SettledOutcome {
  status: TerminalStatus;
  reason?: string;
}

const UNSETTLED = "the turn ended without being settled";

export class ProductTurn {
  readonly id: string;
  readonly #ledger: TurnSettlement<undefined>;
  #attempts = 0;
  #current: string | undefined;
  #terminal: TerminalEvent | undefined;
  #terminals = 0;

  constructor(id: string, ledger: TurnSettlement<undefined>) {
    this.id = id;
    this.#ledger = ledger;
  }

  /** Called by the ledger's terminal hook: exactly once per product turn (MC-14). */
  settle(event: TerminalEvent): void {
    this.#terminals += 1;
    this.#terminal = event;
  }

  /** Starts an attempt (an SDK turn). False when the product turn already ended (e.g. cancelled meanwhile). */
  attempt(): boolean {
    const sdkTurnId = `${this.id}/attempt-${++this.#attempts}`;
    this.#current = sdkTurnId;
    return this.#ledger.attachSdkTurn(this.id, sdkTurnId) === "attached";
  }

  get attempts(): number {
    return this.#attempts;
  }

  /** How many terminal events the ledger emitted for this turn (1 once settled, never more). */
  get terminalCount(): number {
    return this.#terminals;
  }

  /** The attempt failed and will be retried inside this product turn (a replay): no terminal. */
  retry(reason: string): void {
    if (this.#current) this.#ledger.providerFailed(this.#current, reason, { retry: true });
  }

  completed(): void {
    if (this.#current) this.#ledger.providerCompleted(this.#current);
  }

  failed(reason: string): void {
    if (this.#current) this.#ledger.providerFailed(this.#current, reason);
  }

  interrupted(): void {
    if (this.#current) this.#ledger.providerInterrupted(this.#current);
  }

  cancel(reason: string): void {
    this.#ledger.cancel(this.id, reason);
  }

  get running(): boolean {
    return this.#ledger.isTurnRunning(this.id);
  }

  /** The one settled outcome; a turn nobody settled (a bug) is reported as failed, never as done. */
  outcome(): SettledOutcome {
    if (this.#ledger.isTurnRunning(this.id) && this.attempt()) this.failed(UNSETTLED);
    const terminal = this.#terminal;
    if (!terminal) return { status: "failed", reason: UNSETTLED };
    return terminal.reason === undefined
      ? { status: terminal.status }
      : { status: terminal.status, reason: terminal.reason };
  }
}

/** One ledger per session; product turn ids are the session id plus a sequence number. */
export class ProductTurns {
  readonly #sessionId: string;
  readonly #live = new Map<string, ProductTurn>();
  readonly #ledger: TurnSettlement<undefined>;
  #seq = 0;

  constructor(sessionId: string) {
    this.#sessionId = sessionId;
    this.#ledger = new TurnSettlement<undefined>({
      terminal: (id, event) => {
        this.#live.get(id)?.settle(event);
        this.#live.delete(id);
      },
    });
  }

  begin(): ProductTurn {
    const id = `${this.#sessionId}#turn-${++this.#seq}`;
    const turn = new ProductTurn(id, this.#ledger);
    this.#live.set(id, turn);
    this.#ledger.begin(id, undefined);
    return turn;
  }

  /** Open continuation claims of the session (always none here: no claim is ever minted). */
  openClaims(): string[] {
    return this.#ledger.openClaims();
  }
}
