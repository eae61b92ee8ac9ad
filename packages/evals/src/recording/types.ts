// A recorded run on disk (a baseline, or a candidate kept for later): manifest.json beside
// traces/<scenario>.json, and cassettes/ when a real connector was recorded.
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";

export const RECORDING_SCHEMA_VERSION = 1;

export interface RecordingManifest {
  schemaVersion: typeof RECORDING_SCHEMA_VERSION;
  kind: "cadre-eval-recording";
  profile: string;
  /** The CEO's connector kind. */
  connector: string;
  samples: number;
  seed: number;
  break: string | null;
  createdAt: string;
  /** Tool name → hash of its input schema in the build that recorded this. */
  toolSchemas: Record<string, string>;
  scenarios: Array<{ id: string; hash: string; file: string }>;
}

export interface Recording {
  dir: string;
  manifest: RecordingManifest;
  /** The scenarios as recorded (snapshots), with their hashes. */
  scenarios: LoadedScenario[];
  traces: Map<string, Trace[]>;
}
