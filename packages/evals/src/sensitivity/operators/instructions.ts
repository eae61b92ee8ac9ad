// Operators on the instructions themselves: delete a line, negate an imperative, change a number,
// turn a ban into a permission or a permission into a ban, add a contradicting "always first" rule.
// Wordings are drawn with the seed from several per operator, so no fixed phrase is the mutant.
import { CEO_MODES } from "@cadre/model";
import { draw, type Mutant } from "../mutant.js";
import { documentSite, type OperatorContext, textMutant, textSites, withLine } from "./context.js";
import {
  BAN,
  capitalise,
  imperativeClause,
  instructionLines,
  lowerFirst,
  NUMBER_OR_RANGE,
  numberText,
  numberValue,
  PERMISSION,
  sentencesOf,
  splitMarker,
  textSentences,
  isListMarker,
  isPronounOne,
} from "./text.js";

const short = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

/** Each instruction line of each mode document, removed. */
export function deleteLine(ctx: OperatorContext): Mutant[] {
  return CEO_MODES.flatMap((mode) => {
    const site = documentSite(mode, ctx.documents[mode]);
    return instructionLines(site.text).map(({ index, line }) =>
      textMutant(
        "delete-line",
        site,
        withLine(site.text, index, null),
        `line ${index + 1} deleted ("${short(line.trim())}")`,
        line,
      ),
    );
  });
}

