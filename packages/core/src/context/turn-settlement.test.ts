import { describe, expect, it } from "vitest";
import type { Usage } from "../types.js";
import { TurnSettlement, type TerminalEvent, type TurnSettlementOptions } from "./turn-settlement.js";

const U = (input: number): Usage => ({ input, output: 1, cacheRead: 0, cacheWrite: 0 });

function makeLedger(options: TurnSettlementOptions = {}) {
  const terminals: Array<[string, TerminalEvent]> = [];
  const interrupts: string[] = [];
  const usage: Array<[string, Usage]> = [];
  const ledger: TurnSettlement<{ policy: string }> = new TurnSettlement(
    {
      terminal: (id, event) => {
        // Settled synchronously before the terminal goes out (MC-14).
        expect(ledger.openClaims(id)).toEqual([]);
        expect(ledger.isTurnRunning(id)).toBe(false);
        terminals.push([id, event]);
      },
      usage: (id, u) => void usage.push([id, u]),
      interrupt: (sdk) => void interrupts.push(sdk),
    },
    options,
  );
  return { ledger, terminals, interrupts, usage };
}

/** Product turn P with origin SDK turn `${P}/0`. */
function begin(l: TurnSettlement<{ policy: string }>, id = "P") {
  l.begin(id, { policy: "read-only" });
  l.attachSdkTurn(id, `${id}/0`);
}

/** Origin completes with a claim; returns the claim id. */
function claimed(l: TurnSettlement<{ policy: string }>, id = "P"): string {
  begin(l, id);
  const outcome = l.providerCompleted(`${id}/0`, { claim: true, usage: U(10) });
  if (outcome.kind !== "held") throw new Error("expected held");
  return outcome.claimIds[0] ?? "";
}

