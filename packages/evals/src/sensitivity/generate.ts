// The mutation operators, and the mutants they make from the texts and code facts as they are now.
// Adding an operator is a function beside the others and a line here; evals/README.md lists them.
import { UserInputError } from "@cadre/core";
import type { Mutant } from "./mutant.js";
import { dropOffer, requireOptional } from "./operators/code.js";
import { currentContext, type OperatorContext } from "./operators/context.js";
import { extendCue, replaceCue, swapDocuments } from "./operators/documents.js";
import {
  alwaysFirst,
  banToPermission,
  changeNumber,
  deleteLine,
  negateImperative,
  permissionToBan,
} from "./operators/instructions.js";

export interface MutationOperator {
  name: string;
  /** What it does, in one line (help, README). */
  summary: string;
  generate(ctx: OperatorContext): Mutant[];
}

export const OPERATORS: readonly MutationOperator[] = [
  {
    name: "delete-line",
    summary: "each instruction line of each mode document, deleted",
    generate: deleteLine,
  },
  {
    name: "negate-imperative",
    summary: 'each imperative of each mode document negated ("Hire …" → "Do not hire …"), a "do not" dropped',
    generate: negateImperative,
  },
  {
    name: "change-number",
    summary: "each number or range in a mode document or tool description changed",
    generate: changeNumber,
  },
  {
    name: "ban-to-permission",
    summary: 'each ban ("do not", "never", "no more than", "only when") reworded as a permission',
    generate: banToPermission,
  },
  {
    name: "permission-to-ban",
    summary: 'each permission ("you may", "you can") reworded as a ban',
    generate: permissionToBan,
  },
  {
    name: "swap-documents",
    summary: "each pair of mode documents with their bodies swapped (headings kept)",
    generate: swapDocuments,
  },
  {
    name: "replace-cue",
    summary: "each mode's cue replaced by an irrelevant sentence or another mode's cue",
    generate: replaceCue,
  },
  {
    name: "extend-cue",
    summary: "each mode's cue extended with a sentence telling the CEO to wait",
    generate: extendCue,
  },
  {
    name: "drop-offer",
    summary: "each tool dropped from each CEO mode's offer (code: the tool registry)",
    generate: dropOffer,
  },
  {
    name: "require-optional",
    summary: "each optional parameter of each CEO tool made required (code: schema and validation)",
    generate: requireOptional,
  },
  {
    name: "always-first",
    summary: 'a contradicting "always … first" rule added to each mode document',
    generate: alwaysFirst,
  },
];

export const OPERATOR_NAMES: readonly string[] = OPERATORS.map((o) => o.name);

/** Every mutant the operators make of the current texts and code, in operator order. */
export function generateMutants(seed: number, ctx: OperatorContext = currentContext(seed)): Mutant[] {
  const out = OPERATORS.flatMap((o) => o.generate(ctx));
  const seen = new Set<string>();
  for (const m of out) {
    // Two sites with the same original text get the same id: the second is told apart by its order.
    let id = m.id;
    for (let n = 2; seen.has(id); n++) id = `${m.id}-${n}`;
    m.id = id;
    seen.add(id);
  }
  return out;
}

export interface Selection {
  /** Only these operators. */
  operators?: readonly string[];
  /** At most this many, taken in turn from each operator (so a short run still spans them). */
  limit?: number;
}

export function selectMutants(all: readonly Mutant[], selection: Selection): Mutant[] {
  const unknown = (selection.operators ?? []).filter((o) => !OPERATOR_NAMES.includes(o));
  if (unknown.length > 0)
    throw new UserInputError(
      `unknown mutation operator "${unknown[0]}"; operators: ${OPERATOR_NAMES.join(", ")}`,
    );
  if (selection.limit !== undefined && !(Number.isInteger(selection.limit) && selection.limit >= 1))
    throw new UserInputError(`--limit must be a whole number ≥ 1 (got ${selection.limit})`);
  const chosen = selection.operators?.length
    ? all.filter((m) => selection.operators!.includes(m.operator))
    : [...all];
  if (selection.limit === undefined || selection.limit >= chosen.length) return chosen;
  const queues = OPERATOR_NAMES.map((o) => chosen.filter((m) => m.operator === o)).filter((q) => q.length);
  const out: Mutant[] = [];
  for (let round = 0; out.length < selection.limit; round++)
    for (const q of queues) if (round < q.length && out.length < selection.limit) out.push(q[round]!);
  return out;
}
