// A mutant: one small change to what the CEO is shown or given, made by an operator from
// the texts and code facts as they are now — never a fixed list a scripted policy could be fitted
// to. It runs as a candidate (like a break) and the gates either kill it or it survives.
import type { ModeDocumentEdit } from "@cadre/company";
import type { ToolDefinition } from "@cadre/core";
import type { CeoMode } from "@cadre/model";
import { hashOf } from "../data/hash.js";
import type { Break } from "../runner/breaks.js";

export interface MutantEdit {
  modeDocument?: ModeDocumentEdit;
  cue?: (mode: CeoMode, cue: string) => string;
  toolOffer?: (mode: CeoMode, tools: readonly ToolDefinition[]) => ToolDefinition[];
}

export interface Mutant {
  /** Stable: the operator, what it changed and a hash of the original it changed (not of the seed's wording). */
  id: string;
  /** The operator that made it ("file" for an operator's own mutation file). */
  operator: string;
  description: string;
  /**
   * The CEO modes whose wakes see the change. A wake decides its mode once, at its start (its mode
   * document, cue and tools with it), so a scenario that starts in another mode cannot see it.
   */
  modes: readonly CeoMode[];
  /** What changed, line by line ("-" removed, "+" added) under a header naming the text or code fact. */
  diff: string;
  /** Set when the operator can tell from code that the change cannot alter behaviour: why. */
  equivalent?: string;
  edit: MutantEdit;
}

/** `[a-z0-9-]` only: a mutant id is also a file and CLI name. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** operator-target-hash8, the hash over what was changed as it was (so a re-draw keeps the id). */
export function mutantId(operator: string, target: string, original: unknown): string {
  return `${operator}-${slug(target)}-${hashOf({ target, original }).slice(0, 8)}`;
}

/**
 * A line diff of one changed text: the lines both share at the start and end are left out, the
 * rest shown removed then added (one changed region per mutant).
 */
export function lineDiff(label: string, before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  const removed = a.slice(start, a.length - end).map((l) => `-${l}`);
  const added = b.slice(start, b.length - end).map((l) => `+${l}`);
  return [`--- ${label}`, `+++ ${label} (mutant)`, `@@ line ${start + 1} @@`, ...removed, ...added].join(
    "\n",
  );
}

/** How a mutant runs: as a candidate's break, under its id. */
export function asBreak(m: Mutant): Break {
  return {
    name: m.id,
    description: m.description,
    expectedFailure: "any",
    ...(m.edit.modeDocument ? { modeDocument: m.edit.modeDocument } : {}),
    ...(m.edit.cue ? { cue: m.edit.cue } : {}),
    ...(m.edit.toolOffer ? { toolOffer: m.edit.toolOffer } : {}),
  };
}

/** A pick from a list, drawn from the seed and a key: the same seed and key draw the same wording. */
export function draw<T>(seed: number, key: string, options: readonly T[]): T {
  const h = parseInt(hashOf({ seed, key }).slice(0, 8), 16);
  return options[h % options.length] as T;
}
