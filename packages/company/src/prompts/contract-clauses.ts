// How the prompt contract reads a text: clauses, the tools a clause names, and whether the clause
// tells the model to use a tool or keeps it from it. General reading (known identifiers, a lexicon
// of negation and waiting), not a list of the sentences the shipped texts happen to use, so a
// reworded instruction is read the same way.

/** A text cut where one instruction ends: sentence ends, semicolons, line breaks, list bullets. */
export function clauses(text: string): string[] {
  return text
    .split(/(?<=[.!?;:])\s+|\n+|\s+(?=\b(?:but|otherwise|except)\b)/i)
    .map((c) => c.replace(/^[\s#>*\-\d.)]+/, "").trim())
    .filter((c) => c.length > 0);
}

// Words that turn an instruction about a tool into one against it ("do not call", "avoid",
// "refrain from", "is off limits", "must not be used", "under no circumstances").
const NEGATION =
  /\b(not|never|no|none|nor|neither|avoid|refrain|abstain|skip|forgo|forego|forbidden|prohibited|disallowed|banned)\b|n't\b|\boff[- ]limits\b|\b(?:stay|keep|steer) (?:away|clear)\b|\bleave\b.*\balone\b|\bhold off\b/i;

export function negates(clause: string): boolean {
  return NEGATION.test(clause);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const mentionOf = (name: string) => new RegExp(`(?<![A-Za-z0-9_])${escape(name)}(?![A-Za-z0-9_])`);

/** Whether the text names the identifier as a whole word (hire_agent, not hire_agents). */
export function names(text: string, name: string): boolean {
  return mentionOf(name).test(text);
}

export interface ToolMention {
  tool: string;
  clause: string;
  /** The clause keeps the model from the tool instead of telling it to use it. */
  against: boolean;
}

/** Every clause that names one of the tools, and which way it points. */
export function toolMentions(text: string, tools: readonly string[]): ToolMention[] {
  const out: ToolMention[] = [];
  for (const clause of clauses(text))
    for (const tool of tools) if (names(clause, tool)) out.push({ tool, clause, against: negates(clause) });
  return out;
}

/**
 * Identifiers a text calls a tool ("the recruit_agent tool", "tool recruit_agent", "call
 * recruit_agent"): snake_case names, so prose words are never taken for tools.
 */
export function toolReferences(text: string): string[] {
  const id = "([a-z][a-z0-9]*(?:_[a-z0-9]+)+)";
  const found = new Set<string>();
  for (const re of [
    new RegExp(`\\b${id}\\s+tool\\b`, "g"),
    new RegExp(`\\btool\\s+${id}\\b`, "g"),
    new RegExp(`\\b(?:call|calls|calling|use|uses|using|invoke|run)\\s+(?:the\\s+)?${id}\\b`, "gi"),
  ])
    for (const m of text.matchAll(re)) found.add(m[1] as string);
  return [...found];
}

// What tells a model to wait or not to act: a clause (or a comma-separated part of one) that starts
// as an imperative to hold back, or says in so many words that nothing is to be done.
const LEAD_IN =
  /^(?:(?:and|but|so|then|now|first|just|simply|please|for now|for the moment|instead|otherwise),?\s+)*/i;
const HOLD_BACK =
  /^(?:do not|don't|never|avoid|refrain|wait|await|hold (?:off|on|back)|pause|stand by|standby|sit tight|defer|postpone|delay|stay idle|remain idle|stay put|idle|take no|do nothing|make no|leave (?:it|things|everything))\b/i;
const NOTHING_TO_DO =
  /\b(?:no|not any)\s+(?:action|actions|work|step|steps|calls?)\s+(?:is|are)?\s*(?:needed|required|necessary|expected|wanted)\b|\bnothing\s+(?:to do|needs|is needed|is required|is expected)\b|\bno need to (?!wait|pause|hold|delay|hesitate)|(?<!\bno need )(?<!\bno reason )\bto (?:wait|pause|hold off|stand by|do nothing|sit tight)\b|\byou\s+(?:should|must|need to|have to|are to|may|can)\s+(?:not\b|only wait|just wait|wait|hold|pause|stand by|do nothing|take no)|\byou\s+(?:shouldn't|mustn't|needn't)\b/i;

/** The clause of the text that tells the model to wait or not to act, if there is one. */
export function holdBack(text: string): string | undefined {
  for (const clause of clauses(text)) {
    if (NOTHING_TO_DO.test(clause)) return clause;
    for (const part of clause.split(/,\s*|\s+(?=(?:and|then)\s)/))
      if (HOLD_BACK.test(part.replace(LEAD_IN, "").trim())) return clause;
  }
  return undefined;
}
