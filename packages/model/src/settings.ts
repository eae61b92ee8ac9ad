// A company's settings: one schema for what the store keeps, what the API shows and what a scenario
// file may set.
import { type Static, Type } from "typebox";
import { OneOf } from "./schema.js";
import { PROMPT_PROFILES } from "./vocabulary.js";

export const MAX_TEAM_SIZE_LIMIT = 200;

export const CompanySettingsSchema = Type.Object(
  {
    maxTeamSize: Type.Integer({
      minimum: 1,
      maximum: MAX_TEAM_SIZE_LIMIT,
      description: "Upper bound on active agents, CEO included.",
    }),
    requireHireApproval: Type.Boolean({
      description:
        "When true, hire_agent files a hire_agent approval for the operator instead of hiring; approving it hires exactly that agent.",
    }),
    profile: OneOf(PROMPT_PROFILES, {
      description: "Prompt profile used for wakes unless a wake overrides it.",
    }),
  },
  { additionalProperties: false },
);
export type CompanySettings = Static<typeof CompanySettingsSchema>;

export const DEFAULT_SETTINGS: Readonly<CompanySettings> = Object.freeze({
  maxTeamSize: 8,
  requireHireApproval: false,
  profile: "semantic",
});
