// Operating-phase scenarios (evals/operating/*.json): a company state from the
// team-building set (`base`), the tasks, schedules, settings and members' file tools laid on it, how
// the operator reviews what it asked for, how long after the schedules' first tick the scheduler
// looks, and the checks — each one code (checks.ts, work-checks.ts) — that must hold.
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
  "deliverable-files-attached",
  "changes-go-back",
  "revision-accepted",
  "review-bound-escalates",
  "writes-inside-workspace",
  "no-self-acceptance",
  "tools-by-role",
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
            createdBy: Type.Optional(
              Text({
                maxLength: 50,
                description: "A team member's name: the task is theirs to review. Default: the operator's.",
              }),
            ),
            operatorReviews: Type.Optional(
              Type.Array(OneOf(["accept", "request_changes"] as const), {
                maxItems: 10,
                description:
                  "The operator's decision on each hand-in of a task the operator created, in order (then accept).",
              }),
            ),
          },
          strict,
        ),
      ),
    ),
    schedules: Type.Optional(
      Type.Array(Type.Object({ agent: Text({ maxLength: 50 }), every: Text({ maxLength: 16 }) }, strict)),
    ),
    settings: Type.Optional(
      Type.Object(
        {
          reviewRounds: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
          acceptance: Type.Optional(OneOf(["review", "automatic"] as const)),
        },
        { ...strict, description: "Company settings laid on the base state." },
      ),
    ),
    fileTools: Type.Optional(
      Type.Array(
        Type.Object(
          {
            agent: Text({ maxLength: 50, description: "A team member's name." }),
            tools: Type.Array(OneOf(["read", "write", "edit", "ls"] as const), { maxItems: 4 }),
          },
          strict,
        ),
        {
          description:
            "Members moved onto an offline connector that offers only these of Pi's file tools (its config.piTools).",
        },
      ),
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
