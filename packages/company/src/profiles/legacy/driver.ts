// The legacy profile's driver (C4-7): its mode documents and initial turn, a `bash` tool with a
// token minted for the run in place of the company tools, no work briefing, its locked texts, and
// the offline CEO that plays it. It needs a running Cadre API: its CEO hires by HTTP against it.
import type { ProfileDriver } from "../types.js";
import { legacyLockedTexts } from "./locked-texts.js";
import { LEGACY_MODE_DOCUMENTS } from "./mode-documents.js";
import { offlineLegacyCeo } from "./offline-ceo-script.js";
import { legacyCue, prepareLegacyRun, requireLegacyApi } from "./profile.js";

export const legacyDriver: ProfileDriver = {
  name: "legacy",
  needsApi: true,
  modeDocuments: LEGACY_MODE_DOCUMENTS,
  lockedTexts: legacyLockedTexts,
  plan: ({ agent, apiUrl: given }) => {
    const apiUrl = requireLegacyApi(agent, given);
    return {
      cue: legacyCue(apiUrl, agent.companyId),
      open: async ({ store, runId, dataDir }) => {
        const run = await prepareLegacyRun({ store, agent, runId, apiUrl, ...(dataDir ? { dataDir } : {}) });
        return { tools: run.tools, briefing: false, close: run.close };
      },
    };
  },
  offlineCeo: offlineLegacyCeo,
};
