import { describe, expect, it } from "vitest";
import { ProductTurns } from "./product-turns.js";

describe("MC-14 product-turn settlement for a harness without continuations", () => {
  type Step = (t: ReturnType<ProductTurns["begin"]>) => void;
  const rows: Array<[name: string, steps: Step[], status: string, reason?: string]> = [
    ["MC-14 a completed attempt settles done", [(t) => t.attempt(), (t) => t.completed()], "done"],
    [
      "MC-14 a failed attempt settles failed with the provider's reason",
      [(t) => t.attempt(), (t) => t.failed("boom")],
      "failed",
      "boom",
    ],
    [
      "MC-14 a replay retires the attempt without a terminal; the replay's completion settles done",
      [(t) => t.attempt(), (t) => t.retry("overflow"), (t) => t.attempt(), (t) => t.completed()],
      "done",
    ],
    [
      "MC-14 an interrupted attempt settles cancelled",
      [(t) => t.attempt(), (t) => t.interrupted()],
      "cancelled",
      "interrupted",
    ],
    [
      "MC-14 cancel settles cancelled once; a later completion is ignored",
      [(t) => t.attempt(), (t) => t.cancel("stop"), (t) => t.completed(), (t) => t.failed("late")],
      "cancelled",
      "stop",
    ],
    [
      "MC-14 a turn nobody settled is reported failed, never done",
      [(t) => t.attempt()],
      "failed",
      "the turn ended without being settled",
    ],
  ];
  it.each(rows)("%s", (_name, steps, status, reason) => {
    const turns = new ProductTurns("s");
    const turn = turns.begin();
    for (const step of steps) step(turn);
    expect(turn.outcome()).toEqual(reason === undefined ? { status } : { status, reason });
    expect(turn.terminalCount).toBe(1);
    expect(turns.openClaims()).toEqual([]);
    // Reading the outcome again changes nothing: still one terminal.
    turn.outcome();
    expect(turn.terminalCount).toBe(1);
  });

  it("MC-14 cancel while the replay's start is in flight: the attempt is refused, exactly one cancelled terminal", () => {
    const turns = new ProductTurns("s");
    const turn = turns.begin();
    expect(turn.attempt()).toBe(true);
    turn.retry("overflow");
    turn.cancel("cancelled by the operator");
    expect(turn.attempt()).toBe(false); // tombstoned: never runs
    turn.completed();
    expect(turn.outcome()).toEqual({ status: "cancelled", reason: "cancelled by the operator" });
    expect(turn.terminalCount).toBe(1);
  });

  it("turns of one session are independent: a late event of turn 1 never settles turn 2", () => {
    const turns = new ProductTurns("s");
    const first = turns.begin();
    first.attempt();
    first.failed("x");
    const second = turns.begin();
    second.attempt();
    first.completed(); // late, foreign to turn 2
    expect(second.running).toBe(true);
    second.completed();
    expect([first.outcome().status, second.outcome().status]).toEqual(["failed", "done"]);
  });
});
