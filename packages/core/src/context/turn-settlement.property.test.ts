import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TurnSettlement, type ContinuationEvidence, type TerminalEvent } from "./turn-settlement.js";

// Random interleavings of provider completions, continuation claims, cancels, failures and late
// events from other turns (MC-14).

type Op =
  | { op: "begin" }
  | { op: "complete"; sdk: number; claim: boolean; evidence: ContinuationEvidence | undefined; usage: number }
  | { op: "continue"; claim: number }
  | { op: "retry-origin"; turn: number }
  | { op: "fail"; sdk: number; retry: boolean }
  | { op: "interrupt"; sdk: number }
  | { op: "cancel"; turn: number }
  | { op: "start-failed"; claim: number };

const index = fc.nat({ max: 40 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ op: "begin" as const }),
  fc.record({
    op: fc.constant("complete" as const),
    sdk: index,
    claim: fc.boolean(),
    evidence: fc.constantFrom<ContinuationEvidence | undefined>(
      "work-settled",
      "work-running",
      "unproven",
      undefined,
    ),
    usage: fc.nat({ max: 100 }),
  }),
  fc.record({ op: fc.constant("continue" as const), claim: index }),
  fc.record({ op: fc.constant("retry-origin" as const), turn: index }),
  fc.record({ op: fc.constant("fail" as const), sdk: index, retry: fc.boolean() }),
  fc.record({ op: fc.constant("interrupt" as const), sdk: index }),
  fc.record({ op: fc.constant("cancel" as const), turn: index }),
  fc.record({ op: fc.constant("start-failed" as const), claim: index }),
);

const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

interface RunReport {
  violations: string[];
  /** Coverage: which terminal statuses and claim holds this interleaving reached. */
  statuses: Set<string>;
  claimsMinted: number;
}

