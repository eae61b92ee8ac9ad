// Prompt profiles (C4-7) as a parameter of the runner. A profile names the offline CEO that plays
// it, and opens what one sample's wake needs (a profile whose CEO acts over HTTP, the legacy one,
// talks to a real HTTP server over the sample's store).
import { offlineCeoScript, PROFILE_DRIVERS } from "@cadre/company";
import { UserInputError } from "@cadre/core";
// The offline connector's script type (`@cadre/core/offline`): a profile picks the offline CEO's script.
import type { Script } from "@cadre/core/offline";
import { PROMPT_PROFILES, type PromptProfile } from "@cadre/model";
import type { Store } from "@cadre/store";
import { openWithServer } from "./api-profile.js";

export interface ProfileSession {
  /** Passed to wakeAgent. */
  wake: { profile: PromptProfile; apiUrl?: string; dataDir?: string };
  close(): Promise<void>;
}

export interface ProfileDriver {
  name: PromptProfile;
  /** The offline CEO (the script the session would pick), wrapped by captures and breaks. */
  offlineScript: Script;
  open(context: { store: Store; env: NodeJS.ProcessEnv }): Promise<ProfileSession>;
}

/** The runner's driver of a company profile (the offline CEO plays every profile, from what it is offered). */
function runnerProfile(name: PromptProfile): ProfileDriver {
  return {
    name,
    offlineScript: offlineCeoScript,
    open: PROFILE_DRIVERS[name].needsApi
      ? (context) => openWithServer(name, context)
      : async () => ({ wake: { profile: name }, close: async () => {} }),
  };
}

export const PROFILES = Object.fromEntries(
  PROMPT_PROFILES.map((name) => [name, runnerProfile(name)]),
) as Readonly<Record<PromptProfile, ProfileDriver>>;

export const semanticProfile: ProfileDriver = PROFILES.semantic;

export function profileDriver(name: string): ProfileDriver {
  if (!Object.prototype.hasOwnProperty.call(PROFILES, name))
    throw new UserInputError(`unknown profile "${name}"; profiles: ${Object.keys(PROFILES).join(", ")}`);
  return PROFILES[name as PromptProfile];
}
