// The prompt contract: the facts the code knows and the texts a model reads must agree. A static
// check, run by `cadre prompts check` (so by `npm run check`) and before every eval; it reads
// texts and code facts (the offer, the mode machine, the team limit), it says nothing about
// behaviour. Each problem names the text, the fact it contradicts and where each lives.
import { CEO_MODES, type CeoMode, DEFAULT_SETTINGS, PROMPT_PROFILES, WAKE_TRIGGERS } from "@cadre/model";
import type { Store } from "@cadre/store";
import { CEO_TRANSITIONS, type CeoModeEvent } from "../modes.js";
import { offeredTools, usableTools } from "../tools/offer.js";
import { COMPANY_TOOLS, companyTools } from "../tools/registry.js";
import { clauses, holdBack, names, negates } from "./contract-clauses.js";
import { checkOffer, DOCS } from "./contract-offer.js";
import { statedRanges } from "./contract-ranges.js";
import { ceoCue } from "./cues.js";
import { lockedTexts } from "./locked-texts.js";
import { MODE_DOCUMENTS } from "../profiles/semantic/mode-documents.js";

export interface ContractProblem {
  /** The text that disagrees (its lock id). */
  text: string;
  /** The fact it contradicts, in plain words. */
  fact: string;
  /** Where the text and the fact live. */
  where: string;
}

const CUES = "packages/company/src/prompts/cues.ts";
const LIMIT_AT = "packages/model/src/settings.ts (the default team limit, CEO included)";
const MACHINERY = /\b(shell|bash|fetch|curl|http|https|node -e)\b|\/api\/|\bPOST\b/i;
const URGENCY = /\b(now|immediately|urgent|urgently|asap|right away)\b|!/i;
/** The words a text uses for the team the size limit bounds. */
const TEAM_SUBJECT =
  /\b(?:roles?|hires?|agents?|members?|people|persons?|leads?|leaders?|executives?|heads?|team|headcount|reports|positions?|seats?|staff|employees?)\b/i;

/** What the contract reads; tests pass edited copies (texts or code facts) to see each rule fail. */
export interface ContractInput {
  documents: Readonly<Record<CeoMode, string>>;
  cue: (mode: CeoMode, trigger: (typeof WAKE_TRIGGERS)[number]) => string;
  toolDescriptions: Readonly<Record<string, string>>;
  /** Per mode, the tools the CEO's session is given and those whose calls can succeed. */
  offer: Readonly<Record<CeoMode, { offered: readonly string[]; usable: readonly string[] }>>;
  /** The mode machine: where the CEO's own calls lead. */
  transitions: Readonly<Record<CeoMode, Partial<Record<CeoModeEvent, CeoMode>>>>;
  /** Words a document that lets a tool succeed names with it (e.g. the approval type to file). */
  documentedWith: Readonly<Record<string, readonly string[]>>;
  /** Where each tool's description and offer live. */
  toolSources: Readonly<Record<string, string>>;
  /** The most agents the CEO can have besides itself under the default settings. */
  teamLimit: number;
  /** Every other text a model can read, by lock id (segments, templates, other profiles): ranges are checked there too. */
  otherTexts: Readonly<Record<string, string>>;
}

const NO_STORE = new Proxy({} as Store, {
  get() {
    throw new Error("the prompt contract reads tool definitions only");
  },
});

export function defaultContractInput(): ContractInput {
  const tools = companyTools(
    NO_STORE,
    { companyId: "cmp_contract", agentId: null, via: "tool", runId: null },
    COMPANY_TOOLS.map((t) => t.name),
  );
  const ceo = { isCeo: true };
  return {
    documents: MODE_DOCUMENTS,
    cue: ceoCue,
    toolDescriptions: Object.fromEntries(tools.map((t) => [t.name, t.description])),
    offer: Object.fromEntries(
      CEO_MODES.map((m) => [m, { offered: offeredTools(ceo, m), usable: usableTools(ceo, m) }]),
    ) as Record<CeoMode, { offered: string[]; usable: string[] }>,
    transitions: CEO_TRANSITIONS,
    documentedWith: Object.fromEntries(COMPANY_TOOLS.map((t) => [t.name, t.contract.documentedWith ?? []])),
    toolSources: Object.fromEntries(COMPANY_TOOLS.map((t) => [t.name, t.contract.source])),
    teamLimit: DEFAULT_SETTINGS.maxTeamSize - 1,
    otherTexts: Object.fromEntries(
      lockedTexts()
        // Besides the shipped mode documents, cues and tools: every other text, and every other
        // profile's own (its id names the profile).
        .filter(
          (t) =>
            !/^(mode|cue|tool)\/[^/]+(\/[^/]+)?$/.test(t.id) ||
            t.id.split("/").some((part) => (PROMPT_PROFILES as readonly string[]).includes(part)),
        )
        .map((t) => [t.id, t.text]),
    ),
  };
}

