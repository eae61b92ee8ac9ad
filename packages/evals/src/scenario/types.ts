// A scenario: one initial company state the CEO is woken in (SPEC C4-8). Scenarios are data
// files (evals/scenarios/*.json, or a user's own directory), validated by scenario/parse.ts.
import type { ApprovalStatus, ApprovalType, CeoMode, ConnectorKind } from "@cadre/model";
import type { AgentRow } from "@cadre/store";

export const SCENARIO_SCHEMA_VERSION = 1;

/** Connector kinds a scenario can declare (the harnesses this build can seed). */
export const SCENARIO_CONNECTOR_KINDS = [
  "offline",
  "anthropic",
  "openai",
  "openai-compatible",
] as const satisfies readonly ConnectorKind[];
export type ScenarioConnectorKind = (typeof SCENARIO_CONNECTOR_KINDS)[number];

export interface ScenarioConnector {
  id: string;
  kind: ScenarioConnectorKind;
  /** Explicit model ids (MC-6). Default: the kind's usual models. */
  enabledModels: string[];
  /**
   * Whether the connector must be ready. Readiness is computed in code, never stored, so the
   * seeder makes it so without the developer's environment: a not-ready vendor connector reads
   * its key from a variable that is surely unset; an OpenAI-compatible one is ready with a baseUrl.
   */
  ready: boolean;
  /** OpenAI-compatible endpoints only (required when ready). Never called by an offline run. */
  baseUrl?: string;
}

/** A team member as the store keeps it, less what seeding decides (id, company, manager, CEO flag). */
export type ScenarioMember = Pick<
  AgentRow,
  "name" | "role" | "description" | "department" | "connectorId" | "model" | "status" | "via"
>;

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
  company: { name: string; goal: string; settings: { maxTeamSize?: number; requireHireApproval?: boolean } };
  connectors: ScenarioConnector[];
  /** The connector the CEO runs on. */
  ceoConnectorId: string;
  /** The team besides the CEO, all reporting to the CEO. */
  team: ScenarioMember[];
  /** Filed in this order; decided ones are decided through the real decision path. */
  approvals: ScenarioApproval[];
  /** The CEO mode this state must resolve to: checked after seeding, so a file says what it means. */
  expectMode: CeoMode;
}

/** A scenario with where it came from and its identity (hash of its canonical content). */
export interface LoadedScenario {
  scenario: Scenario;
  file: string;
  hash: string;
}
