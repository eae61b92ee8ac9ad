// A recorded run on disk (a baseline, or a candidate kept for later): manifest.json beside
// traces/<scenario>.json, and cassettes/ when a real connector was recorded. The manifest's type is
// derived from its schema (recording/read.ts reads it against it).
import { Nullable, SchemaVersion, type Static } from "@cadre/model";
import { Type } from "typebox";
import { Sha256 } from "../data/fields.js";
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";

export const RECORDING_SCHEMA_VERSION = 1;

const Name = () => Type.String({ minLength: 1 });

export const RecordingManifestSchema = Type.Object(
  {
    schemaVersion: SchemaVersion(RECORDING_SCHEMA_VERSION),
    kind: Type.Literal("cadre-eval-recording"),
    profile: Name(),
    connector: Type.String({ minLength: 1, description: "The CEO's connector kind." }),
    samples: Type.Integer({ minimum: 1 }),
    seed: Type.Integer({ minimum: 0 }),
    break: Nullable(Name()),
    createdAt: Name(),
    toolSchemas: Type.Record(Type.String(), Sha256(), {
      description: "Tool name → hash of its input schema in the build that recorded this.",
    }),
    skipped: Type.Optional(
      Type.Array(
        Type.Object(
          { scenarioId: Name(), sample: Type.Integer({ minimum: 0 }), reason: Name() },
          { additionalProperties: false },
        ),
        { description: "Samples not started (the run's --max-cost-usd was spent); they have no trace." },
      ),
    ),
    scenarios: Type.Array(
      Type.Object(
        {
          id: Name(),
          hash: Sha256(),
          file: Type.String({ pattern: "^traces/[a-z0-9][a-z0-9-]*\\.json$" }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);
export type RecordingManifest = Static<typeof RecordingManifestSchema>;

export interface Recording {
  dir: string;
  manifest: RecordingManifest;
  /** The scenarios as recorded (snapshots), with their hashes. */
  scenarios: LoadedScenario[];
  traces: Map<string, Trace[]>;
}
