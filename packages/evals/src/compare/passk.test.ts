import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flakiness, passHatK } from "./passk.js";

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}

describe("pass^k = C(c,k)/C(n,k)", () => {
  it.each([
    // n, c, k, expected (worked by hand)
    [8, 8, 3, 1],
    [8, 7, 3, 35 / 56], // C(7,3)=35, C(8,3)=56
    [8, 6, 3, 20 / 56], // C(6,3)=20
    [10, 5, 2, 10 / 45], // C(5,2)=10, C(10,2)=45
    [5, 2, 3, 0], // fewer passes than k: no k-subset all passes
    [4, 3, 4, 0],
    [4, 3, 1, 3 / 4], // k=1 is the pass rate
    [8, 0, 1, 0],
    [1, 1, 1, 1],
  ])("n=%i c=%i k=%i → %f", (n, c, k, expected) => {
    expect(passHatK(n, c, k)).toBeCloseTo(expected, 12);
  });

  it("agrees with exact binomials for every small n, c, k", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 40 })
          .chain((n) =>
            fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n })),
          ),
        ([n, c, k]) => {
          const exact = Number(binomial(c, k)) / Number(binomial(n, k));
          expect(passHatK(n, c, k)).toBeCloseTo(exact, 9);
        },
      ),
    );
  });

  it("refuses impossible arguments with a message naming them", () => {
    expect(() => passHatK(4, 5, 1)).toThrow(/0 ≤ c ≤ n.*c=5/);
    expect(() => passHatK(4, 2, 5)).toThrow(/1 ≤ k ≤ n.*k=5/);
    expect(() => passHatK(4, 2, 0)).toThrow(/1 ≤ k ≤ n/);
    expect(() => passHatK(4, 1.5, 1)).toThrow(/whole numbers/);
  });

  it("flakiness = pass^1 − pass^k: 0 when consistent, largest for a scenario that usually passes", () => {
    expect(flakiness(8, 8, 3)).toBe(0);
    expect(flakiness(8, 0, 3)).toBe(0);
    expect(flakiness(8, 7, 3)).toBeCloseTo(7 / 8 - 35 / 56, 12);
    expect(flakiness(8, 4, 3)).toBeCloseTo(4 / 8 - 4 / 56, 12);
  });
});
