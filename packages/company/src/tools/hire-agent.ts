// hire_agent (C4-1): a tool, not an HTTP call from a shell. The operation and its schema live with
// the team (team/hire.ts); this is what the model reads and who is given it.
import { CEO_MODES } from "@cadre/model";
import { hireAgent } from "../team/hire.js";
import { HIRING_MODES, hireAgentSchema } from "../team/hire-rules.js";
import { defineCompanyTool } from "./entry.js";
import { toolValidator } from "./validate.js";

export const HIRE_AGENT_DESCRIPTION =
  "Hire a new agent into your company. It reports to you. Choose a connector and model from the available connectors in your instructions. Where the company requires approval for hires, the hire is filed for the operator's approval instead, and the result says so.";

export const validateHireAgentInput = toolValidator("hire_agent", hireAgentSchema);

export const hireAgentTool = defineCompanyTool({
  name: "hire_agent",
  label: "Hire agent",
  description: HIRE_AGENT_DESCRIPTION,
  schema: hireAgentSchema,
  run: hireAgent,
  // The CEO is given it in every mode (the list never changes within a session); a call succeeds
  // in the modes that allow hiring.
  roles: { ceo: { offeredIn: CEO_MODES, usableIn: HIRING_MODES } },
  contract: { source: "packages/company/src/tools/hire-agent.ts" },
  frozenByEval: true,
  summarize: (d) =>
    "agentId" in d
      ? `hired ${d.name} — ${d.role} (${d.agentId})`
      : `hire of ${d.name} — ${d.role} filed for the operator's approval (${d.approvalId})`,
});
