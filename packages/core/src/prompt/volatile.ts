// Volatile-content detection for stable prompt segments (MC-3). Timestamps, clock times, random ids
// and counters make a prefix differ call after call and break the provider's prompt cache; they
// belong only in the per-call user prompt. Every pattern is linear (no nested quantifiers), so a
// long segment cannot make the check slow (MC-4).

const MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec";

const VOLATILE_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, "a timestamp"],
  [/\b\d{1,2}:\d{2}:\d{2}\b/, "a clock time"],
  // Date.prototype.toString / toUTCString output.
  [new RegExp(`\\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? (?:\\d{1,2} )?(?:${MONTHS}) \\d{1,2}`), "a date string"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i, "a UUID"],
  [/\b1[5-9]\d{11}\b/, "an epoch-milliseconds value"],
  [/\b1[5-9]\d{8}\b/, "an epoch-seconds value"],
  // A run of 16+ hex digits mixing letters and digits (random ids, hashes, nonces). The look-behind
  // lets `run_` prefixes through, so `run_3f9a…` is caught too.
  [/(?<![0-9A-Za-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}(?![0-9A-Za-z])/i, "a random hex id"],
  [/\b\d+ (?:seconds?|minutes?|hours?|days?) ago\b/i, "a relative time"],
];

/**
 * Returns what volatile content `text` contains, or undefined. `recordValues` are values copied
 * from stored records (a company goal, a decision note): stable for the session by construction
 * (the prefix guard proves it per call) and free to mention a date, so a match that lies inside an
 * occurrence of one of them does not count.
 *
 * Linear in the text and the values together: the patterns run once over the text and once over
 * each value; a match in the text is then looked up among the same matches found inside values
 * (by its string), and only those few values are compared at its position. (Blanking each value
 * out of the whole text in turn was quadratic: a directory of 1,000 agents is 1,000 values.)
 */
export function findVolatileContent(text: string, recordValues: readonly string[] = []): string | undefined {
  let inValues: Map<string, Array<readonly [string, number]>> | undefined;
  for (const [pattern, what] of VOLATILE_PATTERNS) {
    const global = new RegExp(pattern.source, `${pattern.flags}g`);
    for (const match of text.matchAll(global)) {
      inValues ??= volatileInValues(recordValues);
      const at = match.index;
      const covered = (inValues.get(match[0]) ?? []).some(
        ([value, offset]) => at - offset >= 0 && text.startsWith(value, at - offset),
      );
      if (!covered) return `${what} ("${match[0]}")`;
    }
  }
  return undefined;
}

/** Each volatile match found inside a record value, by its string: the values and its offset in them. */
function volatileInValues(values: readonly string[]): Map<string, Array<readonly [string, number]>> {
  const out = new Map<string, Array<readonly [string, number]>>();
  for (const value of new Set(values)) {
    if (value.length === 0) continue;
    for (const [pattern] of VOLATILE_PATTERNS)
      for (const match of value.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
        const list = out.get(match[0]) ?? [];
        list.push([value, match.index]);
        out.set(match[0], list);
      }
  }
  return out;
}