describe("MC-14 turn settlement", () => {
  it("MC-14 a provider completion without a claim settles the turn done and its usage at once", () => {
    const { ledger, terminals, usage } = makeLedger();
    begin(ledger);
    expect(ledger.providerCompleted("P/0", { usage: U(5) })).toEqual({ kind: "ended", status: "done" });
    expect(terminals).toEqual([["P", { type: "terminal", status: "done" }]]);
    expect(usage).toEqual([["P", U(5)]]);
  });

  it("MC-14 only a claim minted at the completion boundary holds the product turn open", () => {
    const { ledger, terminals } = makeLedger();
    const claim = claimed(ledger);
    expect(ledger.isTurnRunning("P")).toBe(true);
    expect(terminals).toEqual([]);
    expect(ledger.attachSdkTurn("P", "P/1", claim)).toBe("attached");
    ledger.providerCompleted("P/1", { evidence: "work-settled" });
    expect(terminals).toEqual([["P", { type: "terminal", status: "done" }]]);
  });

  it("MC-14 a completion for an unclaimed boundary cannot be held open afterwards", () => {
    const { ledger, terminals } = makeLedger();
    begin(ledger);
    ledger.providerCompleted("P/0");
    // A late claim attempt arrives as another completion of the same (tombstoned) SDK turn.
    expect(ledger.providerCompleted("P/0", { claim: true }).kind).toBe("ignored");
    expect(terminals).toHaveLength(1);
  });

  it("MC-14 late events of another turn never settle, cancel or fail a claim, emit done, or settle usage", () => {
    const { ledger, terminals, usage } = makeLedger();
    begin(ledger, "OLD");
    ledger.providerCompleted("OLD/0");
    const claim = claimed(ledger, "P");
    ledger.attachSdkTurn("P", "P/1", claim);
    const before = usage.length;
    for (const sdk of ["OLD/0", "GHOST"]) {
      expect(ledger.providerCompleted(sdk, { usage: U(99), evidence: "work-settled" }).kind).toBe("ignored");
      expect(ledger.providerFailed(sdk, "late failure").kind).toBe("ignored");
      expect(ledger.providerInterrupted(sdk).kind).toBe("ignored");
    }
    expect(usage.length).toBe(before);
    expect(ledger.claimState(claim)).toBe("open");
    expect(ledger.isTurnRunning("P")).toBe(true);
    expect(terminals.filter(([id]) => id === "P")).toEqual([]);
  });

  it("MC-14 a continuation that cannot prove its work survived reports lost-handle", () => {
    const { ledger, terminals } = makeLedger();
    const claim = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", claim);
    ledger.providerCompleted("P/1", {});
    expect(terminals).toEqual([["P", { type: "terminal", status: "failed", reason: "lost-handle" }]]);
  });

  it("MC-14 work still running keeps the claim within the budget, then fails", () => {
    const { ledger, terminals } = makeLedger({ continuationBudget: 2 });
    const claim = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", claim);
    expect(ledger.providerCompleted("P/1", { evidence: "work-running" })).toEqual({
      kind: "held",
      claimIds: [claim],
    });
    ledger.attachSdkTurn("P", "P/2", claim);
    ledger.providerCompleted("P/2", { evidence: "work-running" });
    expect(terminals).toEqual([
      ["P", { type: "terminal", status: "failed", reason: "continuation budget exhausted" }],
    ]);
  });

  it("MC-14 a non-retry failure settles the open claim synchronously", () => {
    const { ledger, terminals } = makeLedger();
    const claim = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", claim);
    ledger.providerFailed("P/1", "transport closed");
    expect(ledger.claimState(claim)).toBe("settled");
    expect(terminals).toEqual([["P", { type: "terminal", status: "failed", reason: "transport closed" }]]);
  });

  it("MC-14 a retry is not a terminal path: the claim stays open", () => {
    const { ledger, terminals } = makeLedger();
    const claim = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", claim);
    expect(ledger.providerFailed("P/1", "overloaded", { retry: true }).kind).toBe("held");
    expect(ledger.claimState(claim)).toBe("open");
    ledger.attachSdkTurn("P", "P/2", claim);
    ledger.providerCompleted("P/2", { evidence: "work-settled" });
    expect(terminals).toEqual([["P", { type: "terminal", status: "done" }]]);
  });

  it("MC-14 cancel after a continuation start was accepted: tombstone by id, interrupt, cancelled once", () => {
    const { ledger, terminals, interrupts } = makeLedger();
    const claim = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", claim);
    expect(ledger.cancel("P", "user stop")).toBe(true);
    expect(interrupts).toEqual(["P/1"]);
    expect(ledger.providerInterrupted("P/1").kind).toBe("ignored"); // the tombstone swallows it
    expect(ledger.providerCompleted("P/1", { evidence: "work-settled" }).kind).toBe("ignored");
    expect(ledger.cancel("P")).toBe(false);
    expect(terminals).toEqual([["P", { type: "terminal", status: "cancelled", reason: "user stop" }]]);
  });

  it("MC-14 a start accepted after the cancel is tombstoned and interrupted, and reports nothing again", () => {
    const { ledger, terminals, interrupts } = makeLedger();
    const claim = claimed(ledger);
    ledger.cancel("P");
    expect(ledger.attachSdkTurn("P", "P/1", claim)).toBe("tombstoned");
    expect(interrupts).toEqual(["P/1"]);
    expect(terminals).toHaveLength(1);
  });

  it("MC-14 a provider interrupt of a live SDK turn cancels the product turn", () => {
    const { ledger, terminals } = makeLedger();
    begin(ledger);
    ledger.providerInterrupted("P/0");
    expect(terminals).toEqual([["P", { type: "terminal", status: "cancelled", reason: "interrupted" }]]);
  });

  it("MC-14 a throwing interrupt stays best-effort", () => {
    const terminals: TerminalEvent[] = [];
    const ledger = new TurnSettlement({
      terminal: (_id, e) => void terminals.push(e),
      interrupt: () => {
        throw new Error("gone");
      },
    });
    ledger.begin("P", {});
    ledger.attachSdkTurn("P", "P/0");
    expect(() => ledger.cancel("P")).not.toThrow();
    expect(terminals).toEqual([{ type: "terminal", status: "cancelled", reason: "cancelled" }]);
  });

  it("MC-14 items are counted once on completion snapshots; ids are never invented", () => {
    const { ledger } = makeLedger();
    begin(ledger);
    ledger.providerCompleted("P/0", { claim: true, items: [{ id: "a" }, { id: "b" }, {}] });
    const [claim] = ledger.openClaims("P");
    ledger.attachSdkTurn("P", "P/1", claim);
    ledger.providerCompleted("P/1", { evidence: "work-settled", items: [{ id: "a" }, { id: "c" }, {}] });
    expect(ledger.itemCountOf("P")).toBe(5); // a, b, c + one anonymous item per snapshot
  });

  it("MC-14 a turn with two claims ends only after both settle", () => {
    const { ledger, terminals } = makeLedger();
    const first = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", first);
    const held = ledger.providerCompleted("P/1", { evidence: "work-settled", claim: true });
    expect(held.kind).toBe("held");
    const [second] = ledger.openClaims("P");
    expect(second).not.toBe(first);
    expect(terminals).toEqual([]);
    ledger.attachSdkTurn("P", "P/2", second);
    ledger.providerCompleted("P/2", { evidence: "work-settled" });
    expect(terminals).toEqual([["P", { type: "terminal", status: "done" }]]);
  });

  it("MC-14 a claim cannot be used by another product turn", () => {
    const { ledger } = makeLedger();
    const claim = claimed(ledger, "P");
    begin(ledger, "Q");
    expect(() => ledger.attachSdkTurn("Q", "Q/1", claim)).toThrow(/does not belong/);
  });

  it("MC-14 continuations of one product turn cannot run concurrently", () => {
    const { ledger } = makeLedger();
    const claim = claimed(ledger);
    ledger.attachSdkTurn("P", "P/1", claim);
    expect(ledger.canStartContinuation(claim)).toBe(false);
    expect(() => ledger.attachSdkTurn("P", "P/2", claim)).toThrow(/already has a running SDK turn/);
  });

  it("MC-14 the continuation start failure is reported once", () => {
    const { ledger, terminals } = makeLedger();
    const claim = claimed(ledger);
    expect(ledger.continuationStartFailed(claim, "rpc refused")).toBe(true);
    expect(ledger.continuationStartFailed(claim, "rpc refused")).toBe(false);
    expect(ledger.cancel("P")).toBe(false);
    expect(terminals).toEqual([
      ["P", { type: "terminal", status: "failed", reason: "continuation-start-failed: rpc refused" }],
    ]);
  });

  it("MC-14 close cancels every open product turn and refuses new ones", () => {
    const { ledger, terminals } = makeLedger();
    claimed(ledger, "P");
    begin(ledger, "Q");
    ledger.close();
    expect(ledger.openClaims()).toEqual([]);
    expect(terminals.map(([id, e]) => [id, e.status])).toEqual([
      ["P", "cancelled"],
      ["Q", "cancelled"],
    ]);
    expect(() => ledger.begin("R", { policy: "x" })).toThrow(/closed/);
  });

  it("MC-14 the product turn keeps the origin's inherited context", () => {
    const { ledger } = makeLedger();
    const inherited = { policy: "unattended-read-only" };
    ledger.begin("P", inherited);
    expect(ledger.inheritedOf("P")).toBe(inherited);
  });
});
