// A scenario: one initial company state the CEO is woken in (SPEC C4-8). Scenarios are data
// files (evals/scenarios/*.json, or a user's own directory) in the format of scenario/schema.ts,
// validated by scenario/parse.ts into this form: the file's fields with their defaults filled in.
import type { ApprovalStatus, ApprovalType, CeoMode, Department, Static, WakeTrigger } from "@cadre/model";
import type { Captured } from "../capture/schema.js";
import {
  SCENARIO_SCHEMA_VERSION,
  type ScenarioConnectorKind,
  type ScenarioConnectorSchema,
  type ScenarioFile,
  type ScenarioMemberSchema,
} from "./schema.js";

export { SCENARIO_CONNECTOR_KINDS, SCENARIO_SCHEMA_VERSION, type ScenarioConnectorKind } from "./schema.js";

export type ScenarioConnector = Omit<Static<typeof ScenarioConnectorSchema>, "kind" | "enabledModels"> & {
  kind: ScenarioConnectorKind;
  /** Explicit model ids (MC-6). Default: the kind's usual models. */
  enabledModels: string[];
};

/** A team member as the store keeps it, less what seeding decides (id, company, manager, CEO flag). */
export type ScenarioMember = Required<Omit<Static<typeof ScenarioMemberSchema>, "department">> & {
  department: Department | null;
};

export interface ScenarioApproval {
  type: ApprovalType;
  title: string;
  payload: string;
  status: ApprovalStatus;
  /** The operator's note with a decision. */
  note: string | null;
}

export interface Scenario {
  schemaVersion: typeof SCENARIO_SCHEMA_VERSION;
  id: string;
  title: string;
  description: string;
  company: { name: string; goal: string; settings: NonNullable<ScenarioFile["company"]["settings"]> };
  connectors: ScenarioConnector[];
  /** The connector the CEO runs on. */
  ceoConnectorId: string;
  /** The team besides the CEO, all reporting to the CEO. */
  team: ScenarioMember[];
  /** Filed in this order; decided ones are decided through the real decision path. */
  approvals: ScenarioApproval[];
  /** The CEO mode this state must resolve to: checked after seeding, so a file says what it means. */
  expectMode: CeoMode;
  /** What wakes the CEO (a captured run's trigger); absent: chosen by mode. */
  trigger?: WakeTrigger;
  /** Set on a scenario made from a recorded run: it is judged against this, not the baseline. */
  captured?: Captured;
}

/** A scenario with where it came from and its identity (hash of its canonical content). */
export interface LoadedScenario {
  scenario: Scenario;
  file: string;
  hash: string;
}
