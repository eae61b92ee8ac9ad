// Operating-phase scenarios (evals/operating/*.json): a company state from the
// team-building set (`base`), the tasks and schedules laid on it, how long after the schedules'
// first tick the scheduler looks, and the checks — each one code (checks.ts) — that must hold.
import { OneOf, SchemaVersion, type Static, TASK_STATUSES, Text } from "@cadre/model";
import { Type } from "typebox";

export const OPERATING_CHECKS = [
  "leads-have-strategy-tasks",
  "no-self-wake",
  "no-wake-for-finished-work",
  "blocked-work-waits",
  "idle-schedule-zero-calls",
  "runs-bounded",
  "one-run-per-task",
] as const;
export type OperatingCheckId = (typeof OPERATING_CHECKS)[number];

const Key = Text({
  maxLength: 64,
  pattern: { source: "^[a-z0-9][a-z0-9-]*$", hint: "lowercase letters, digits and -" },
});
const strict = { additionalProperties: false } as const;

export const OperatingScenarioSchema = Type.Object(
  {
    schemaVersion: SchemaVersion(1),
    id: Key,
    title: Text({ maxLength: 120 }),
    description: Type.Optional(Text({ maxLength: 2000, multiline: true })),
    base: Type.Union([Key], {
      description: "The id of a scenario in evals/scenarios whose state is seeded (it must be operating).",
    }),
    ceoHasDelegated: Type.Optional(
      Type.Boolean({
        description: "The CEO has already acted on the approval: its approval wake is not due.",
      }),
    ),
    tasks: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Key,
            title: Text({ maxLength: 200 }),
            assignee: Text({ maxLength: 50, description: "A team member's name." }),
            status: Type.Optional(OneOf(TASK_STATUSES)),
            blockedBy: Type.Optional(Type.Array(Key)),
            deliverable: Type.Optional(Text({ maxLength: 2000, multiline: true })),
          },
          strict,
        ),
      ),
    ),
    schedules: Type.Optional(
      Type.Array(Type.Object({ agent: Text({ maxLength: 50 }), every: Text({ maxLength: 16 }) }, strict)),
    ),
    lookAfterMinutes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000,
        description: "When the scheduler looks, after the schedules' first tick.",
      }),
    ),
    checks: Type.Array(OneOf(OPERATING_CHECKS), { minItems: 1 }),
  },
  strict,
);
export type OperatingScenario = Static<typeof OperatingScenarioSchema>;
