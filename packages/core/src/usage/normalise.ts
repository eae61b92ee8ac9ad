// Vendor usage → our Usage, where `input` counts uncached input only (MC-5). The per-vendor field
// mapping lives with the translators (translators/usage.ts) and is reused here, not duplicated;
// this module adds what the session side needs: pi-ai's already-normalised usage, and turning
// cumulative counters (Codex threads, some SDK result messages) into per-call increments.
import type { Usage } from "../types.js";
import { anthropicUsage, openaiUsage } from "../translators/usage.js";

export { anthropicUsage, openaiUsage };

/**
 * pi-ai's Usage (its providers already subtract OpenAI's cached tokens from the prompt count and
 * keep Anthropic's cache counters apart); only the four counters are kept.
 */
export function piUsage(u: { input: number; output: number; cacheRead: number; cacheWrite: number }): Usage {
  return { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite };
}

/**
 * The increment between two cumulative readings of the same session. A reading that went down on
 * any counter means the vendor restarted its totals (a new thread): the reading is then an
 * increment on its own.
 */
export function incrementalUsage(previous: Readonly<Usage> | undefined, current: Readonly<Usage>): Usage {
  if (!previous) return { ...current };
  const grew =
    current.input >= previous.input &&
    current.output >= previous.output &&
    current.cacheRead >= previous.cacheRead &&
    current.cacheWrite >= previous.cacheWrite;
  if (!grew) return { ...current };
  return {
    input: current.input - previous.input,
    output: current.output - previous.output,
    cacheRead: current.cacheRead - previous.cacheRead,
    cacheWrite: current.cacheWrite - previous.cacheWrite,
  };
}

/** A stateful converter for a stream of cumulative readings: each call returns the new increment. */
export function cumulativeUsageTracker(): (reading: Readonly<Usage>) => Usage {
  let previous: Usage | undefined;
  return (reading) => {
    const increment = incrementalUsage(previous, reading);
    previous = { ...reading };
    return increment;
  };
}
