// Numbers and ranges a text states about a subject ("three to five roles", "a team of up to 9",
// "no more than 12 hires", "between 2 and 4 leads"), read generally: number words and digits, the
// usual range and bound phrasings, and the subject taken from the few words right after the number
// or right before it, within one part of a clause.
import { clauses } from "./contract-clauses.js";

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
  single: 1,
  couple: 2,
  pair: 2,
  dozen: 12,
};

/** The text with number words as digits ("a dozen" → "12"), so one grammar reads both. */
function digits(text: string): string {
  return text
    .replace(/\b(?:a|one)\s+(dozen|couple|pair)(?:\s+of)?\b/gi, (_, w: string) =>
      String(NUMBER_WORDS[w.toLowerCase()]),
    )
    .replace(/\b[a-z]+\b/gi, (w) =>
      w.toLowerCase() in NUMBER_WORDS && w.toLowerCase() !== "single"
        ? String(NUMBER_WORDS[w.toLowerCase()])
        : w,
    );
}

export interface StatedRange {
  /** Smallest count the text allows (undefined: no lower bound stated). */
  lo?: number;
  /** Largest count the text allows (undefined: no upper bound stated). */
  hi?: number;
  /** The clause it was read from, as written. */
  clause: string;
}

const N = "(\\d+)";
// Order matters: the longest phrasing is tried first, and a match consumes its numbers.
const FORMS: [RegExp, (a: number, b: number) => Omit<StatedRange, "clause">][] = [
  [new RegExp(`\\bbetween\\s+${N}\\s+and\\s+${N}`, "gi"), (a, b) => ({ lo: a, hi: b })],
  [new RegExp(`\\bfrom\\s+${N}\\s+to\\s+${N}`, "gi"), (a, b) => ({ lo: a, hi: b })],
  [new RegExp(`${N}\\s*(?:to|-|–|—|or)\\s*${N}\\b`, "gi"), (a, b) => ({ lo: a, hi: b })],
  [
    new RegExp(
      `\\b(?:up to|at most|no more than|not more than|no (?:bigger|larger|greater) than|not exceeding|capped at|limited to|(?:a )?maximum of|(?:a )?cap of|max\\.?|as many as)\\s+${N}`,
      "gi",
    ),
    (a) => ({ hi: a }),
  ],
  [new RegExp(`\\b(?:fewer than|less than|under|below)\\s+${N}`, "gi"), (a) => ({ hi: a - 1 })],
  [new RegExp(`${N}\\s+or\\s+(?:fewer|less)\\b`, "gi"), (a) => ({ hi: a })],
  [
    new RegExp(`\\b(?:at least|no fewer than|no less than|(?:a )?minimum of)\\s+${N}`, "gi"),
    (a) => ({ lo: a }),
  ],
  [new RegExp(`\\b(?:more than|over|above)\\s+${N}`, "gi"), (a) => ({ lo: a + 1 })],
  [new RegExp(`${N}\\s+or\\s+more\\b`, "gi"), (a) => ({ lo: a })],
  [new RegExp(`(?<![\\w.])${N}(?![\\w.])`, "g"), (a) => ({ lo: a, hi: a })],
];

/** Every range in the text whose subject (in the few words after it, or before it) matches. */
export function statedRanges(text: string, subject: RegExp): StatedRange[] {
  const out: StatedRange[] = [];
  for (const clause of clauses(text)) {
    let rest = digits(clause);
    for (const [re, read] of FORMS)
      rest = rest.replace(re, (match, ...groups) => {
        const offset = groups.find((g) => typeof g === "number") as number;
        const nums = groups.filter((g): g is string => typeof g === "string" && /^\d+$/.test(g)).map(Number);
        const after =
          rest
            .slice(offset + match.length)
            .split(/[,;:()]/)[0]
            ?.trim()
            .split(/\s+/)
            .slice(0, 3)
            .join(" ") ?? "";
        // The few words just before, within the same part of the clause ("a team no bigger than 9").
        const before = (
          rest
            .slice(0, offset)
            .split(/[,;:()]/)
            .pop() ?? ""
        )
          .trim()
          .split(/\s+/)
          .slice(-4)
          .join(" ");
        if (subject.test(after) || subject.test(before))
          out.push({ ...read(nums[0] as number, nums[1] as number), clause });
        return " ".repeat(match.length);
      });
  }
  return out;
}
