// How fast a failing provider ends a harness wake is the connector's to set, checked in code.
import { UserInputError } from "@cadre/core";
import { describe, expect, it } from "vitest";
import { driverOf } from "./index.js";
import { failureBoundsOf } from "./failure-bounds.js";

const connector = (kind: "claude-code" | "codex", config: Record<string, unknown>) => ({
  kind,
  config,
  enabledModels: [...driverOf(kind).defaultModels],
});

describe("a harness connector's failure bounds (config.maxRetries, config.unreachableMs)", () => {
  it("accepts whole retry counts from 0 to 10 and a positive unreachable bound", () => {
    for (const kind of ["claude-code", "codex"] as const)
      expect(
        driverOf(kind).settingsProblem(connector(kind, { maxRetries: 0, unreachableMs: 5000 }), {}),
      ).toBeUndefined();
    expect(failureBoundsOf({ config: { maxRetries: 3, unreachableMs: 10_000 } })).toEqual({
      maxRetries: 3,
      unreachableMs: 10_000,
    });
    expect(failureBoundsOf({ config: {} })).toEqual({});
  });

  it("refuses anything else, saying what is allowed", () => {
    for (const maxRetries of [-1, 1.5, 11, "2"])
      expect(driverOf("claude-code").settingsProblem(connector("claude-code", { maxRetries }), {})).toMatch(
        /^config\.maxRetries must be a whole number from 0 to 10 .*default 2\); got/,
      );
    expect(driverOf("codex").settingsProblem(connector("codex", { unreachableMs: 0 }), {})).toMatch(
      /^config\.unreachableMs must be a positive number of milliseconds .*default 30000\); got 0$/,
    );
    expect(() => failureBoundsOf({ config: { maxRetries: 99 } })).toThrow(UserInputError);
  });
});
