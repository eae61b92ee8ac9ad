// Reading the mode documents as instructions: which lines are instructions, which sentences are
// imperatives, bans, permissions or numbers. The operators rewrite what these find in the texts as
// they are now; nothing here knows any particular wording of the product's documents.

/** A numbered item, a bullet or a prose line: everything but headings and blank lines. */
export function instructionLines(doc: string): Array<{ index: number; line: string }> {
  return doc
    .split("\n")
    .map((line, index) => ({ index, line }))
    .filter(({ line }) => line.trim().length > 0 && !line.startsWith("#"));
}

/** The item marker a line starts with ("1. ", "- "), and the rest. */
export function splitMarker(line: string): { marker: string; body: string } {
  const m = /^(\s*(?:\d+\.|-)\s+)(.*)$/.exec(line);
  return m ? { marker: m[1] as string, body: m[2] as string } : { marker: "", body: line };
}

/** Sentences of a line's body, each with its offset (a sentence ends with ". " before a capital). */
export function sentencesOf(body: string): Array<{ start: number; text: string }> {
  const out: Array<{ start: number; text: string }> = [];
  let from = 0;
  for (const text of body.split(/(?<=\.)\s+(?=[A-Z])/)) {
    const start = body.indexOf(text, from);
    from = start + text.length;
    if (text.trim()) out.push({ start, text });
  }
  return out;
}

/** Every sentence of a text, line by line (a sentence never spans lines), at its offset in the text. */
export function textSentences(text: string): Array<{ start: number; text: string }> {
  const out: Array<{ start: number; text: string }> = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    if (line.trim() && !line.startsWith("#")) {
      const { marker, body } = splitMarker(line);
      for (const s of sentencesOf(body)) out.push({ start: offset + marker.length + s.start, text: s.text });
    }
    offset += line.length + 1;
  }
  return out;
}

/** Whether a number at `index` is a list item's marker ("2. Hire …"), not a count. */
export function isListMarker(text: string, index: number, length: number): boolean {
  return (index === 0 || text[index - 1] === "\n") && text[index + length] === ".";
}

/** "this one can start", "the previous one no longer": "one" standing for a noun, not a count. */
export function isPronounOne(text: string, index: number, word: string): boolean {
  if (word.toLowerCase() !== "one") return false;
  const before = text.slice(Math.max(0, index - 12), index);
  const after = text.slice(index + word.length, index + word.length + 12);
  return (
    /\b(this|that|previous|another|any|each|no|which)\s+$/i.test(before) ||
    /^\s+(can|could|no|is|was|will|does|of)\b/i.test(after)
  );
}

// Words that cannot start an imperative: determiners, pronouns, prepositions, conjunctions.
const NOT_A_VERB = new Set(
  (
    "a an the your you yours it its this that these those each every both either neither nothing none no " +
    "there we they our their he she his her in on at for with from by of to as so and or but not all any " +
    "some one two three four five many most more less only also then once"
  ).split(" "),
);
const SUBORDINATE = /^(if|when|before|after|once|where|until|unless|while|whenever)\b/i;
const FINITE = /\b(is|are|was|were|has|have|had|will|would|does|did)\b/i;

/**
 * The imperative clause of a sentence: the sentence itself when it starts with a verb, or its main
 * clause after a leading "If …, " / "When …, ". Null when the sentence states a fact.
 */
export function imperativeClause(sentence: string): { start: number; text: string } | null {
  let start = 0;
  if (SUBORDINATE.test(sentence)) {
    const comma = sentence.indexOf(", ");
    if (comma < 0) return null;
    start = comma + 2;
  }
  const clause = sentence.slice(start);
  const first = /^([A-Za-z]+)\b/.exec(clause)?.[1];
  if (!first || NOT_A_VERB.has(first.toLowerCase())) return null;
  const head = clause.split(/[:;]/)[0] ?? clause;
  if (FINITE.test(head)) return null;
  return { start, text: clause };
}

/** A ban in a sentence: "do not", "don't", "never", "must not", "no more than", "only when|for|where|if". */
export const BAN = /\b(do not|don't|never|must not|no more than|only (?:when|for|where|if))\b/i;
/** A permission: "you may", "you can". */
export const PERMISSION = /\byou (may|can)\b/i;

const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
] as const;
const NUMBER = `(?:${NUMBER_WORDS.join("|")}|\\d+)`;
/** A number or a range ("three to five", "one or two", "3-5"), not "one of" (a choice, not a count). */
export const NUMBER_OR_RANGE = new RegExp(
  `\\b(${NUMBER})(?:(\\s+(?:to|or)\\s+|-)(${NUMBER}))?\\b(?!\\s+of\\b)`,
  "gi",
);

export function numberValue(word: string): number {
  const i = (NUMBER_WORDS as readonly string[]).indexOf(word.toLowerCase());
  return i >= 0 ? i : Number(word);
}

/** A number written as the original was: a word (capitalised like it) or digits. */
export function numberText(n: number, like: string): string {
  if (/^\d+$/.test(like) || n >= NUMBER_WORDS.length) return String(n);
  const w = NUMBER_WORDS[n] as string;
  return /^[A-Z]/.test(like) ? w[0]!.toUpperCase() + w.slice(1) : w;
}

export const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
export const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s);
