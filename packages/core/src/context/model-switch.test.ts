import { describe, expect, it } from "vitest";
import { ContextController } from "./context-controller.js";
import { HARNESS_KINDS } from "./harness-kind.js";
import {
  assessModelSwitch,
  forcedRolloverLine,
  switchModel,
  type ModelSwitchAction,
  type ModelSwitchInput,
} from "./model-switch.js";
import { SessionLock } from "./session-lock.js";

const base: ModelSwitchInput = {
  harness: "claude-code",
  tokensInWindow: 50_000,
  targetContextWindow: 128_000,
  turnRunning: false,
  remote: false,
  localHandoffAvailable: true,
  recoveryInFlight: false,
};
const input = (patch: Partial<ModelSwitchInput>): ModelSwitchInput => ({ ...base, ...patch });

type Row = [name: string, input: ModelSwitchInput, action: ModelSwitchAction];

const rows: Row[] = [
  ["MC-13 fits under 90% of the target window: switch", base, "switch"],
  ["MC-13 just under the target's 90% line: switch", input({ tokensInWindow: 115_199 }), "switch"],
  [
    "MC-13 at the target's 90% line (danger): handoff first, then switch",
    input({ tokensInWindow: 115_200 }),
    "handoff-then-switch",
  ],
  [
    "MC-13 over the target window (overflow): handoff first, then switch",
    input({ tokensInWindow: 150_000 }),
    "handoff-then-switch",
  ],
  ["MC-13 a running turn fails closed", input({ turnRunning: true }), "fail-closed"],
  ["MC-13 a recovery in flight fails closed", input({ recoveryInFlight: true }), "fail-closed"],
  [
    "MC-13 a remote session without local handoff in danger fails closed",
    input({ remote: true, localHandoffAvailable: false, tokensInWindow: 120_000 }),
    "fail-closed",
  ],
  [
    "MC-13 a remote session without local handoff that fits may switch",
    input({ remote: true, localHandoffAvailable: false }),
    "switch",
  ],
  [
    "MC-13 a remote session with a local handoff in danger hands off first",
    input({ remote: true, localHandoffAvailable: true, tokensInWindow: 120_000 }),
    "handoff-then-switch",
  ],
  ["MC-13 uncertain sizes fail closed", input({ tokensInWindow: Number.NaN }), "fail-closed"],
  ["MC-13 a zero target window fails closed", input({ targetContextWindow: 0 }), "fail-closed"],
];

describe("MC-13 model switch assessment", () => {
  it.each(rows)("%s", (_name, value, action) => {
    expect(assessModelSwitch(value).action).toBe(action);
  });

  it.each(HARNESS_KINDS)("MC-13 the forced-rollover line is 90%% of the TARGET window for %s", (harness) => {
    for (const target of [128_000, 200_000, 1_000_000, 10]) {
      const verdict = assessModelSwitch(input({ harness, targetContextWindow: target, tokensInWindow: 0 }));
      expect(verdict.forcedRolloverLine).toBe(forcedRolloverLine(target));
      expect(verdict.forcedRolloverLine).toBe(Math.round(target * 0.9));
    }
  });

  it("MC-13 the line is independent of the daily compact threshold", () => {
    const daily = new ContextController({
      harness: "claude-code",
      contextWindow: 200_000,
      thresholdOverride: 0.5,
    });
    // 100k tokens is past a 50% daily threshold, but under 90% of a 128k target: no forced rollover.
    daily.observeTokens(100_000);
    expect(daily.occupancy()).toBeGreaterThanOrEqual(daily.threshold);
    expect(assessModelSwitch(input({ tokensInWindow: 100_000 })).action).toBe("switch");
  });
});

describe("MC-13 session lock and set-model", () => {
  const deferred = () => {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    return { promise, release };
  };

  it("MC-13 the lock runs holders one at a time, in order", async () => {
    const lock = new SessionLock();
    const log: string[] = [];
    const gate = deferred();
    const first = lock.run(async () => {
      log.push("send:start");
      await gate.promise;
      log.push("send:end");
    });
    const second = lock.run(() => {
      log.push("set-model");
    });
    await Promise.resolve();
    expect(lock.locked).toBe(true);
    expect(log).toEqual(["send:start"]);
    gate.release();
    await Promise.all([first, second]);
    expect(log).toEqual(["send:start", "send:end", "set-model"]);
    expect(lock.locked).toBe(false);
  });

  it("MC-13 a throwing holder releases the lock", async () => {
    const lock = new SessionLock();
    await expect(lock.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(lock.run(() => 42)).resolves.toBe(42);
  });

  it("MC-13 set-model assesses inside the lock, after a running send finished", async () => {
    const lock = new SessionLock();
    let tokens = 50_000;
    const gate = deferred();
    const send = lock.run(async () => {
      await gate.promise;
      tokens = 120_000; // the send grew the window while set-model waited
    });
    const steps: string[] = [];
    const switched = switchModel(lock, {
      snapshot: () => input({ tokensInWindow: tokens }),
      handoffRebuild: async () => void steps.push("handoff"),
      route: async () => void steps.push("route"),
    });
    gate.release();
    await send;
    const verdict = await switched;
    expect(verdict.action).toBe("handoff-then-switch");
    expect(steps).toEqual(["handoff", "route"]);
  });

  it.each([
    ["MC-13 fits: only the new route", input({}), ["route"]],
    [
      "MC-13 danger: handoff first, then the new route",
      input({ tokensInWindow: 200_000 }),
      ["handoff", "route"],
    ],
    ["MC-13 fail closed: neither handoff nor route", input({ turnRunning: true }), []],
  ] as Array<[string, ModelSwitchInput, string[]]>)("%s", async (_name, value, expected) => {
    const steps: string[] = [];
    await switchModel(new SessionLock(), {
      snapshot: () => value,
      handoffRebuild: async () => void steps.push("handoff"),
      route: async () => void steps.push("route"),
    });
    expect(steps).toEqual(expected);
  });
});
