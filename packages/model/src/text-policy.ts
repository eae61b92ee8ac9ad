// Cadre's one text policy, applied to every text a person or a model sends in (HTTP bodies, MCP
// tool calls, the CLI, scenario files) through the schema layer (schema.ts `Text`): text is
// NFC-normalised and trimmed, counted in code points, and refused — never repaired — when it holds
// a lone surrogate (half a UTF-16 pair: no UTF-8 store can keep it, and the stores disagree on how
// to damage it), a control character, a noncharacter (U+FFFF, U+FDD0…: reserved, never text), an
// interlinear annotation control (U+FFF9–U+FFFB), a bidirectional override or isolate, or an
// invisible (default-ignorable) character: in one-line fields such as names and titles any of them
// (they could make two names look alike); in free text all but those real writing needs — the
// joiners (emoji sequences, Indic and Persian scripts), variation selectors, and the direction
// marks of right-to-left text. So Unicode tag characters (U+E0000…, invisible text a model still
// reads) never reach the next model's prompt. A text with no visible base character (only
// combining marks, invisibles, white space) is refused as blank. Agent names are unique on
// `nameKey`, which folds away what a reader cannot see.

/** One line of visible text (names, titles, ids) or free text with line breaks (descriptions, notes). */
export type TextLayout = "line" | "multiline";

const NAMES: Record<number, string> = {
  0x00: "NULL",
  0x09: "CHARACTER TABULATION",
  0x0a: "LINE FEED",
  0x0d: "CARRIAGE RETURN",
  0x1b: "ESCAPE",
  0x7f: "DELETE",
  0x85: "NEXT LINE",
  0xad: "SOFT HYPHEN",
  0x34f: "COMBINING GRAPHEME JOINER",
  0x61c: "ARABIC LETTER MARK",
  0x115f: "HANGUL CHOSEONG FILLER",
  0x1160: "HANGUL JUNGSEONG FILLER",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0x3164: "HANGUL FILLER",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
};

/** "U+200B (ZERO WIDTH SPACE)": how a refusal names a character. */
export function describeCodePoint(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  const name =
    NAMES[cp] ??
    (cp >= 0xfe00 && cp <= 0xfe0f ? `VARIATION SELECTOR-${cp - 0xfe00 + 1}` : undefined) ??
    (cp >= 0xe0000 && cp <= 0xe0fff ? "TAG CHARACTER" : undefined);
  return name ? `${hex} (${name})` : hex;
}

const BIDI_CONTROL = (cp: number) => (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
/** U+FDD0–U+FDEF and the last two code points of every plane: reserved, never characters. */
const NONCHARACTER = (cp: number) => (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
/** U+FFF9–U+FFFB: interlinear annotation controls (hidden annotations inside text). */
const ANNOTATION = (cp: number) => cp >= 0xfff9 && cp <= 0xfffb;
/** Invisibles that free text needs: ZWNJ/ZWJ, the direction marks, the variation selectors. */
const WRITING_INVISIBLE = (cp: number) =>
  cp === 0x200c ||
  cp === 0x200d ||
  cp === 0x200e ||
  cp === 0x200f ||
  cp === 0x061c ||
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0xe0100 && cp <= 0xe01ef);
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const IGNORABLES = /\p{Default_Ignorable_Code_Point}/gu;
const COMBINING = /\p{M}/gu;

const ALLOWED: Record<TextLayout, string> = {
  line: "one line of visible characters (letters, digits, punctuation, spaces) is allowed",
  multiline: "visible characters, spaces, tabs and newlines are allowed",
};

/** What is wrong with one code point in a field of this layout, or undefined when it is allowed. */
function codePointProblem(cp: number, layout: TextLayout): string | undefined {
  if (cp >= 0xd800 && cp <= 0xdfff)
    return `${describeCodePoint(cp)}, a lone surrogate (half of a UTF-16 pair, not a character)`;
  if (cp === 0x09 || cp === 0x0a)
    return layout === "multiline" ? undefined : `${describeCodePoint(cp)}, a line break or tab`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `${describeCodePoint(cp)}, a control character`;
  if (cp === 0x2028 || cp === 0x2029) return `${describeCodePoint(cp)}, a line break character`;
  if (BIDI_CONTROL(cp)) return `${describeCodePoint(cp)}, a bidirectional control that can disguise text`;
  if (NONCHARACTER(cp)) return `${describeCodePoint(cp)}, a noncharacter (reserved, never text)`;
  if (ANNOTATION(cp)) return `${describeCodePoint(cp)}, an interlinear annotation control that hides text`;
  if (IGNORABLE.test(String.fromCodePoint(cp)) && (layout === "line" || !WRITING_INVISIBLE(cp)))
    return `${describeCodePoint(cp)}, an invisible character`;
  return undefined;
}

/** NFC, then trimmed: the form every accepted text is stored in. Lone surrogates pass through untouched (and are refused by textProblem). */
export function normaliseText(text: string): string {
  return text.normalize("NFC").trim();
}

/** Length as a person counts it: code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Why `text` (already normalised) is refused in a field of this layout, naming the first offending
 * character and what is allowed; undefined when it is acceptable.
 */
export function textProblem(text: string, layout: TextLayout): string | undefined {
  // Checked first: what such a text lacks is something visible, whichever invisibles it holds.
  // A text of nothing but invisible characters (U+200B, U+2060, …) and white space reads as empty:
  // trimming does not remove them, so it is refused as blank rather than stored as a "goal" no one sees.
  if (text.length > 0 && text.replace(IGNORABLES, "").trim().length === 0)
    return `is blank (only invisible characters and white space); ${ALLOWED[layout]}, with at least one visible character`;
  for (const ch of text) {
    const problem = codePointProblem(ch.codePointAt(0) as number, layout);
    if (problem) return `contains ${problem}; ${ALLOWED[layout]}`;
  }
  // Combining marks alone have nothing to sit on: they render as stray accents, or as nothing.
  if (text.length > 0 && text.replace(IGNORABLES, "").replace(COMBINING, "").trim().length === 0)
    return `has no visible character to read (only combining marks); ${ALLOWED[layout]}, with at least one letter, digit or symbol`;
  return undefined;
}

/**
 * The key agent names are unique on: compatibility-normalised (NFKC: full-width, ligatures and
 * non-breaking spaces fold to their plain forms), invisible characters removed, case-folded, runs
 * of white space made one space. "CTO", "cto", "C\u200bTO" and "ＣＴＯ" share one key.
 */
export function nameKey(name: string): string {
  const folded = name.normalize("NFKC").replace(IGNORABLES, "").toUpperCase().toLowerCase();
  return folded.normalize("NFKC").replace(/\s+/gu, " ").trim();
}
