// Prompt-cache measurements over a recorded sequence of requests (MC-7). A request is its wire
// serialisation split into parts (tools, system, then each message), as the offline model's cache
// simulation sees it. Used by `cadre cache-report`; never on the per-event path.
import { countTokens } from "../tokens.js";
import type { Usage } from "../types.js";

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** UTF-8 byte offset of the first byte where `current` differs from `previous`; null when identical. */
export function firstDifferingByte(previous: string, current: string): number | null {
  if (previous === current) return null;
  return Buffer.byteLength(current.slice(0, commonPrefixLength(previous, current)), "utf8");
}

/**
 * The prefix-cache rule of the offline model (offline/scripted-model.ts): the newest part is
 * uncached input, the longest prefix shared with the previous request's cacheable part is read,
 * the rest is written.
 */
export function simulatePrefixCache(
  previousCacheable: string | undefined,
  parts: readonly string[],
): { usage: Omit<Usage, "output">; cacheable: string } {
  const last = parts.at(-1) ?? "";
  const cacheable = parts.slice(0, -1).join("\n");
  const shared = previousCacheable === undefined ? 0 : commonPrefixLength(previousCacheable, cacheable);
  return {
    usage: {
      input: countTokens(last),
      cacheRead: shared > 0 ? countTokens(cacheable.slice(0, shared)) : 0,
      cacheWrite: countTokens(cacheable.slice(shared)),
    },
    cacheable,
  };
}

/**
 * The hit rate the same request sequence would reach if its stable prefix (the first two parts:
 * tools and system) were byte-identical to the first call's on every call — the most a session can
 * get from a prefix cache, given what it genuinely adds or drops (new messages, a rewind).
 */
export function theoreticalMaxHitRate(requests: ReadonlyArray<readonly string[]>): number {
  const first = requests[0];
  if (!first) return 0;
  let previous: string | undefined;
  let read = 0;
  let prompt = 0;
  for (const parts of requests) {
    const ideal = [first[0] ?? "", first[1] ?? "", ...parts.slice(2)];
    const { usage, cacheable } = simulatePrefixCache(previous, ideal);
    previous = cacheable;
    read += usage.cacheRead;
    prompt += usage.input + usage.cacheRead + usage.cacheWrite;
  }
  return prompt === 0 ? 0 : read / prompt;
}
