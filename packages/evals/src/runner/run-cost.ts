// The whole run's --max-cost-usd, with the budget machinery's own
// reservations. Before a sample starts it reserves a share of what is left (at most its per-sample
// cost cap); that share becomes the sample company's run USD cap, which RunBudget checks before
// each of the sample's model calls (reserving the call's maximum cost under the store's spend lock),
// so no call can take the run past its limit. A finished sample settles its real cost and gives
// back the rest. When nothing is left and no sample is running, the samples not started are
// skipped, and the report says how many and why. A cost that is not known (a model with no price)
// is counted at the whole share it reserved — never as 0 — and makes the cap untrusted (warned).
export interface RunCostSummary {
  /** The run's limit; null: none given. */
  limitUsd: number | null;
  /** Sum of the samples' known costs; null when any sample's cost is unknown. */
  usd: number | null;
  /** Samples whose cost is unknown (a call with no known price). */
  unpricedSamples: number;
  /** False when a USD limit was set and some cost is unknown: the limit could not be enforced exactly. */
  trusted: boolean;
}

export class RunCost {
  readonly limitUsd: number | null;
  #settled = 0;
  #known = 0;
  #reserved = 0;
  #running = 0;
  #unpriced = 0;
  #exhausted = false;
  #waiting: Array<() => void> = [];

  constructor(limitUsd: number | null) {
    this.limitUsd = limitUsd;
  }

  /**
   * A share of the run's limit for the next sample (at most `cap`); null when the run's limit is
   * spent (the sample must not start). Waits while samples still running hold the rest.
   */
  async reserve(cap: number): Promise<number | null> {
    if (this.limitUsd === null) {
      this.#running++;
      return cap;
    }
    for (;;) {
      if (this.#exhausted) return null;
      const left = this.limitUsd - this.#settled - this.#reserved;
      if (left > 1e-9) {
        const share = Math.min(cap, left);
        this.#reserved += share;
        this.#running++;
        return share;
      }
      if (this.#running === 0) return null;
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  /**
   * The sample that took `share` ended, having cost `usd` (null: unknown). `spent`: the run's limit
   * stopped it (its share had no room for the next call): no further sample starts.
   */
  settle(share: number, usd: number | null, spent = false): void {
    if (spent) this.#exhausted = true;
    this.#running--;
    if (this.limitUsd !== null) this.#reserved -= share;
    if (usd === null) {
      this.#unpriced++;
      this.#settled += this.limitUsd === null ? 0 : share;
    } else {
      this.#settled += usd;
      this.#known += usd;
    }
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  summary(): RunCostSummary {
    return {
      limitUsd: this.limitUsd,
      usd: this.#unpriced > 0 ? null : this.#known,
      unpricedSamples: this.#unpriced,
      trusted: this.limitUsd === null || this.#unpriced === 0,
    };
  }
}
