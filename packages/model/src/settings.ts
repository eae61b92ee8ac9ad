// A company's settings: one schema for what the store keeps, what the API shows and what a scenario
// file may set.
import { type Static, Type } from "typebox";
import { OneOf, Text } from "./schema.js";
import { PROMPT_PROFILES } from "./vocabulary.js";

export const MAX_TEAM_SIZE_LIMIT = 200;

const perMillion = (description: string) => Type.Number({ minimum: 0, maximum: 100_000, description });

export const CompanyPriceSchema = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 128, description: "Explicit model id." }),
    since: Type.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}$",
      description: "Date (YYYY-MM-DD) from which it applies.",
    }),
    input: perMillion("USD per million uncached input tokens."),
    output: perMillion("USD per million output tokens."),
    cacheRead: perMillion("USD per million cache-read tokens."),
    cacheWrite: perMillion("USD per million cache-write tokens."),
  },
  { additionalProperties: false },
);
export type CompanyPrice = Static<typeof CompanyPriceSchema>;

/** Where a company's workspaces live: an absolute directory (ROOT/AGENT_ID). */
export const WorkspaceRoot = Text({
  maxLength: 1024,
  // Absolute, and no `.` or `..` segment: the root is the one place every workspace lives under.
  pattern: {
    source: "^(/(?!\\.{1,2}(/|$))[^/]+)+/?$",
    hint: "an absolute directory path without . or .. segments, e.g. /srv/cadre/workspaces",
  },
  description:
    "An absolute directory under which each agent's workspace lives (ROOT/AGENT_ID); default DATA_DIR/agents/AGENT_ID/workspace.",
});

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
    onModelDrift: Type.Optional(
      OneOf(["warn", "refuse"] as const, {
        description:
          "When an endpoint serves a model other than the one declared (a drift): warn records it (on the call, an activity row, the run) and goes on; refuse also stops the run at that call. Default warn.",
      }),
    ),
    reviewRounds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        description:
          "How many times a task's reviewer may send it back with changes; the next request for changes goes to the operator to decide (default 3).",
      }),
    ),
    acceptance: Type.Optional(
      OneOf(["review", "automatic"] as const, {
        description:
          "review (the default): a task handed in waits for its creator to accept it; automatic: a task handed in is done.",
      }),
    ),
    workspaceRoot: Type.Optional(WorkspaceRoot),
    prices: Type.Optional(
      Type.Array(CompanyPriceSchema, {
        maxItems: 200,
        description:
          "The company's own prices (negotiated or local models), USD per million tokens; they win over the registry's. A change is a new entry with a later `since`.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CompanySettings = Static<typeof CompanySettingsSchema>;

export const DEFAULT_REVIEW_ROUNDS = 3;

export const DEFAULT_SETTINGS: Readonly<CompanySettings> = Object.freeze({
  maxTeamSize: 8,
  requireHireApproval: false,
  profile: "semantic",
});
