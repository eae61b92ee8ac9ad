// pass^k: the probability that k samples drawn without replacement from n recorded ones all pass,
// the unbiased estimator C(c,k)/C(n,k) for c passing samples (τ-bench's pass^k). Computed as a
// product so it never overflows: ∏_{i<k} (c−i)/(n−i).

export function passHatK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k))
    throw new RangeError(`pass^k needs whole numbers (n=${n}, c=${c}, k=${k})`);
  if (n < 1 || c < 0 || c > n) throw new RangeError(`pass^k needs 0 ≤ c ≤ n and n ≥ 1 (n=${n}, c=${c})`);
  if (k < 1 || k > n) throw new RangeError(`pass^k needs 1 ≤ k ≤ n (n=${n}, k=${k})`);
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return Math.max(0, p);
}

/**
 * How much reliability is lost when k runs must all pass instead of one: pass^1 − pass^k.
 * 0 when every sample passes or none does (consistent); largest for a scenario that passes often
 * but not always — the one a single lucky run would hide.
 */
export function flakiness(n: number, c: number, k: number): number {
  return passHatK(n, c, 1) - passHatK(n, c, k);
}
