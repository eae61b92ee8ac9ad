// The scenario file format (evals/scenarios/*.json, or a user's own directory), as one TypeBox
// schema: every field a file may hold, with the same text policy as every other entry point (names
// and titles one visible line; descriptions, payloads and notes free text). Rules that span fields
// (a member's connector and model, readiness declared against what the seeder can make true, name
// clashes) are checked in code by parse.ts.
import {
  AGENT_STATUSES,
  APPROVAL_STATUSES,
  APPROVAL_TYPES,
  CEO_MODES,
  type ConnectorKind,
  DEPARTMENTS,
  MAX_TEAM_SIZE_LIMIT,
  OneOf,
  SchemaVersion,
  type Static,
  Text,
  VIAS,
  WAKE_TRIGGERS,
} from "@cadre/model";
import { Type } from "typebox";
import { piRoutedKinds } from "@cadre/company";
import { CapturedSchema } from "../capture/schema.js";

export const SCENARIO_SCHEMA_VERSION = 1;

/**
 * Connector kinds a scenario can declare: the Pi-routed ones (their drivers say so), whose readiness
 * a scenario states and whose model calls the runner sees. Harnesses need their real executables.
 */
export const SCENARIO_CONNECTOR_KINDS: readonly [ConnectorKind, ...ConnectorKind[]] = piRoutedKinds();
export type ScenarioConnectorKind = ConnectorKind;

const Id = (description: string) =>
  Text({
    maxLength: 64,
    pattern: {
      source: "^[a-z0-9][a-z0-9-]*$",
      hint: "lowercase letters, digits and -, starting with a letter or digit",
    },
    description,
  });
const strict = { additionalProperties: false } as const;

export const ScenarioConnectorSchema = Type.Object(
  {
    id: Id("Unique in the scenario."),
    kind: OneOf(SCENARIO_CONNECTOR_KINDS),
    enabledModels: Type.Optional(
      Type.Array(Text({ maxLength: 128 }), {
        description: "Explicit model ids; default: the kind's usual ones.",
      }),
    ),
    ready: Type.Boolean({
      description:
        "Whether it must be ready; the seeder makes it so (a not-ready vendor connector reads a key that is surely unset).",
    }),
    baseUrl: Type.Optional(
      Type.String({
        pattern: "^https?://\\S+$",
        description: "OpenAI-compatible endpoints only (required when ready).",
      }),
    ),
  },
  strict,
);

export const ScenarioMemberSchema = Type.Object(
  {
    name: Text({ maxLength: 50 }),
    role: Text({ maxLength: 100 }),
    description: Text({ maxLength: 500, multiline: true }),
    department: Type.Optional(OneOf(DEPARTMENTS)),
    connectorId: Text({ maxLength: 64 }),
    model: Text({ maxLength: 128 }),
    status: Type.Optional(OneOf(AGENT_STATUSES, { description: "Default active." })),
    via: Type.Optional(OneOf(VIAS, { description: "Default tool." })),
  },
  strict,
);

export const ScenarioApprovalSchema = Type.Object(
  {
    type: OneOf(APPROVAL_TYPES),
    title: Text({ maxLength: 200 }),
    payload: Text({ maxLength: 20_000, multiline: true }),
    status: OneOf(APPROVAL_STATUSES),
    note: Type.Optional(
      Text({ maxLength: 2000, multiline: true, description: "The operator's note with a decision." }),
    ),
  },
  strict,
);

export const ScenarioFileSchema = Type.Object(
  {
    schemaVersion: SchemaVersion(SCENARIO_SCHEMA_VERSION),
    id: Id("The scenario's id, unique across everything loaded."),
    title: Text({ maxLength: 120 }),
    description: Type.Optional(Text({ maxLength: 2000, multiline: true })),
    company: Type.Object(
      {
        name: Text({ maxLength: 100 }),
        goal: Type.Optional(Text({ maxLength: 1000, multiline: true, minLength: 0 })),
        settings: Type.Optional(
          Type.Object(
            {
              maxTeamSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TEAM_SIZE_LIMIT })),
              requireHireApproval: Type.Optional(Type.Boolean()),
            },
            strict,
          ),
        ),
      },
      strict,
    ),
    connectors: Type.Array(ScenarioConnectorSchema, { minItems: 1 }),
    ceo: Type.Optional(Type.Object({ connectorId: Type.Optional(Text({ maxLength: 64 })) }, strict)),
    team: Type.Optional(
      Type.Array(ScenarioMemberSchema, {
        description: "The team besides the CEO, all reporting to the CEO.",
      }),
    ),
    approvals: Type.Optional(
      Type.Array(ScenarioApprovalSchema, {
        description: "Filed in this order; decided ones through the real decision path.",
      }),
    ),
    expectMode: OneOf(CEO_MODES, {
      description: "The CEO mode this state must resolve to, checked after seeding.",
    }),
    trigger: Type.Optional(
      OneOf(WAKE_TRIGGERS, {
        description: "What wakes the CEO; default: start team building in team-building, else inferred.",
      }),
    ),
    captured: Type.Optional(CapturedSchema),
  },
  strict,
);
export type ScenarioFile = Static<typeof ScenarioFileSchema>;