/** Team sizes a text states that the code's limit cannot hold (or that no count can satisfy). */
function checkRanges(input: ContractInput, text: string, id: string, where: string): ContractProblem[] {
  const problems: ContractProblem[] = [];
  for (const r of statedRanges(text, TEAM_SUBJECT)) {
    const stated = `"${r.clause}"`;
    if (r.hi !== undefined && r.hi > input.teamLimit)
      problems.push({
        text: id,
        fact: `states a team of up to ${r.hi}, but the default team limit allows ${input.teamLimit} besides the CEO: ${stated}`,
        where: `${where}; ${LIMIT_AT}`,
      });
    else if (r.lo !== undefined && r.lo > input.teamLimit)
      problems.push({
        text: id,
        fact: `states a team of at least ${r.lo}, but the default team limit allows ${input.teamLimit} besides the CEO: ${stated}`,
        where: `${where}; ${LIMIT_AT}`,
      });
    else if (r.lo !== undefined && r.hi !== undefined && r.lo > r.hi)
      problems.push({
        text: id,
        fact: `states a team size range no count fits (${r.lo} to ${r.hi}): ${stated}`,
        where,
      });
  }
  return problems;
}

function checkStyle(
  text: string,
  id: string,
  where: string,
  extra: [string, RegExp][] = [],
): ContractProblem[] {
  const problems: ContractProblem[] = [];
  for (const [label, re] of [
    ["shell, fetch, HTTP or API paths", MACHINERY],
    ["urgency words", URGENCY],
    ...extra,
  ] as const) {
    const hit = re.exec(text);
    if (hit) problems.push({ text: id, fact: `carries ${label} ("${hit[0]}")`, where });
  }
  return problems;
}

function checkCue(
  input: ContractInput,
  mode: CeoMode,
  trigger: (typeof WAKE_TRIGGERS)[number],
): ContractProblem[] {
  const cue = input.cue(mode, trigger);
  const id = `cue/${mode}/${trigger}`;
  const problems: ContractProblem[] = [];
  for (const tool of [...Object.keys(input.toolDescriptions), "bash"])
    if (cue.includes(tool)) problems.push({ text: id, fact: `a cue names the tool ${tool}`, where: CUES });
  problems.push(...checkStyle(cue, id, CUES, [["numbers", /\d/]]));
  const usable = input.offer[mode].usable;
  const wait = holdBack(cue);
  if (wait !== undefined && usable.length > 0)
    problems.push({
      text: id,
      fact: `the cue tells the model to wait or not to act ("${wait}"), but the ${mode} mode expects action (it offers ${usable.join(", ")})`,
      where: `${CUES}; packages/company/src/tools/registry.ts (the ${mode} mode's offer)`,
    });
  problems.push(...checkRanges(input, cue, id, CUES));
  return problems;
}

/** A mode's cue problems, one per fact, naming the triggers whose cue has it. */
function cueProblems(input: ContractInput, mode: CeoMode): ContractProblem[] {
  const byFact = new Map<string, { p: ContractProblem; triggers: string[] }>();
  for (const trigger of WAKE_TRIGGERS)
    for (const p of checkCue(input, mode, trigger)) {
      const seen = byFact.get(p.fact) ?? { p, triggers: [] };
      seen.triggers.push(trigger);
      byFact.set(p.fact, seen);
    }
  return [...byFact.values()].map(({ p, triggers }) => ({
    ...p,
    text:
      triggers.length === WAKE_TRIGGERS.length
        ? `cue/${mode} (every trigger)`
        : `cue/${mode}/${triggers.join(",")}`,
  }));
}

export function checkPromptContract(input: ContractInput = defaultContractInput()): ContractProblem[] {
  const problems: ContractProblem[] = [];
  for (const mode of CEO_MODES) {
    const doc = input.documents[mode];
    problems.push(...checkOffer(input, mode));
    problems.push(...checkRanges(input, doc, `mode/${mode}`, DOCS));
    problems.push(...checkStyle(doc, `mode/${mode}`, DOCS));
    problems.push(...cueProblems(input, mode));
  }
  for (const [name, description] of Object.entries(input.toolDescriptions)) {
    const where = input.toolSources[name] ?? "packages/company/src/tools/registry.ts";
    const against = clauses(description).find(
      (c) => negates(c) && (/\b(?:call|use|invoke|run)\b|\bthis tool\b/i.test(c) || names(c, name)),
    );
    if (against)
      problems.push({
        text: `tool/${name}`,
        fact: `the ${name} description tells the model not to use it ("${against}")`,
        where,
      });
    problems.push(...checkRanges(input, description, `tool/${name}`, where));
  }
  for (const [id, text] of Object.entries(input.otherTexts))
    problems.push(
      ...checkRanges(
        input,
        text,
        id,
        "packages/company/src/prompts/locked-texts.ts (where each text comes from)",
      ),
    );
  return problems;
}

export function describeContractProblem(p: ContractProblem): string {
  return `${p.text}: ${p.fact} (${p.where})`;
}
