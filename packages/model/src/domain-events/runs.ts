// What happened to runs and their spending: stopped, budgets, reconciled usage, a drifted model.
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { Data, Id, Words } from "./fields.js";

const Count = Type.Integer({ minimum: 0 });
const Scope = OneOf(["company", "agent", "run"]);

export const RUN_EVENTS = {
  "run.stopped": Data({ reason: Words }),
  "budget.changed": Data({
    scope: OneOf(["company", "agent"]),
    budgetAgentId: Nullable(Id),
    /** The fields the operator set, as given (limits, period, warning, run caps, a price). */
    change: Type.Record(Type.String(), Type.Unknown()),
  }),
  "budget.warned": Data({
    /** One warning per budget, level and period: later runs look for it. */
    key: Id,
    scope: Scope,
    fraction: Type.Number({ minimum: 0 }),
    tokens: Count,
    usd: Type.Number({ minimum: 0 }),
    limitTokens: Nullable(Count),
    limitUsd: Nullable(Type.Number({ minimum: 0 })),
    unpricedCalls: Count,
    message: Words,
  }),
  "budget.exhausted": Data({
    reason: OneOf(["budget", "run_cap"]),
    message: Words,
    scope: Scope,
    budgetAgentId: Nullable(Id),
  }),
  /** Model calls of a run lost with its process, booked afterwards from the harness's own record. */
  "usage.reconciled": Data({
    threadId: Id,
    calls: Count,
    usage: Data({ input: Count, output: Count, cacheRead: Count, cacheWrite: Count }),
    message: Words,
  }),
  "model.drifted": Data({
    connectorId: Id,
    declared: Id,
    served: Id,
    /** The fingerprints behind the drift (when the endpoint offers them: a digest, a listing's metadata). */
    fingerprint: Type.Optional(Data({ declared: Id, served: Id })),
    policy: OneOf(["refuse", "warn"]),
  }),
};
