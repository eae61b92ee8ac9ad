// The semantic profile (C4-3, C4-7): the product's own. The semantic cue of the (mode, trigger)
// pair, the locked mode documents, and the company tools by role and mode, through which every
// record says `via: "tool"`. Its texts are the product's own, locked in prompts/locked-texts.ts.
import { MODE_DOCUMENTS } from "./mode-documents.js";
import { offeredTools } from "../../tools/offer.js";
import { companyTools } from "../../tools/registry.js";
import { workspaceOf } from "../../team/workspace.js";
import { agentWorkspace } from "../../team/workspace-lifecycle.js";
import type { ProfileDriver } from "../types.js";

export const semanticDriver: ProfileDriver = {
  name: "semantic",
  needsApi: false,
  modeDocuments: MODE_DOCUMENTS,
  lockedTexts: () => [],
  plan: () => ({
    open: async ({ store, agent, runId, mode, probes, env, dataDir }) => {
      const company = await store.getCompany(agent.companyId);
      return {
        tools: companyTools(
          store,
          {
            companyId: agent.companyId,
            agentId: agent.id,
            via: "tool",
            runId,
            probes,
            // Agents it hires get their workspaces under the data directory.
            ...(dataDir !== undefined ? { dataDir } : {}),
            // Files the agent attaches are read from its workspace only.
            workspace: workspaceOf(
              company
                ? agentWorkspace(company, agent, dataDir)
                : { dataDir, companyId: agent.companyId, agentId: agent.id },
            ),
            ...(env ? { env } : {}),
          },
          // By role and mode (a changed list starts a fresh session: tools never change inside one).
          offeredTools(agent, mode),
        ),
        briefing: true,
        close: async () => {},
      };
    },
  }),
};
