// MC-12: one compression flow, one pure decision. Fits → nothing. Byte budget broken by
// strippable oversized inline images → strip them. Token budget broken, or stripping would not
// get under budget → handoff rebuild. A mixed large tail with under half strippable images is
// deliberately not rescued. Tool outputs have no tier. Uncertain → fail closed. No model call.

import type { HarnessKind } from "./harness-kind.js";

export type CompressionTrigger = "open" | "terminal-error" | "next-send";

export interface StrippableImage {
  id: string;
  bytes: number;
}

export interface CompressionSnapshot {
  harness: HarnessKind;
  remote: boolean;
  trigger: CompressionTrigger;
  /** Request bytes against the byte budget; absent where the harness cannot measure them. */
  byteBudget?: { limit: number; used: number };
  /**
   * The token budget is read only through these three signals (MC-12): occupancy of the native
   * window, a terminal overflow, a deterministic official compact failure.
   */
  occupancy: number;
  terminalOverflow: boolean;
  deterministicCompactFailure: boolean;
  strippableImages: readonly StrippableImage[];
}

export type CompressionDecision =
  | { action: "none"; reason: string }
  | { action: "strip-images"; reason: string; imageIds: string[] }
  | { action: "handoff-rebuild"; reason: string }
  | { action: "fail-closed"; reason: string };

/**
 * Who can measure the request byte budget (MC-12): Codex reports it; the Pi session builds each
 * request in process, so it measures the exact bytes it sends. Claude Code's request is built inside
 * its own process: a byte figure there is a guess.
 */
export function canMeasureBytes(harness: HarnessKind): boolean {
  return harness === "codex" || harness === "pi";
}

const isCount = (n: number) => Number.isFinite(n) && n >= 0;

function snapshotIsSound(s: CompressionSnapshot): boolean {
  if (!isCount(s.occupancy)) return false;
  if (s.byteBudget && !(isCount(s.byteBudget.used) && isCount(s.byteBudget.limit) && s.byteBudget.limit > 0))
    return false;
  return s.strippableImages.every((image) => isCount(image.bytes));
}

function tokenBudgetBreach(s: CompressionSnapshot): string | undefined {
  if (s.terminalOverflow) return "terminal context overflow";
  if (s.occupancy >= 1) return "occupancy ≥ 100%";
  if (s.deterministicCompactFailure) return "deterministic official compact failure";
  return undefined; // timeouts, large histories and high-but-not-full occupancy do not count
}

/** Largest images first, until the request fits; undefined when even all of them are not enough. */
function imagesToStrip(
  images: readonly StrippableImage[],
  used: number,
  limit: number,
): string[] | undefined {
  const ordered = [...images].sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
  const ids: string[] = [];
  let remaining = used;
  for (const image of ordered) {
    if (remaining <= limit) break;
    ids.push(image.id);
    remaining -= image.bytes;
  }
  return remaining <= limit ? ids : undefined;
}

export function decideCompression(s: CompressionSnapshot): CompressionDecision {
  if (s.trigger === "open") return { action: "none", reason: "opening a session never triggers compression" };
  if (!snapshotIsSound(s))
    return { action: "fail-closed", reason: "uncertain snapshot (non-finite or negative figures)" };

  const tokenBreach = tokenBudgetBreach(s);
  const bytes =
    s.byteBudget !== undefined && s.byteBudget.used > s.byteBudget.limit ? s.byteBudget : undefined;
  if (tokenBreach === undefined && bytes === undefined) return { action: "none", reason: "fits" };
  if (s.remote) return { action: "fail-closed", reason: "remote session: no local rescue" };
  if (tokenBreach !== undefined || bytes === undefined)
    return { action: "handoff-rebuild", reason: `token budget broken: ${tokenBreach}` };

  // From here only the byte budget is broken.
  if (!canMeasureBytes(s.harness))
    return { action: "fail-closed", reason: `${s.harness} cannot measure bytes: uncertain` };
  const strippable = s.strippableImages.reduce((sum, image) => sum + image.bytes, 0);
  if (strippable * 2 < bytes.used) {
    return {
      action: "fail-closed",
      reason: "mixed large tail: strippable images under half the bytes, deliberately not rescued",
    };
  }
  const imageIds = imagesToStrip(s.strippableImages, bytes.used, bytes.limit);
  if (imageIds === undefined)
    return {
      action: "handoff-rebuild",
      reason: "byte budget broken and stripping images would not get under it",
    };
  return { action: "strip-images", reason: "byte budget broken by strippable oversized images", imageIds };
}
