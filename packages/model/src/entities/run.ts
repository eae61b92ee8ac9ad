// A run: the store's record. Its API view (server views) keeps the fields and names the usage
// counters as the API documents them (`inputTokens`, …), with any credential-shaped error text scrubbed.
import type { Static } from "typebox";
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import type { Usage } from "../usage.js";
import { PROMPT_PROFILES, RUN_STATUSES } from "../vocabulary.js";
import { Closed, Id, Time } from "./fields.js";

const count = () => Type.Integer({ minimum: 0 });

/** Core's four counters (input = uncached input), as the store keeps them. */
const RunUsageSchema = Closed({ input: count(), output: count(), cacheRead: count(), cacheWrite: count() });

export const RunRowSchema = Closed({
  id: Id(),
  companyId: Id(),
  agentId: Id(),
  trigger: Type.String({
    description: "What woke the agent: start_team_building, approval_decided, routine.",
  }),
  mode: Type.String({ description: "The mode the run was woken in." }),
  profile: OneOf(PROMPT_PROFILES),
  cue: Type.String({ description: "The initial user turn." }),
  status: OneOf(RUN_STATUSES),
  usage: RunUsageSchema,
  error: Nullable(Type.String()),
  stopReason: Nullable(
    Type.String({
      description:
        'Why spend control stopped the run: "budget" (no room under the company\'s or an agent\'s budget) or "run_cap" (one of the run\'s caps: model calls, tool calls, tokens, USD, wall time; the error names which); null otherwise.',
    }),
  ),
  startedAt: Time(),
  endedAt: Nullable(Time()),
});
export type RunRow = Static<typeof RunRowSchema>;

// The record's usage is core's `Usage`, field for field.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const usageIsUsage: Same<RunRow["usage"], Usage> = true;
void usageIsUsage;