const NEGATIONS = ["do not ", "never ", "you must not "] as const;
const UNNEGATED = /^(?:do not|don't|never)\s+/i;

/** Each imperative of each mode document negated ("Hire each role" → "Do not hire each role"); a negated one un-negated. */
export function negateImperative(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  for (const mode of CEO_MODES) {
    const site = documentSite(mode, ctx.documents[mode]);
    for (const { index, line } of instructionLines(site.text)) {
      const { marker, body } = splitMarker(line);
      for (const s of sentencesOf(body)) {
        const clause = imperativeClause(s.text);
        if (!clause) continue;
        const at = s.start + clause.start;
        const rest = body.slice(at);
        const negated = UNNEGATED.test(rest)
          ? (() => {
              // Every "do not" of the clause goes, so "do not X and do not Y" says to do both.
              const end = rest.search(/[;:]|$/);
              const head = rest.slice(0, end).replace(/\b(?:do not|don't|never)\s+/gi, "");
              return head + rest.slice(end);
            })()
          : draw(ctx.seed, `negate:${mode}:${index}:${at}`, NEGATIONS) + lowerFirst(rest);
        const text = at === 0 ? capitalise(negated) : negated;
        const after = withLine(site.text, index, marker + body.slice(0, at) + text);
        out.push(
          textMutant("negate-imperative", site, after, `"${short(clause.text)}" negated`, `${line}@${at}`),
        );
      }
    }
  }
  return out;
}

/** A different number or range for each one in a text the CEO reads ("three to five" → "eight to ten"). */
export function changeNumber(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  for (const site of textSites(ctx)) {
    for (const m of site.text.matchAll(NUMBER_OR_RANGE)) {
      const [whole, lo, sep, hi] = m as unknown as [string, string, string | undefined, string | undefined];
      if (isListMarker(site.text, m.index ?? 0, whole.length)) continue;
      if (hi === undefined && isPronounOne(site.text, m.index ?? 0, whole)) continue;
      const a = numberValue(lo);
      const b = hi === undefined ? a : numberValue(hi);
      const options =
        hi === undefined
          ? [a + 2, a * 3 + 1, a === 0 ? 1 : a - 1].map((n) => numberText(n, lo))
          : [
              [b + 3, b + 5],
              [Math.max(1, a - 2), Math.max(1, a - 1)],
              [a + b, 2 * (a + b)],
            ]
              .filter(([x, y]) => !(x === a && y === b) && x !== y)
              .map(([x, y]) => `${numberText(x!, lo)}${sep}${numberText(y!, hi)}`);
      const replacement = draw(ctx.seed, `number:${site.label}:${m.index}`, options);
      const after =
        site.text.slice(0, m.index) + replacement + site.text.slice((m.index ?? 0) + whole.length);
      out.push(
        textMutant("change-number", site, after, `"${whole}" → "${replacement}"`, `${whole}@${m.index}`),
      );
    }
  }
  return out;
}

const PERMITTING: Record<string, readonly string[]> = {
  negation: ["feel free to", "go ahead and", "you are welcome to"],
  limit: ["more than", "well beyond what", "at least twice what"],
  only: ["freely, not only", "at any time, not just", "whenever you like, and also"],
};

/** Each ban in a text the CEO reads, turned into a permission (several wordings, drawn with the seed). */
export function banToPermission(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  for (const site of textSites(ctx))
    for (const s of textSentences(site.text)) {
      const m = BAN.exec(s.text);
      if (!m) continue;
      const word = (m[1] as string).toLowerCase();
      const kind = word === "no more than" ? "limit" : word.startsWith("only") ? "only" : "negation";
      const wording = draw(ctx.seed, `ban:${site.label}:${s.start}`, PERMITTING[kind] as readonly string[]);
      const all = new RegExp(BAN.source, "gi");
      const rewritten = s.text.replace(all, (found) => {
        const f = found.toLowerCase();
        return f.startsWith("only") ? wording + found.slice(4) : wording;
      });
      const sentence = m.index === 0 ? capitalise(rewritten) : rewritten;
      const after = site.text.slice(0, s.start) + sentence + site.text.slice(s.start + s.text.length);
      out.push(
        textMutant("ban-to-permission", site, after, `the ban "${short(s.text)}" now permits`, s.text),
      );
    }
  return out;
}

const FORBIDDING = ["you must not", "you are not allowed to", "you may never"] as const;

/** Each permission in a text the CEO reads, turned into a ban (several wordings, drawn with the seed). */
export function permissionToBan(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  for (const site of textSites(ctx))
    for (const s of textSentences(site.text)) {
      if (!PERMISSION.test(s.text)) continue;
      const wording = draw(ctx.seed, `permission:${site.label}:${s.start}`, FORBIDDING);
      const sentence = s.text.replace(new RegExp(PERMISSION.source, "gi"), wording);
      const after = site.text.slice(0, s.start) + sentence + site.text.slice(s.start + s.text.length);
      out.push(
        textMutant("permission-to-ban", site, after, `the permission "${short(s.text)}" now forbids`, s.text),
      );
    }
  return out;
}

const WAIT_FIRST = [
  "Always wait for the operator's go-ahead first: end this session with a short note and take no other action.",
  "Before anything else, always ask the operator to confirm, and stop there until they answer.",
  "First, always reply that you are waiting for instructions; do nothing else in this session.",
] as const;
const TOOL_FIRST = [
  "Always call {tool} first, before any other step.",
  "Before anything else, always start with the {tool} tool.",
  "Your first action must always be {tool}; only then continue.",
] as const;

/**
 * A rule that contradicts the mode, put before its steps: always wait first, and — where the mode
 * offers a tool whose calls it refuses (a code fact) — always call that tool first.
 */
export function alwaysFirst(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  for (const mode of CEO_MODES) {
    const site = documentSite(mode, ctx.documents[mode]);
    const lines = site.text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("## "));
    const insert = (rule: string) => [...lines.slice(0, at + 1), rule, ...lines.slice(at + 1)].join("\n");
    if (at < 0) continue;
    const wait = draw(ctx.seed, `always-wait:${mode}`, WAIT_FIRST);
    out.push(textMutant("always-first", site, insert(wait), `"${short(wait)}" added`, "wait"));
    const refused = ctx.offered(mode).find((t) => !ctx.usable(mode).includes(t));
    if (refused) {
      const rule = draw(ctx.seed, `always-tool:${mode}`, TOOL_FIRST).replace("{tool}", refused);
      out.push(
        textMutant(
          "always-first",
          site,
          insert(rule),
          `"${short(rule)}" added (${refused} is refused in this mode)`,
          `tool:${refused}`,
        ),
      );
    }
  }
  return out;
}
