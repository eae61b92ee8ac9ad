// The legacy profile's initial user turn (C4-7): the old design's hard-coded CEO turn, kept so the
// evaluation can record it as the baseline. It couples everything the semantic cue (C4-3) removed —
// the tool name, node -e + fetch, the API paths, the numbers, the urgency — on purpose: that is the
// behaviour being measured. Never use it as a model for new prompts.

export interface LegacyTurnInput {
  /** Base URL of the running Cadre API, e.g. http://127.0.0.1:7420 */
  apiUrl: string;
  companyId: string;
}

export function legacyInitialTurn({ apiUrl, companyId }: LegacyTurnInput): string {
  const base = apiUrl.replace(/\/+$/, "");
  const agents = `${base}/api/companies/${companyId}/agents`;
  const approvals = `${base}/api/companies/${companyId}/approvals`;
  return [
    "You are the CEO of this company. Your team is empty (zero active direct reports).",
    `This wake has ONE job: call the \`bash\` tool to execute \`node -e '...'\` fetch POSTs that file 3–5 hire_agent requests against /api/companies/${companyId}/agents, then one approve_ceo_strategy POST against /api/companies/${companyId}/approvals.`,
    `The API server is at ${base} (also in $CADRE_API_URL). Every request needs the headers "Content-Type: application/json" and "Authorization: Bearer $CADRE_AGENT_TOKEN"; the token is in your shell environment.`,
    `Hire request: POST ${agents} with the JSON body {"name": "<short name, at most 50 characters, e.g. CTO>", "role": "<business role title>", "description": "<1-2 sentences of responsibilities>", "connectorId": "<a ready connector id>", "model": "<one of that connector's models>", "department": "<engineering|product|design|marketing|sales|operations|legal|finance>"}. A 201 response returns the new agent; a 400 response names the field that was wrong.`,
    `Strategy request: POST ${approvals} with the JSON body {"type": "approve_ceo_strategy", "title": "<short title>", "payload": "<your strategy: the goal, each hire and what they do first, the first milestones>"}.`,
    "The exact body shape and connectorId rules are in your Team Building Phase operating instructions above. Use a connectorId and model from the Available Connectors section (only ready connectors).",
    "Start the first POST NOW. Do not write a plan document. Do not describe what you will do — execute the tool call.",
  ].join("\n\n");
}
