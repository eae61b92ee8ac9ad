// Per-sample caps of an eval run: model calls, tool calls, tokens and
// cost are the sample company's run caps, enforced by the same code as every wake's
// (@cadre/company budgets/run-budget.ts: reserved before each model call, a tool call past the
// cap never runs); wall time is the wake's abort signal. A sample that hits one ends failed with
// a readable reason in its trace; it is a failed sample, never a crash of the run.
import { setBudget } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import type { Store } from "@cadre/store";

export interface SampleCaps {
  modelCalls: number;
  toolCalls: number;
  /** Input + output + cache read + cache write, over the sample's run. */
  tokens: number;
  /** USD at the model registry's price; a model with no known price cannot be held to it (warned). */
  costUsd: number;
  wallTimeMs: number;
}

/** Generous for one CEO wake (the offline CEO makes at most 16 calls), small enough to stop a loop. */
export const DEFAULT_SAMPLE_CAPS: Readonly<SampleCaps> = Object.freeze({
  modelCalls: 40,
  toolCalls: 60,
  tokens: 500_000,
  costUsd: 0.5,
  wallTimeMs: 300_000,
});

export const CAP_KINDS = ["model_calls", "tool_calls", "tokens", "cost", "wall_time", "run_cost"] as const;
export type CapKind = (typeof CAP_KINDS)[number];

export function describeCaps(caps: SampleCaps): string {
  return `per sample: ${caps.modelCalls} model calls, ${caps.toolCalls} tool calls, ${caps.tokens} tokens, $${caps.costUsd} cost, ${Math.round(caps.wallTimeMs / 1000)} s wall time`;
}

export function checkCaps(caps: Partial<SampleCaps>): SampleCaps {
  const out = { ...DEFAULT_SAMPLE_CAPS, ...caps };
  for (const key of ["modelCalls", "toolCalls", "tokens", "wallTimeMs"] as const)
    if (!Number.isInteger(out[key]) || out[key] < 1)
      throw new UserInputError(`the per-sample cap ${key} must be a whole number ≥ 1 (got ${out[key]})`);
  if (!(Number.isFinite(out.costUsd) && out.costUsd > 0))
    throw new UserInputError(`the per-sample cost cap must be a number of USD > 0 (got ${out.costUsd})`);
  return out;
}

/**
 * The sample's company gets the caps as its run caps (and no company budget of its own: the eval
 * run's caps are the budget). `usd` is the sample's share of the run's --max-cost-usd when that is
 * smaller than the per-sample cost cap.
 */
export async function applySampleCaps(
  store: Store,
  companyId: string,
  caps: SampleCaps,
  usd: number,
): Promise<void> {
  await setBudget(
    store,
    { companyId },
    {
      none: true,
      runModelCalls: caps.modelCalls,
      runToolCalls: caps.toolCalls,
      runTokens: caps.tokens,
      runUsd: usd,
    },
  );
}

/** What a stopped sample's trace says: which cap, in the eval's words (the run's own message is in errors). */
export function capOf(
  stop: { stopReason: "budget" | "run_cap" | null; error: string | null; wallTime: boolean },
  used: { tokens: number; usd: number | null },
  caps: SampleCaps,
  usd: number,
): { kind: CapKind; message: string } | null {
  if (stop.wallTime)
    return {
      kind: "wall_time",
      message: `the sample reached its wall-time cap of ${Math.round(caps.wallTimeMs / 1000)} s (--max-sample-seconds)`,
    };
  const error = stop.error ?? "";
  if (stop.stopReason === "run_cap" && /model calls/.test(error))
    return {
      kind: "model_calls",
      message: `the sample reached its cap of ${caps.modelCalls} model calls (--max-model-calls)`,
    };
  if (stop.stopReason === "run_cap" && /tool calls/.test(error))
    return {
      kind: "tool_calls",
      message: `the sample reached its cap of ${caps.toolCalls} tool calls (--max-tool-calls)`,
    };
  if (stop.stopReason === "run_cap" && /of wall time/.test(error))
    return { kind: "wall_time", message: `the sample's run reached its wall-time cap: ${error}` };
  if (stop.stopReason !== "budget" && stop.stopReason !== "run_cap") return null;
  // The run's own token or USD cap names itself; a budget's stop is the nearer of the two limits.
  const named = /cap of \d+ tokens/.test(error) ? "tokens" : /cap of \$/.test(error) ? "usd" : undefined;
  const tokenShare = used.tokens / caps.tokens;
  const usdShare = used.usd === null ? 0 : used.usd / usd;
  if (named === "tokens" || (named === undefined && tokenShare >= usdShare))
    return {
      kind: "tokens",
      message: `the sample reached its cap of ${caps.tokens} tokens (--max-sample-tokens): ${used.tokens} used`,
    };
  return usd < caps.costUsd
    ? {
        kind: "run_cost",
        message: `the eval run's --max-cost-usd left $${usd.toFixed(4)} for this sample, and it was spent`,
      }
    : {
        kind: "cost",
        message: `the sample reached its cost cap of $${caps.costUsd} (--max-sample-usd)`,
      };
}
