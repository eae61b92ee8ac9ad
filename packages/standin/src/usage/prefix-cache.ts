// A simulated prompt cache, deterministic, one entry per conversation. A conversation is the wire,
// the model and the exact tool-and-system part of the request (`headPieces`); its entry is the
// token sequence of its previous request and how much of it that request wrote to the cache.
//
//   common   = leading tokens this request shares with the conversation's previous request
//   cached   = min(common, what the previous request wrote)
// Anthropic caches only up to its last `cache_control` breakpoint B (no breakpoint, no caching):
//   cache_read = min(cached, B), cache_creation = B - cache_read, input_tokens = total - B;
//   the request then has written B tokens.
// OpenAI caches every prompt automatically:
//   cached_tokens = cached, prompt_tokens = total (cached included); the request has written all.
// Simplifications, on purpose: no minimum cacheable length, no 128-token granularity, no expiry,
// one entry per conversation (the previous request only).
import { createHash } from "node:crypto";
import type { StandinRequest } from "../types.js";
import { headPieces, requestPieces, tokensOf } from "./tokens.js";

export interface InputMeasure {
  /** Every input token, cached or not. */
  total: number;
  /** Tokens served from the cache. */
  cacheRead: number;
  /** Tokens written to the cache by this request (Anthropic only; 0 on OpenAI). */
  cacheWrite: number;
  /** Input tokens neither read from nor written to the cache. */
  uncached: number;
  /** Makes this request the conversation's latest (not done for a request refused as too long). */
  record(): void;
}

interface Entry {
  tokens: number[];
  written: number;
}

export function conversationKey(request: Pick<StandinRequest, "wire" | "model" | "tools" | "systemBlocks">) {
  const head = JSON.stringify(headPieces(request));
  return `${request.wire}\u0000${request.model}\u0000${createHash("sha256").update(head).digest("hex")}`;
}

function commonPrefix(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export class PrefixCache {
  private readonly entries = new Map<string, Entry>();

  /** Measures a request's input against the cache; `record()` then makes it the conversation's latest. */
  measure(
    request: Pick<StandinRequest, "wire" | "model" | "tools" | "systemBlocks" | "messages">,
  ): InputMeasure {
    const tokens: number[] = [];
    let breakpoint = 0;
    for (const piece of requestPieces(request)) {
      for (const t of tokensOf(piece.text)) tokens.push(t);
      if (piece.breakpoint) breakpoint = tokens.length;
    }
    const key = conversationKey(request);
    const previous = this.entries.get(key);
    const cached = previous ? Math.min(commonPrefix(previous.tokens, tokens), previous.written) : 0;
    const total = tokens.length;
    if (request.wire === "anthropic") {
      const cacheRead = Math.min(cached, breakpoint);
      const record = () => void this.entries.set(key, { tokens, written: breakpoint });
      return { total, cacheRead, cacheWrite: breakpoint - cacheRead, uncached: total - breakpoint, record };
    }
    const record = () => void this.entries.set(key, { tokens, written: total });
    return { total, cacheRead: cached, cacheWrite: 0, uncached: total - cached, record };
  }
}

/** The wire-independent check for a context overflow (the window comes from the server options). */
export function windowFor(
  windows: number | Record<string, number> | undefined,
  model: string,
): number | undefined {
  if (windows === undefined) return undefined;
  return typeof windows === "number" ? windows : windows[model];
}
