// A trace: what one sample of one scenario did, as recorded facts (versioned; trace/parse.ts reads
// it back strictly against these schemas). Comparison and gates are computed from traces, never
// stored in them. The types are derived from the schemas, so the files and the code cannot differ.
import { Nullable, OneOf, SchemaVersion, type Static, UsageCountersSchema, VIAS } from "@cadre/model";
import { Type } from "typebox";
import { Sha256 } from "../data/fields.js";

export const TRACE_SCHEMA_VERSION = 1;

/** offline: the scripted model; live: a real vendor call; replayed: answered from a cassette. */
export const TRACE_SOURCES = ["offline", "live", "replayed"] as const;
export type TraceSource = (typeof TRACE_SOURCES)[number];

const strict = { additionalProperties: false } as const;
const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description ? { description } : {}) });
/** A recorded text: anything the run produced, kept as it was (empty included). */
const Recorded = (description?: string) => Type.String(description ? { description } : {});
const Name = () => Type.String({ minLength: 1 });

export const TraceToolCallSchema = Type.Object(
  {
    name: Name(),
    args: Type.Unknown({
      description: "Arguments with volatile parts (ids, ports, tokens, whitespace runs) normalised.",
    }),
    ok: Type.Boolean(),
    result: Recorded("The tool result as the model read it, normalised and clipped."),
  },
  strict,
);
export type TraceToolCall = Static<typeof TraceToolCallSchema>;

export const TraceHireSchema = Type.Object(
  {
    name: Recorded(),
    role: Recorded(),
    description: Recorded(),
    department: Nullable(Recorded()),
    connectorId: Name(),
    model: Name(),
    via: OneOf(VIAS, {
      description: 'Which path created the agent: "tool" (hire_agent) or "http" (the legacy route).',
    }),
  },
  strict,
);
export type TraceHire = Static<typeof TraceHireSchema>;

export const TraceApprovalSchema = Type.Object(
  { type: Name(), title: Recorded(), status: Name(), via: Name() },
  strict,
);
export type TraceApproval = Static<typeof TraceApprovalSchema>;

export const TraceUsageSchema = Type.Object(
  {
    ...UsageCountersSchema.properties,
    cacheHitRate: Type.Number({ minimum: 0, maximum: 1 }),
    modelCalls: Count(),
  },
  strict,
);
export type TraceUsage = Static<typeof TraceUsageSchema>;

const Usd = (description: string) => Nullable(Type.Number({ minimum: 0, description }));

/** What the sample's model calls cost, at the model registry's price of the model that served each. */
export const TraceCostSchema = Type.Object(
  {
    usd: Usd("The sample's cost; null (unknown) when any call's price is unknown, never 0 for unknown."),
    unpricedCalls: Count("Calls with no known price."),
    calls: Type.Array(
      Type.Object(
        {
          model: Name(),
          servedModel: Nullable(Name()),
          usd: Usd("This call's cost; null: no known price for the model that served it."),
        },
        strict,
      ),
    ),
  },
  strict,
);
export type TraceCost = Static<typeof TraceCostSchema>;

/** The per-sample cap (or the run's --max-cost-usd) that ended the sample, in the eval's words. */
export const TraceCapSchema = Type.Object(
  {
    kind: OneOf(["model_calls", "tool_calls", "tokens", "cost", "wall_time", "run_cost"]),
    message: Name(),
  },
  strict,
);
export type TraceCap = Static<typeof TraceCapSchema>;

export const TraceAgentSchema = Type.Object(
  {
    name: Recorded(),
    role: Recorded(),
    department: Nullable(Recorded()),
    connectorId: Name(),
    model: Name(),
    via: Name(),
    status: Name(),
    isCeo: Type.Boolean(),
  },
  strict,
);
export type TraceAgent = Static<typeof TraceAgentSchema>;

export const TraceSchema = Type.Object(
  {
    schemaVersion: SchemaVersion(TRACE_SCHEMA_VERSION),
    scenarioId: Name(),
    sample: Count(),
    seed: Count(),
    profile: Name(),
    ceoRoute: Name(),
    source: OneOf(TRACE_SOURCES),
    standin: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "Set when the answers came from a stand-in (scripted, not a model: it said so on the wire), and why. Such a sample never measures behaviour.",
      }),
    ),
    break: Nullable(Name()),
    trigger: Name(),
    modeBefore: Name(),
    modeAfter: Name(),
    cue: Type.Object({ text: Recorded(), tokens: Count() }, strict),
    systemPrompt: Type.Object(
      {
        tokens: Count(),
        sha256: Recorded(),
        observed: Type.Boolean({
          description:
            "Measured on the request the model received; otherwise no model call was seen (tokens 0).",
        }),
        phases: Type.Optional(
          Type.Object(
            { runtime: Nullable(Recorded()), document: Nullable(Recorded()) },
            {
              ...strict,
              description:
                'The phase the prompt states ("Current phase: …") and the title of the mode document it carries: mode drift shows here.',
            },
          ),
        ),
      },
      strict,
    ),
    tools: Type.Array(Type.Object({ name: Name(), schemaHash: Name() }, strict), {
      description: "Tools offered to the model on its first call, with the hash of each input schema.",
    }),
    toolCalls: Type.Array(TraceToolCallSchema),
    trajectory: Type.Array(Type.String(), {
      description: 'Path-independent effects in commit order: "hire:<department>", "file:<approval type>".',
    }),
    hires: Type.Array(TraceHireSchema),
    approvalsFiled: Type.Array(TraceApprovalSchema),
    usage: TraceUsageSchema,
    cost: Type.Optional(TraceCostSchema),
    cap: Type.Optional(Nullable(TraceCapSchema)),
    latencyMs: Type.Number({ minimum: 0 }),
    terminal: OneOf(["done", "failed", "cancelled"]),
    errors: Type.Array(Type.String()),
    finalState: Type.Object(
      { mode: Name(), agents: Type.Array(TraceAgentSchema), approvals: Type.Array(TraceApprovalSchema) },
      strict,
    ),
  },
  strict,
);
export type Trace = Static<typeof TraceSchema>;

/** traces/<scenario>.json: the scenario as recorded (its file form) and the traces of its samples. */
export const ScenarioTracesSchema = Type.Object(
  {
    schemaVersion: SchemaVersion(TRACE_SCHEMA_VERSION),
    kind: Type.Literal("cadre-eval-traces"),
    scenario: Type.Object(
      {
        id: Name(),
        hash: Sha256(),
        snapshot: Type.Record(Type.String(), Type.Unknown(), {
          description:
            "The scenario in its file form (scenario/document.ts); `hash` is that of the parsed scenario.",
        }),
      },
      strict,
    ),
    traces: Type.Array(TraceSchema),
  },
  strict,
);
export type ScenarioTraces = Static<typeof ScenarioTracesSchema>;
