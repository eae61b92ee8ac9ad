// Operators on whole texts: two mode documents' bodies swapped (each keeps its own heading, so the
// phase still reads right and only behaviour can tell), and the cue replaced or extended.
import { ceoCue, MODE_TITLES } from "@cadre/company";
import { CEO_MODES, type CeoMode } from "@cadre/model";
import { draw, lineDiff, type Mutant, mutantId } from "../mutant.js";
import type { OperatorContext } from "./context.js";

const heading = (doc: string) => doc.split("\n")[0] ?? "";
const body = (doc: string) => doc.split("\n").slice(1).join("\n");

/** Each pair of mode documents with their bodies swapped. */
export function swapDocuments(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  CEO_MODES.forEach((a, i) =>
    CEO_MODES.slice(i + 1).forEach((b) => {
      const da = ctx.documents[a];
      const db = ctx.documents[b];
      const newA = `${heading(da)}\n${body(db)}`;
      const newB = `${heading(db)}\n${body(da)}`;
      out.push({
        id: mutantId("swap-documents", `${a}-${b}`, [da, db]),
        operator: "swap-documents",
        description: `the ${a} and ${b} documents swap their bodies (each keeps its heading)`,
        modes: [a, b],
        diff: `${lineDiff(`mode/${a}`, da, newA)}\n${lineDiff(`mode/${b}`, db, newB)}`,
        edit: { modeDocument: (m, d) => (m === a ? newA : m === b ? newB : d) },
      });
    }),
  );
  return out;
}

const IRRELEVANT = [
  "The weather is mild today and the office coffee machine has been repaired.",
  "Please note that the quarterly newsletter goes out next week.",
  "Reminder: the parking garage closes early on Fridays.",
] as const;
const WAIT = [
  "Wait for the operator's go-ahead before you act.",
  "Do not take any action in this session; just reply that you are standing by.",
  "Hold off for now: nothing needs doing until the operator writes again.",
] as const;

function cueMutant(
  operator: string,
  mode: CeoMode,
  description: string,
  edit: (cue: string) => string,
  sample: string,
): Mutant {
  return {
    id: mutantId(operator, mode, sample),
    operator,
    description: `cue/${mode}: ${description}`,
    modes: [mode],
    diff: lineDiff(`cue/${mode}`, sample, edit(sample)),
    edit: { cue: (m, cue) => (m === mode ? edit(cue) : cue) },
  };
}

/** Each mode's cue replaced: by an irrelevant sentence, or by another mode's cue (drawn with the seed). */
export function replaceCue(ctx: OperatorContext): Mutant[] {
  return CEO_MODES.map((mode) => {
    const sample = ceoCue(mode, "routine");
    const other = CEO_MODES.filter((m) => m !== mode);
    const choice = draw(ctx.seed, `replace-cue:${mode}`, [...IRRELEVANT, ...other]);
    const isMode = (CEO_MODES as readonly string[]).includes(choice);
    const text = isMode ? ceoCue(choice as CeoMode, "routine") : choice;
    return cueMutant(
      "replace-cue",
      mode,
      isMode ? `replaced by the ${MODE_TITLES[choice as CeoMode]} cue` : `replaced by "${text}"`,
      () => text,
      sample,
    );
  });
}

/** Each mode's cue extended with a sentence that tells the CEO to wait (drawn with the seed). */
export function extendCue(ctx: OperatorContext): Mutant[] {
  return CEO_MODES.map((mode) => {
    const extra = draw(ctx.seed, `extend-cue:${mode}`, WAIT);
    return cueMutant(
      "extend-cue",
      mode,
      `extended with "${extra}"`,
      (cue) => `${cue} ${extra}`,
      ceoCue(mode, "routine"),
    );
  });
}
