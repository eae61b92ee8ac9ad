// The legacy profile's texts that reach a model (MC-7): its initial turn (rendered with placeholder
// URL and company, so only a template change shows) and the bash tool's name, description and
// schema. For the system-prompt lock: prompts/locked-texts.ts includes these.
import type { LockedText } from "@cadre/core";
import { bashTool } from "./bash-tool.js";
import { legacyInitialTurn } from "./initial-turn.js";
import { LEGACY_MODE_DOCUMENTS } from "./mode-documents.js";

export function legacyLockedTexts(): LockedText[] {
  const bash = bashTool({ cwd: "{run folder}", env: {} });
  return [
    ...Object.entries(LEGACY_MODE_DOCUMENTS).map(([mode, text]) => ({ id: `mode/legacy/${mode}`, text })),
    {
      id: "cue/legacy/initial-turn",
      text: legacyInitialTurn({ apiUrl: "{api url}", companyId: "{company id}" }),
    },
    {
      id: "tool/bash",
      text: JSON.stringify(
        { name: bash.name, description: bash.description, parameters: bash.parameters },
        null,
        2,
      ),
    },
  ];
}
