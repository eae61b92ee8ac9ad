// MC-14 exec-yield heuristic, locked by fixtures in the documented Codex exec event format
// (__fixtures__/exec-yield/*.jsonl; each one's first line says where its format comes from: lines
// recorded from the real Codex 0.163.0, or the documented shapes of codex-rs
// exec/src/event_processor_with_jsonl_output.rs / exec_events.rs and code mode's tool descriptions).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TurnSettlement } from "../../context/turn-settlement.js";
import { ExecYieldDetector, continuationPrompt, lostHandleReason } from "./exec-yield.js";
import type { CodexLine } from "./translate/wire.js";

const DIR = fileURLToPath(new URL("./__fixtures__/exec-yield/", import.meta.url));

async function lines(name: string): Promise<CodexLine[]> {
  return (await readFile(DIR + name, "utf8"))
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as CodexLine & { $source?: string })
    .filter((l) => l.$source === undefined);
}

async function detect(name: string): Promise<ExecYieldDetector> {
  const d = new ExecYieldDetector();
  for (const line of await lines(name)) d.observe(line);
  return d;
}

describe("MC-14 codex exec yields: the heuristic, locked by fixtures", () => {
  it.each([
    ["origin-0.163.jsonl", ["/bin/bash -lc 'sleep 3; echo finished'"]],
    ["origin-reconciled.jsonl", ["bash -lc 'npm run build'"]],
    ["origin-code-mode.jsonl", ["exec: await tools.exec_command({cmd: 'make test'})"]],
    ["origin-finished.jsonl", []],
  ])("%s: commands left running at turn.completed", async (name, commands) => {
    expect((await detect(name)).yielded().map((y) => y.command)).toEqual(commands);
  });

  it("a command without an id is never given one: its started line alone is no yield", async () => {
    const d = await detect("origin-finished.jsonl");
    expect(d.yielded()).toEqual([]);
  });

  it.each([
    ["continuation-settled.jsonl", "work-settled", "Script completed"],
    ["continuation-running.jsonl", "work-running", undefined],
    ["continuation-unproven-0.163.jsonl", "unproven", undefined],
  ])("%s: what the continuation proved", async (name, evidence, marker) => {
    const proof = (await detect(name)).evidence();
    expect(proof.evidence).toBe(evidence);
    expect(proof.marker).toBe(marker);
  });

  it("the continuation prompt asks to wait on the same work and never to start it again", () => {
    const text = continuationPrompt([{ itemId: "item_1", command: "sleep 3" }]);
    expect(text).toContain("`sleep 3`");
    expect(text).toMatch(/Do not start it again/);
    expect(lostHandleReason([{ itemId: "item_1", command: "sleep 3" }])).toMatch(
      /^lost-handle: `sleep 3`.*not run again/,
    );
  });
});

describe("MC-14 codex: the claim minted on the origin's terminal boundary", () => {
  /** The adapter's use of the ledger, step by step, with what each fixture run reported. */
  function ledger() {
    const terminals: Array<{ id: string; status: string; reason?: string }> = [];
    const interrupted: string[] = [];
    const settlement = new TurnSettlement<undefined>(
      {
        terminal: (id, e) =>
          terminals.push({ id, status: e.status, ...(e.reason ? { reason: e.reason } : {}) }),
        interrupt: (sdk) => void interrupted.push(sdk),
      },
      { continuationBudget: 2 },
    );
    return { settlement, terminals, interrupted };
  }

  it("yield → one continuation → settled: exactly one done", async () => {
    const { settlement, terminals } = ledger();
    settlement.begin("p1", undefined);
    settlement.attachSdkTurn("p1", "p1/origin");
    const origin = await detect("origin-code-mode.jsonl");
    expect(settlement.providerCompleted("p1/origin", { claim: origin.yielded().length > 0 })).toMatchObject({
      kind: "held",
    });
    const [claim] = settlement.openClaims("p1");
    settlement.attachSdkTurn("p1", "p1/continuation-1", claim);
    const proof = (await detect("continuation-settled.jsonl")).evidence();
    settlement.providerCompleted("p1/continuation-1", { evidence: proof.evidence });
    expect(terminals).toEqual([{ id: "p1", status: "done" }]);
  });

  it("yield → continuation that proves nothing (the real 0.163 case) → lost-handle, never a replay", async () => {
    const { settlement, terminals } = ledger();
    settlement.begin("p1", undefined);
    settlement.attachSdkTurn("p1", "p1/origin");
    settlement.providerCompleted("p1/origin", {
      claim: (await detect("origin-0.163.jsonl")).yielded().length > 0,
    });
    const [claim] = settlement.openClaims("p1");
    settlement.attachSdkTurn("p1", "p1/continuation-1", claim);
    settlement.providerCompleted("p1/continuation-1", {
      evidence: (await detect("continuation-unproven-0.163.jsonl")).evidence().evidence,
    });
    expect(terminals).toEqual([{ id: "p1", status: "failed", reason: "lost-handle" }]);
  });

  it("a late foreign terminal (the origin's again, another turn's) never settles or ends the claim", () => {
    const { settlement, terminals } = ledger();
    settlement.begin("p1", undefined);
    settlement.attachSdkTurn("p1", "p1/origin");
    settlement.providerCompleted("p1/origin", { claim: true });
    const [claim] = settlement.openClaims("p1");
    settlement.attachSdkTurn("p1", "p1/continuation-1", claim);
    expect(settlement.providerCompleted("p1/origin", { evidence: "work-settled" })).toMatchObject({
      kind: "ignored",
    });
    expect(settlement.providerFailed("p0/origin", "a late failure of another turn")).toMatchObject({
      kind: "ignored",
    });
    expect(settlement.openClaims("p1")).toEqual([claim]);
    expect(terminals).toEqual([]);
  });

  it("Stop while a continuation is starting: tombstoned by its turn id, interrupted, exactly one cancelled", () => {
    const { settlement, terminals, interrupted } = ledger();
    settlement.begin("p1", undefined);
    settlement.attachSdkTurn("p1", "p1/origin");
    settlement.providerCompleted("p1/origin", { claim: true });
    const [claim] = settlement.openClaims("p1");
    settlement.cancel("p1", "cancelled by the operator"); // Stop before Codex accepted the continuation
    expect(settlement.attachSdkTurn("p1", "p1/continuation-1", claim)).toBe("tombstoned");
    expect(settlement.providerCompleted("p1/continuation-1", { evidence: "work-settled" })).toMatchObject({
      kind: "ignored",
    });
    expect(interrupted).toEqual(["p1/continuation-1"]);
    expect(terminals).toEqual([{ id: "p1", status: "cancelled", reason: "cancelled by the operator" }]);
  });
});
