// The offer against the mode documents: a document may tell the model to use only tools its mode's
// session is given and whose calls can succeed (in the mode, or in one its own calls lead to);
// every tool the mode lets succeed is named in it; no document keeps the model from a tool its mode
// expects it to use; every "X tool" it names exists.
import type { CeoMode } from "@cadre/model";
import { names, toolMentions, toolReferences } from "./contract-clauses.js";
import type { ContractInput, ContractProblem } from "./contract.js";

export const DOCS = "packages/company/src/profiles/semantic/mode-documents.ts";
const OFFER_AT = (tool: string, source: string | undefined) =>
  `${source ?? "packages/company/src/tools/registry.ts"} (the modes ${tool} is offered and usable in)`;

/** The modes a CEO reaches from `mode` by its own calls in one session (a hire, filing a strategy). */
function reachable(input: ContractInput, mode: CeoMode): CeoMode[] {
  const next = input.transitions[mode];
  return [mode, ...[next.hire, next["file-strategy"]].filter((m): m is CeoMode => m !== undefined)];
}

export function checkOffer(input: ContractInput, mode: CeoMode): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const doc = input.documents[mode];
  const offer = input.offer[mode];
  const tools = Object.keys(input.toolDescriptions);
  const where = (tool: string) => `${DOCS}; ${OFFER_AT(tool, input.toolSources[tool])}`;
  const text = `mode/${mode}`;
  const mentions = toolMentions(doc, tools);
  const told = new Set(mentions.filter((m) => !m.against).map((m) => m.tool));
  const lateUsable = new Set(reachable(input, mode).flatMap((m) => input.offer[m].usable));

  for (const tool of told) {
    if (!offer.offered.includes(tool))
      problems.push({
        text,
        fact: `the ${mode} document tells the model to use ${tool}, but the ${mode} mode does not offer it (its session is not given the tool)`,
        where: where(tool),
      });
    else if (!lateUsable.has(tool))
      problems.push({
        text,
        fact: `the ${mode} document tells the model to use ${tool}, but a call to it cannot succeed in the ${mode} mode (nor in a mode its own calls lead to)`,
        where: where(tool),
      });
  }
  for (const tool of offer.usable) {
    const against = mentions.find((m) => m.tool === tool && m.against);
    if (!names(doc, tool))
      problems.push({
        text,
        fact: `the ${mode} mode offers ${tool}, but its document never names it`,
        where: where(tool),
      });
    else if (against)
      problems.push({
        text,
        fact: `the ${mode} document keeps the model from ${tool}, which the ${mode} mode offers for use: "${against.clause}"`,
        where: where(tool),
      });
    else
      for (const word of input.documentedWith[tool] ?? [])
        if (!names(doc, word))
          problems.push({
            text,
            fact: `the ${mode} mode offers ${tool}, but its document never says ${word} with it`,
            where: where(tool),
          });
  }
  // A tool the mode's own calls make usable (filing once the first hire has joined) is one the mode
  // expects the model to reach for: keeping the model from it stops the flow as surely.
  for (const tool of offer.offered) {
    if (offer.usable.includes(tool) || !lateUsable.has(tool)) continue;
    const against = mentions.find((m) => m.tool === tool && m.against);
    if (against)
      problems.push({
        text,
        fact: `the ${mode} document keeps the model from ${tool}, which the ${mode} mode offers and which succeeds once the mode's own calls have moved it on: "${against.clause}"`,
        where: where(tool),
      });
  }
  for (const ref of toolReferences(doc))
    if (!tools.includes(ref))
      problems.push({
        text,
        fact: `the ${mode} document names a tool ${ref}, which no mode offers (the company tools are ${tools.join(", ")})`,
        where: DOCS,
      });
  return problems;
}