function run(ops: readonly Op[], budget: number): RunReport {
  const violations: string[] = [];
  const statuses = new Set<string>();
  const terminals = new Map<string, TerminalEvent[]>();
  const emittedNow: string[] = [];
  const ledger: TurnSettlement<{ origin: string }> = new TurnSettlement(
    {
      terminal: (id, event) => {
        if (ledger.openClaims(id).length > 0) violations.push(`${id} ended with an open claim`);
        if (ledger.isTurnRunning(id)) violations.push(`${id} still running at its terminal`);
        terminals.set(id, [...(terminals.get(id) ?? []), event]);
        statuses.add(event.reason === "closed" ? "closed" : event.status);
        emittedNow.push(id);
      },
      usage: (id) => {
        if (terminals.has(id)) violations.push(`usage settled for ${id} after its terminal`);
      },
    },
    { continuationBudget: budget },
  );

  const turns: string[] = [];
  const sdkOwner = new Map<string, string>();
  const sdkIds: string[] = ["FOREIGN-1", "FOREIGN-2"]; // never attached: pure late/foreign noise
  const claims: string[] = [];
  /** SDK turns the model knows are over: any later event for them must be ignored. */
  const endedSdk = new Set<string>();
  const expectIgnoredIfEnded = (sdk: string, kind: string) => {
    if (endedSdk.has(sdk) && kind !== "ignored")
      violations.push(`late event for ended SDK turn ${sdk} was not ignored`);
    if (kind !== "ignored") endedSdk.add(sdk);
  };
  let seq = 0;
  const newSdk = (turn: string) => {
    const id = `${turn}/s${++seq}`;
    sdkOwner.set(id, turn);
    sdkIds.push(id);
    return id;
  };

  for (const step of ops) {
    emittedNow.length = 0;
    let target: string | undefined;
    switch (step.op) {
      case "begin": {
        const id = `T${turns.length}`;
        turns.push(id);
        ledger.begin(id, { origin: id });
        ledger.attachSdkTurn(id, newSdk(id));
        target = id;
        break;
      }
      case "complete": {
        const sdk = pick(sdkIds, step.sdk) ?? "FOREIGN-1";
        target = sdkOwner.get(sdk);
        const outcome = ledger.providerCompleted(sdk, {
          claim: step.claim,
          evidence: step.evidence,
          usage: { input: step.usage, output: 0, cacheRead: 0, cacheWrite: 0 },
        });
        expectIgnoredIfEnded(sdk, outcome.kind);
        if (outcome.kind === "held")
          for (const c of outcome.claimIds) if (!claims.includes(c)) claims.push(c);
        break;
      }
      case "continue": {
        const claim = pick(claims, step.claim);
        const turn = claim === undefined ? undefined : ledger.productTurnOfClaim(claim);
        if (claim === undefined || turn === undefined) break;
        target = turn;
        if (ledger.canStartContinuation(claim)) {
          if (ledger.attachSdkTurn(turn, newSdk(turn), claim) !== "attached")
            violations.push(`attach refused for open claim ${claim}`);
        } else if (!ledger.isTurnRunning(turn)) {
          if (ledger.attachSdkTurn(turn, newSdk(turn), claim) !== "tombstoned")
            violations.push(`late start for ended ${turn} not tombstoned`);
        }
        break;
      }
      case "retry-origin": {
        const turn = pick(turns, step.turn);
        if (turn === undefined) break;
        target = turn;
        ledger.attachSdkTurn(turn, newSdk(turn));
        break;
      }
      case "fail": {
        const sdk = pick(sdkIds, step.sdk) ?? "FOREIGN-1";
        target = sdkOwner.get(sdk);
        expectIgnoredIfEnded(sdk, ledger.providerFailed(sdk, "boom", { retry: step.retry }).kind);
        break;
      }
      case "interrupt": {
        const sdk = pick(sdkIds, step.sdk) ?? "FOREIGN-1";
        target = sdkOwner.get(sdk);
        expectIgnoredIfEnded(sdk, ledger.providerInterrupted(sdk).kind);
        break;
      }
      case "cancel": {
        target = pick(turns, step.turn);
        if (target !== undefined) ledger.cancel(target);
        break;
      }
      case "start-failed": {
        const claim = pick(claims, step.claim);
        if (claim === undefined) break;
        target = ledger.productTurnOfClaim(claim);
        ledger.continuationStartFailed(claim, "rejected");
        break;
      }
    }
    // An event of one turn never ends another (no unclaimed done, no foreign cancel/fail).
    for (const id of emittedNow)
      if (id !== target) violations.push(`${step.op} on ${target ?? "foreign"} ended ${id}`);
    // Once a product turn ended, all of its SDK turns are over.
    for (const id of emittedNow) for (const [sdk, owner] of sdkOwner) if (owner === id) endedSdk.add(sdk);
  }

  ledger.close();
  for (const id of turns) {
    const count = terminals.get(id)?.length ?? 0;
    if (count !== 1) violations.push(`${id} emitted ${count} terminal events`);
  }
  if (ledger.openClaims().length > 0)
    violations.push(`open claims after close: ${ledger.openClaims().join(",")}`);
  return { violations, statuses, claimsMinted: claims.length };
}

describe("MC-14 turn settlement properties", () => {
  it("MC-14 every product turn ends with exactly one terminal event and no claim is left open after close", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), fc.integer({ min: 1, max: 4 }), (ops, budget) => {
        expect(run(ops, budget).violations).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("MC-14 the generated interleavings reach done, failed, cancelled and held claims", () => {
    const statuses = new Set<string>();
    let claims = 0;
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 120 }), (ops) => {
        const report = run(ops, 2);
        for (const status of report.statuses) statuses.add(status);
        claims += report.claimsMinted;
      }),
      { numRuns: 300 },
    );
    expect(statuses).toEqual(new Set(["done", "failed", "cancelled", "closed"]));
    expect(claims).toBeGreaterThan(0);
  });
});
