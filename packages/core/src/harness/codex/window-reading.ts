// Occupancy for Codex (MC-8): `codex exec` reports thread-cumulative usage once per turn, so a
// turn's increment sums every model call the turn made. Only a one-call turn's input is the window
// itself; with tool calls the increment is divided by the calls the turn can at most have made
// (tool calls + 1). That reading can only be low, never high: a guess must never latch a rollover
// (MC-9: ≥ 100% is a live fact; MC-11: a plain large history never triggers one). Codex compacts
// natively, so a low reading only delays what Codex does anyway.
import type { AgentEvent, Usage } from "../../types.js";

export class CodexWindowReading {
  #toolCalls = 0;
  /** False until a turn's usage is known to be an increment (a resumed thread's first total is not). */
  #baseline: boolean;

  constructor(options: { resumed: boolean }) {
    this.#baseline = !options.resumed;
  }

  /** A new thread reports its own totals from zero. */
  newThread(): void {
    this.#baseline = true;
  }

  /** A resumed thread whose totals so far are known (its rollout): its next total is an increment. */
  baselineKnown(): void {
    this.#baseline = true;
  }

  /** Window tokens this event lets us read, if any. */
  observe(event: AgentEvent): number | undefined {
    if (event.type === "turn_start") this.#toolCalls = 0;
    else if (event.type === "toolcall_end") this.#toolCalls += 1;
    else if (event.type === "usage") return this.#reading(event.usage);
    return undefined;
  }

  #reading(usage: Usage): number | undefined {
    if (!this.#baseline) {
      this.#baseline = true; // the resumed thread's history so far, not one turn's: no reading
      return undefined;
    }
    return Math.floor((usage.input + usage.cacheRead + usage.cacheWrite) / (this.#toolCalls + 1));
  }
}
