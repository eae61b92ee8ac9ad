// The prompt contract (issue 13, item 8): the facts the code knows and the texts a model reads must
// agree. A static check, run by `cadre prompts check` (so by `npm run check`) and before every
// eval; it reads texts, it says nothing about behaviour. Each problem names the text, the fact it
// contradicts and where each lives.
import { CEO_MODES, type CeoMode, DEFAULT_SETTINGS, WAKE_TRIGGERS } from "@cadre/model";
import type { Store } from "@cadre/store";
import { CEO_TRANSITIONS } from "../modes.js";
import { MODE_TOOLS } from "../tools/offer.js";
import { COMPANY_TOOLS, companyTool, companyTools } from "../tools/registry.js";
import { ceoCue } from "./cues.js";
import { MODE_DOCUMENTS } from "../profiles/semantic/mode-documents.js";

export interface ContractProblem {
  /** The text that disagrees (its lock id). */
  text: string;
  /** The fact it contradicts. */
  fact: string;
  /** Where the text and the fact live. */
  where: string;
}

const DOCS = "packages/company/src/profiles/semantic/mode-documents.ts";
const CUES = "packages/company/src/prompts/cues.ts";
const TOOLS_AT = "packages/company/src/tools/registry.ts (MODE_TOOLS: each tool's roles)";
const TOOL_NAMES = COMPANY_TOOLS.map((t) => t.name);
const NUMBER_WORDS: Record<string, number> = {
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
};

/** Tool descriptions and instructions that forbid the action they exist for. */
export const FORBIDS_USE = /\b(do not|don't|never)\s+(call|use)\b|\bnever hire\b/i;
const MACHINERY = /\b(shell|bash|fetch|curl|http|https|node -e)\b|\/api\/|\bPOST\b/i;
const URGENCY = /\b(now|immediately|urgent|urgently|asap|right away)\b|!/i;

/** The modes a CEO reaches from `mode` by its own tool calls (a hire, filing a strategy). */
function reachable(mode: CeoMode): CeoMode[] {
  const next = CEO_TRANSITIONS[mode];
  return [mode, ...[next.hire, next["file-strategy"]].filter((m): m is CeoMode => m !== undefined)];
}

const NO_STORE = new Proxy({} as Store, {
  get() {
    throw new Error("the prompt contract reads tool definitions only");
  },
});

/** What the contract reads; tests pass edited copies to see each rule fail. */
export interface ContractInput {
  documents: Readonly<Record<CeoMode, string>>;
  cue: (mode: CeoMode, trigger: (typeof WAKE_TRIGGERS)[number]) => string;
  toolDescriptions: Readonly<Record<string, string>>;
}

export function defaultContractInput(): ContractInput {
  const tools = companyTools(
    NO_STORE,
    { companyId: "cmp_contract", agentId: null, via: "tool", runId: null },
    TOOL_NAMES,
  );
  return {
    documents: MODE_DOCUMENTS,
    cue: ceoCue,
    toolDescriptions: Object.fromEntries(tools.map((t) => [t.name, t.description])),
  };
}

export function checkPromptContract(input: ContractInput = defaultContractInput()): ContractProblem[] {
  const problems: ContractProblem[] = [];
  for (const mode of CEO_MODES) {
    const doc = input.documents[mode];
    const allowed = new Set(reachable(mode).flatMap((m) => MODE_TOOLS[m]));
    for (const tool of MODE_TOOLS[mode])
      if (!doc.includes(tool))
        problems.push({
          text: `mode/${mode}`,
          fact: `the ${mode} mode offers ${tool}, but its document never names it`,
          where: `${DOCS}; ${TOOLS_AT}`,
        });
    for (const tool of MODE_TOOLS[mode])
      for (const word of companyTool(tool)?.contract.documentedWith ?? [])
        if (doc.includes(tool) && !doc.includes(word))
          problems.push({
            text: `mode/${mode}`,
            fact: `the ${mode} mode offers ${tool}, but its document never says ${word} with it`,
            where: `${DOCS}; ${companyTool(tool)?.contract.source ?? TOOLS_AT}`,
          });
    for (const tool of TOOL_NAMES)
      if (doc.includes(tool) && !allowed.has(tool))
        problems.push({
          text: `mode/${mode}`,
          fact: `the document names ${tool}, which the ${mode} mode does not offer (nor a mode its own calls lead to)`,
          where: `${DOCS}; ${TOOLS_AT}`,
        });
    const range = /\b(\w+) to (\w+) roles\b/i.exec(doc);
    const hi = range ? (NUMBER_WORDS[(range[2] as string).toLowerCase()] ?? Number(range[2])) : undefined;
    if (hi !== undefined && hi > DEFAULT_SETTINGS.maxTeamSize - 1)
      problems.push({
        text: `mode/${mode}`,
        fact: `states a team of up to ${hi} roles; the default team limit allows ${DEFAULT_SETTINGS.maxTeamSize - 1} besides the CEO`,
        where: `${DOCS}; packages/model/src/settings.ts (DEFAULT_SETTINGS.maxTeamSize)`,
      });
    for (const [label, re] of [
      ["shell, fetch, HTTP or API paths", MACHINERY],
      ["urgency words", URGENCY],
    ] as const) {
      const hit = re.exec(doc);
      if (hit)
        problems.push({
          text: `mode/${mode}`,
          fact: `a mode document carries ${label} ("${hit[0]}"; C4-5)`,
          where: DOCS,
        });
    }
    const sentences = doc.split(/(?<=[.;])\s+|\n/);
    for (const tool of TOOL_NAMES) {
      const against = sentences.find((s) => s.includes(tool) && FORBIDS_USE.test(s));
      if (against)
        problems.push({
          text: `mode/${mode}`,
          fact: `tells the model not to use ${tool}: "${against.trim()}"`,
          where: DOCS,
        });
    }
    for (const trigger of WAKE_TRIGGERS) {
      const cue = input.cue(mode, trigger);
      const id = `cue/${mode}/${trigger}`;
      for (const tool of [...TOOL_NAMES, "bash"])
        if (cue.includes(tool))
          problems.push({ text: id, fact: `a cue names the tool ${tool} (C4-3)`, where: CUES });
      for (const [label, re] of [
        ["shell, fetch, HTTP or API paths", MACHINERY],
        ["urgency words", URGENCY],
        ["numbers", /\d/],
      ] as const) {
        const hit = re.exec(cue);
        if (hit) problems.push({ text: id, fact: `a cue carries ${label} ("${hit[0]}"; C4-3)`, where: CUES });
      }
    }
  }
  for (const [name, description] of Object.entries(input.toolDescriptions))
    if (FORBIDS_USE.test(description))
      problems.push({
        text: `tool/${name}`,
        fact: `the ${name} description tells the model not to use it ("${FORBIDS_USE.exec(description)?.[0]}")`,
        where: companyTool(name)?.contract.source ?? "packages/company/src/tools/registry.ts",
      });
  return problems;
}

export function describeContractProblem(p: ContractProblem): string {
  return `${p.text}: ${p.fact} (${p.where})`;
}
