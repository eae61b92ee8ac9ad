// The prompt profiles (C4-7), one driver each: the registry the wake, the prompt lock and the
// offline CEO look a profile up in. A new profile is a folder here and one line below.
import { UserInputError } from "@cadre/core";
import type { PromptProfile } from "@cadre/model";
import { legacyDriver } from "./legacy/driver.js";
import { semanticDriver } from "./semantic/driver.js";
import type { ProfileDriver } from "./types.js";

export type { ProfileDriver, ProfileRun, ProfileRunInput, ProfileWake } from "./types.js";

export const PROFILE_DRIVERS: Readonly<Record<PromptProfile, ProfileDriver>> = {
  semantic: semanticDriver,
  legacy: legacyDriver,
};

/** The driver of a profile name, or undefined for a name that is none (e.g. read from an old file). */
export function findProfileDriver(name: string): ProfileDriver | undefined {
  return Object.prototype.hasOwnProperty.call(PROFILE_DRIVERS, name)
    ? PROFILE_DRIVERS[name as PromptProfile]
    : undefined;
}

/** The driver of a profile name; an unknown name is the caller's input error, naming the profiles. */
export function profileDriver(name: string): ProfileDriver {
  if (!Object.prototype.hasOwnProperty.call(PROFILE_DRIVERS, name))
    throw new UserInputError(
      `unknown profile "${name}"; profiles: ${Object.keys(PROFILE_DRIVERS).join(", ")}`,
    );
  return PROFILE_DRIVERS[name as PromptProfile];
}
