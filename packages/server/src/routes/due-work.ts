// The company's due work, on request (`cadre run --server`): the server's own due-work pass for one
// company now — its schedules' due ticks taken, each agent with due work woken as the background
// loop wakes it (in this process, or through the queue for the workers). The answer comes once
// each run has started; the runs go on in the server, read through GET /api/runs/{id}/events.
import { OneOf } from "@cadre/model";
import { Type } from "typebox";
import { route } from "./define.js";
import { companyScope } from "./scopes.js";

const strict = { additionalProperties: false } as const;

export const DueWorkBody = Type.Object(
  {
    maxWakes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: "Wake at most this many agents in this pass; default 100.",
      }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2 ** 31 - 1,
        description: "Seed of the offline model's variation (each agent's wake: SEED:AGENT_ID).",
      }),
    ),
  },
  strict,
);

export const ScheduleTickSchema = Type.Object(
  {
    scheduleId: Type.String(),
    agentId: Type.String(),
    companyId: Type.String(),
    ticks: Type.Integer({ description: "Ticks due when it was taken (missed ones included), as one." }),
    outcome: OneOf(["woken", "skipped"] as const),
    reason: Type.Optional(Type.String({ description: "Why it was skipped (no open work): no model call." })),
    nextDueAt: Type.String(),
  },
  strict,
);

export const DuePassSchema = Type.Object(
  {
    ticks: Type.Array(ScheduleTickSchema, { description: "The schedules' due ticks this pass took." }),
    runs: Type.Array(Type.Object({ agentId: Type.String(), runId: Type.String() }, strict), {
      description:
        "The runs of the due wakes (started now, or already under way), in the order the agents were due.",
    }),
    queued: Type.Array(Type.Object({ agentId: Type.String(), wakeId: Type.String() }, strict), {
      description: "Wakes queued for the workers that no worker started within the wait (PostgreSQL).",
    }),
    problems: Type.Array(Type.Object({ agentId: Type.String(), message: Type.String() }, strict), {
      description: "Agents whose wake was refused before its run started; their requests stay pending.",
    }),
  },
  strict,
);

export const dueWorkRoutes = [
  route({
    method: "post",
    path: "/api/companies/{id}/due-work",
    summary:
      "Run the company's due work now (operator only): take its schedules' due ticks and wake each agent with work waiting, as the server's due-work loop does. Answers once the runs have started; they go on in the server.",
    access: "operator",
    scope: companyScope,
    body: DueWorkBody,
    response: {
      status: 202,
      description: "The ticks taken, the runs started (or under way), the wakes still queued, the refusals.",
      schema: DuePassSchema,
    },
    async handle({ ctx, scope, body }) {
      return ctx.dueWork.runNow(scope.companyId, {
        maxWakes: body.maxWakes ?? 100,
        ...(body.seed !== undefined ? { seed: body.seed } : {}),
      });
    },
  }),
];
