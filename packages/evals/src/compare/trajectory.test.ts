import { describe, expect, it } from "vitest";
import { matchesAny, matchTrajectory, type TrajectoryMode } from "./trajectory.js";

const H = (d: string) => `hire:${d}`;
const FILE = "file:approve_ceo_strategy";
const ref = [H("engineering"), H("sales"), H("product"), FILE];

describe("trajectory match modes", () => {
  // candidate, strict, unordered, subset (cand ⊆ ref), superset (cand ⊇ ref)
  const table: Array<[string, string[], boolean, boolean, boolean, boolean]> = [
    ["identical", [...ref], true, true, true, true],
    [
      "same steps, another order",
      [H("sales"), H("engineering"), H("product"), FILE],
      false,
      true,
      true,
      true,
    ],
    ["one hire fewer", [H("engineering"), H("sales"), FILE], false, false, true, false],
    ["one hire more", [...ref.slice(0, 3), H("marketing"), FILE], false, false, false, true],
    ["a different hire", [H("engineering"), H("sales"), H("legal"), FILE], false, false, false, false],
    [
      "the same hire twice instead of once",
      [H("engineering"), H("engineering"), H("product"), FILE],
      false,
      false,
      false,
      false,
    ],
    ["nothing", [], false, false, true, false],
  ];
  it.each(table)("%s", (_label, candidate, strict, unordered, subset, superset) => {
    const got = (mode: TrajectoryMode) => matchTrajectory(candidate, ref, mode);
    expect({
      strict: got("strict"),
      unordered: got("unordered"),
      subset: got("subset"),
      superset: got("superset"),
    }).toEqual({ strict, unordered, subset, superset });
  });

  it("empty against empty matches in every mode", () => {
    for (const mode of ["strict", "unordered", "subset", "superset"] as const)
      expect(matchTrajectory([], [], mode)).toBe(true);
  });

  it("a candidate matches a recorded baseline when it matches one of its samples", () => {
    const samples = [
      [H("engineering"), FILE],
      [H("engineering"), H("sales"), FILE],
    ];
    expect(matchesAny([H("engineering"), H("sales"), FILE], samples, "strict")).toBe(true);
    expect(matchesAny([H("sales"), H("engineering"), FILE], samples, "strict")).toBe(false);
    expect(matchesAny([H("sales"), H("engineering"), FILE], samples, "unordered")).toBe(true);
  });
});
