import { describe, expect, it } from "vitest";
import { ContinuationQueue, type ContinuationStart } from "./continuation-queue.js";
import { TurnSettlement, type TerminalEvent } from "./turn-settlement.js";

interface Inherited {
  permission: string;
  capabilities: string[];
  review: boolean;
}
const ORIGIN: Inherited = { permission: "unattended-read-only", capabilities: ["fs.read"], review: true };

function setUp() {
  const terminals: TerminalEvent[] = [];
  const interrupts: string[] = [];
  const ledger = new TurnSettlement<Inherited>({
    terminal: (_id, e) => void terminals.push(e),
    interrupt: (id) => void interrupts.push(id),
  });
  const queue = new ContinuationQueue(ledger);
  ledger.begin("P", ORIGIN);
  ledger.attachSdkTurn("P", "P/0");
  return { ledger, queue, terminals, interrupts };
}

/** A start function that records calls and hands out SDK turn ids. */
function starter() {
  const calls: Array<ContinuationStart<Inherited>> = [];
  let n = 0;
  return { calls, start: async (s: ContinuationStart<Inherited>) => (calls.push(s), `P/c${++n}`) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("MC-14 continuation queue", () => {
  it("MC-14 internal continuations of one product turn run one at a time", async () => {
    const { ledger, queue, terminals } = setUp();
    ledger.providerCompleted("P/0", { claim: true });
    const [claim = ""] = ledger.openClaims("P");
    const { calls, start } = starter();
    const first = queue.run(claim, start);
    const second = queue.run(claim, start);
    await tick();
    expect(calls).toHaveLength(1); // the second waits for the first SDK turn to end
    ledger.providerCompleted("P/c1", { evidence: "work-running" });
    expect(await first).toEqual({ status: "ran", sdkTurnId: "P/c1" });
    await tick();
    expect(calls).toHaveLength(2);
    ledger.providerCompleted("P/c2", { evidence: "work-settled" });
    expect(await second).toEqual({ status: "ran", sdkTurnId: "P/c2" });
    expect(terminals).toEqual([{ type: "terminal", status: "done" }]);
  });

  it("MC-14 continuations inherit the origin's permission policy, capability selection and review intent", async () => {
    const { ledger, queue } = setUp();
    ledger.providerCompleted("P/0", { claim: true });
    const [claim = ""] = ledger.openClaims("P");
    const { calls, start } = starter();
    const run = queue.run(claim, start);
    await tick();
    expect(calls[0]?.inherited).toBe(ORIGIN);
    ledger.providerCompleted("P/c1", { evidence: "work-settled" });
    await run;
  });

  it.each([
    [
      "MC-14 stop makes queued continuations exit",
      (l: TurnSettlement<Inherited>) => l.cancel("P", "stop"),
      "cancelled",
    ],
    ["MC-14 close makes queued continuations exit", (l: TurnSettlement<Inherited>) => l.close(), "cancelled"],
    [
      "MC-14 after a failure no further internal turn starts",
      (l: TurnSettlement<Inherited>) => l.providerFailed("P/c1", "boom"),
      "failed",
    ],
    [
      "MC-14 after lost-handle no further internal turn starts",
      (l: TurnSettlement<Inherited>) => l.providerCompleted("P/c1", {}),
      "failed",
    ],
  ] as const)("%s", async (_name, endIt, status) => {
    const { ledger, queue, terminals, interrupts } = setUp();
    ledger.providerCompleted("P/0", { claim: true });
    const [claim = ""] = ledger.openClaims("P");
    const { calls, start } = starter();
    const first = queue.run(claim, start);
    const queued = queue.run(claim, start);
    await tick();
    endIt(ledger);
    expect(await first).toEqual({ status: "ran", sdkTurnId: "P/c1" });
    expect((await queued).status).toBe("cancelled");
    expect(calls).toHaveLength(1);
    expect(terminals.map((t) => t.status)).toEqual([status]);
    if (status === "cancelled") expect(interrupts).toEqual(["P/c1"]);
  });

  it("MC-14 a start failure is reported once, by the continuation layer", async () => {
    const { ledger, queue, terminals } = setUp();
    ledger.providerCompleted("P/0", { claim: true });
    const [claim = ""] = ledger.openClaims("P");
    const failing = queue.run(claim, () => Promise.reject(new Error("turn/start rejected")));
    const queued = queue.run(claim, async () => "never");
    expect(await failing).toEqual({
      status: "cancelled",
      reason: "continuation start failed: turn/start rejected",
    });
    expect((await queued).status).toBe("cancelled");
    expect(terminals).toEqual([
      { type: "terminal", status: "failed", reason: "continuation-start-failed: turn/start rejected" },
    ]);
  });

  it("MC-14 stop while the start RPC is pending: the accepted turn is tombstoned and interrupted, cancelled reported once", async () => {
    const { ledger, queue, terminals, interrupts } = setUp();
    ledger.providerCompleted("P/0", { claim: true });
    const [claim = ""] = ledger.openClaims("P");
    let accept!: (id: string) => void;
    const run = queue.run(claim, () => new Promise<string>((resolve) => (accept = resolve)));
    await tick();
    ledger.cancel("P", "stop");
    accept("P/c1");
    expect((await run).status).toBe("cancelled");
    expect(interrupts).toEqual(["P/c1"]);
    expect(ledger.providerInterrupted("P/c1").kind).toBe("ignored");
    expect(terminals).toEqual([{ type: "terminal", status: "cancelled", reason: "stop" }]);
  });

  it("MC-14 a run for an unknown claim exits without starting", async () => {
    const { queue } = setUp();
    const { calls, start } = starter();
    expect((await queue.run("nope", start)).status).toBe("cancelled");
    expect(calls).toHaveLength(0);
  });
});
