// Prompt profiles (C4-7) as a parameter of the runner. A profile names the offline CEO that plays
// it, and opens what one sample's wake needs (the legacy profile's bash tool talks to a real HTTP
// server over the sample's store).
import { offlineCeoScript } from "@cadre/company";
import { UserInputError } from "@cadre/core";
// The offline connector's script type (`@cadre/core/testing`): a profile picks the offline CEO's script.
import type { Script } from "@cadre/core/testing";
import type { PromptProfile } from "@cadre/model";
import type { Store } from "@cadre/store";
import { legacyProfile } from "./legacy-profile.js";

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

export const semanticProfile: ProfileDriver = {
  name: "semantic",
  offlineScript: offlineCeoScript,
  open: async () => ({ wake: { profile: "semantic" }, close: async () => {} }),
};

export const PROFILES: Readonly<Record<PromptProfile, ProfileDriver>> = {
  semantic: semanticProfile,
  legacy: legacyProfile,
};

export function profileDriver(name: string): ProfileDriver {
  if (!Object.prototype.hasOwnProperty.call(PROFILES, name))
    throw new UserInputError(`unknown profile "${name}"; profiles: ${Object.keys(PROFILES).join(", ")}`);
  return PROFILES[name as PromptProfile];
}
