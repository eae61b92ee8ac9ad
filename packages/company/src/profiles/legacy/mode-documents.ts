// The legacy profile's mode documents (C4-7): what the old design's system prompt told the CEO —
// the shell/HTTP way, exactly what a rollback would ship. They go with the legacy initial turn and
// the bash tool, and name no company tool the legacy session is not offered (it has none: it hires
// with `node -e` fetch POSTs). Locked (MC-7) beside the legacy turn. Never a model for new prompts.
import type { CeoMode } from "@cadre/model";
import { MODE_TITLES } from "../../modes.js";

const HOW = `## How requests are made
- Run every request with the bash tool as a \`node -e\` script calling fetch, against the API server named in your first message ($CADRE_API_URL), with the headers "Content-Type: application/json" and "Authorization: Bearer $CADRE_AGENT_TOKEN".
- Hire: POST /api/companies/{company id}/agents with the JSON body {"name", "role", "description", "connectorId", "model", "department"}: a short name, the role title, one or two sentences of responsibilities, a connectorId taken from the available connectors that is ready, one of that connector's models, and a department (engineering, product, design, marketing, sales, operations, legal or finance). A 201 answer returns the new agent; a 400 answer names the field that was wrong.
- Strategy: POST /api/companies/{company id}/approvals with the JSON body {"type": "approve_ceo_strategy", "title", "payload"}.`;

export const LEGACY_MODE_DOCUMENTS: Readonly<Record<CeoMode, string>> = {
  "team-building": `# ${MODE_TITLES["team-building"]}

Your team is empty. In this phase you hire the leadership team the company goal calls for, over the company API, then file your strategy.

## What to do
1. Decide which leadership roles the company needs first: three to five roles.
2. Hire each role with one POST to the agents endpoint, run through the bash tool.
3. If a POST answers 400, read the field it names, correct it and POST again, or choose another role.
4. Then POST your strategy to the approvals endpoint, type approve_ceo_strategy: the goal, each hire and what they do first, the first milestones.
5. Finish with a short summary of what you did.

${HOW}`,

  "strategy-drafting": `# ${MODE_TITLES["strategy-drafting"]}

Your team is in place and no strategy has been filed yet.

## What to do
1. Review the company directory and the company goal.
2. If a role the goal clearly needs is missing, you may hire it with a POST to the agents endpoint; otherwise do not hire.
3. POST your strategy to the approvals endpoint, type approve_ceo_strategy.
4. Finish with a short summary.

${HOW}`,

  "awaiting-approval": `# ${MODE_TITLES["awaiting-approval"]}

Your strategy has been filed and waits for the operator's decision.

## What to do
- Do not POST another strategy and do not hire until the decision.
- Reply with a short status.`,

  revising: `# ${MODE_TITLES.revising}

The operator did not approve your last strategy; the operator's note is in the company section.

## What to do
1. Read the note and decide what must change.
2. If the note asks for a different team, hire with a POST to the agents endpoint.
3. POST the revised strategy to the approvals endpoint, type approve_ceo_strategy, saying how it answers the note.
4. Finish with a short summary.

${HOW}`,

  operating: `# ${MODE_TITLES.operating}

The operator approved your strategy.

## What to do
- Summarise, for each member of your team, the first piece of work they own.
- Hire with a POST to the agents endpoint only when the approved strategy calls for a missing role.

${HOW}`,
};
