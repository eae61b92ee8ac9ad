// The schema of a run's why (company/work/why.ts): the runs of the chain, flat, each reason naming
// the run it came from.
import { Type } from "typebox";

const Nullable = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);

export const WhyReasonSchema = Type.Object(
  {
    trigger: Type.String(),
    cause: Type.String({ description: "What changed, in words." }),
    by: Type.Object(
      {
        type: Type.Union([Type.Literal("agent"), Type.Literal("operator"), Type.Literal("system")]),
        name: Type.String(),
      },
      { additionalProperties: false },
    ),
    taskId: Nullable(Type.String()),
    approvalId: Nullable(Type.String()),
    requestId: Nullable(Type.String()),
    fromRunId: Nullable(Type.String({ description: "The run in which the cause happened (in runs)." })),
  },
  { additionalProperties: false },
);

export const RunWhySchema = Type.Object(
  {
    runId: Type.String(),
    runs: Type.Array(
      Type.Object(
        {
          runId: Type.String(),
          agentId: Type.String(),
          agentName: Type.String(),
          trigger: Type.String(),
          status: Type.String(),
          startedAt: Type.String(),
          reasons: Type.Array(WhyReasonSchema),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
