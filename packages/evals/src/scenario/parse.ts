// Validates a scenario file into a Scenario. Every rule that can be checked without a store is
// checked here, with the file and field named; scenario/check.ts then seeds it to check the rest.
import { defaultEnabledModels, validateEnabledModels } from "@cadre/company";
import { UserInputError, errorMessage } from "@cadre/core";
import {
  APPROVAL_TYPES,
  type ApprovalStatus,
  CEO_MODES,
  type Department,
  DEPARTMENTS,
  type Via,
} from "@cadre/model";
import {
  type At,
  array,
  atFile,
  boolean,
  child,
  fail,
  number,
  object,
  requiredArray,
  requiredString,
  schemaVersion,
  string,
  stringList,
} from "../data/fields.js";
import {
  SCENARIO_CONNECTOR_KINDS,
  SCENARIO_SCHEMA_VERSION,
  type Scenario,
  type ScenarioApproval,
  type ScenarioConnector,
  type ScenarioConnectorKind,
  type ScenarioMember,
} from "./types.js";

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const APPROVAL_STATUSES: readonly ApprovalStatus[] = [
  "pending",
  "approved",
  "rejected",
  "revision_requested",
];
const VIAS: readonly Via[] = ["tool", "http", "system"];

function parseConnector(raw: unknown, at: At): ScenarioConnector {
  const o = object(raw, at, ["id", "kind", "enabledModels", "ready", "baseUrl"]);
  const id = requiredString(o, "id", at, { pattern: ID });
  const kind = requiredString(o, "kind", at, { oneOf: SCENARIO_CONNECTOR_KINDS }) as ScenarioConnectorKind;
  const ready = boolean(o, "ready", at) as boolean;
  const enabledModels =
    stringList(o, "enabledModels", at, { optional: true }) ??
    (ready || kind !== "offline" ? defaultEnabledModels(kind) : []);
  if (kind !== "openai-compatible") {
    try {
      validateEnabledModels(kind, enabledModels);
    } catch (error) {
      if (error instanceof UserInputError) fail(child(at, "enabledModels"), errorMessage(error));
      throw error;
    }
  } else if (enabledModels.length === 0 && ready) {
    fail(child(at, "enabledModels"), "an OpenAI-compatible connector needs its model ids listed");
  }
  const baseUrl = string(o, "baseUrl", at, { optional: true, pattern: /^https?:\/\/\S+$/ });
  if (baseUrl !== undefined && kind !== "openai-compatible")
    fail(child(at, "baseUrl"), `only an openai-compatible connector has a baseUrl (this one is ${kind})`);
  if (kind === "openai-compatible" && ready && baseUrl === undefined)
    fail(child(at, "baseUrl"), "is required for a ready openai-compatible connector");
  if (kind === "openai-compatible" && !ready && baseUrl !== undefined)
    fail(
      child(at, "baseUrl"),
      "a connector declared not ready must not have a baseUrl (a baseUrl makes it ready)",
    );
  if (kind === "offline" && ready === (enabledModels.length === 0)) {
    fail(
      child(at, "ready"),
      ready
        ? "an offline connector with no enabled models is not ready"
        : "an offline connector is ready whenever it has enabled models; list none (enabledModels: []) to make it not ready",
    );
  }
  return { id, kind, enabledModels, ready, ...(baseUrl !== undefined ? { baseUrl } : {}) };
}

function parseMember(raw: unknown, at: At, connectors: ScenarioConnector[]): ScenarioMember {
  const o = object(raw, at, [
    "name",
    "role",
    "description",
    "department",
    "connectorId",
    "model",
    "status",
    "via",
  ]);
  const connectorId = requiredString(o, "connectorId", at);
  const connector = connectors.find((c) => c.id === connectorId);
  if (!connector)
    fail(
      child(at, "connectorId"),
      `"${connectorId}" is not one of the scenario's connectors: ${connectors.map((c) => c.id).join(", ")}`,
    );
  const model = requiredString(o, "model", at);
  if (connector.enabledModels.length > 0 && !connector.enabledModels.includes(model)) {
    fail(
      child(at, "model"),
      `"${model}" is not enabled on connector "${connectorId}"; enabled: ${connector.enabledModels.join(", ")}`,
    );
  }
  return {
    name: requiredString(o, "name", at, { max: 50 }),
    role: requiredString(o, "role", at, { max: 100 }),
    description: requiredString(o, "description", at, { max: 500 }),
    department: (string(o, "department", at, { optional: true, oneOf: DEPARTMENTS }) ??
      null) as Department | null,
    connectorId,
    model,
    status: (string(o, "status", at, { optional: true, oneOf: ["active", "terminated"] }) ??
      "active") as ScenarioMember["status"],
    via: (string(o, "via", at, { optional: true, oneOf: VIAS }) ?? "tool") as Via,
  };
}

function parseApproval(raw: unknown, at: At): ScenarioApproval {
  const o = object(raw, at, ["type", "title", "payload", "status", "note"]);
  const status = requiredString(o, "status", at, { oneOf: APPROVAL_STATUSES }) as ApprovalStatus;
  const note = string(o, "note", at, { optional: true, max: 2000 }) ?? null;
  if (note !== null && status === "pending")
    fail(child(at, "note"), "a pending approval has no decision note");
  return {
    type: requiredString(o, "type", at, { oneOf: APPROVAL_TYPES }) as ScenarioApproval["type"],
    title: requiredString(o, "title", at, { max: 200 }),
    payload: requiredString(o, "payload", at, { max: 20_000 }),
    status,
    note,
  };
}

/** Validates one scenario document; `file` (and `at`, when nested in another file) is named in every error. */
export function parseScenario(raw: unknown, file: string, at: At = atFile(file)): Scenario {
  const o = object(raw, at, [
    "schemaVersion",
    "id",
    "title",
    "description",
    "company",
    "connectors",
    "ceo",
    "team",
    "approvals",
    "expectMode",
  ]);
  schemaVersion(o, at, SCENARIO_SCHEMA_VERSION);
  const id = requiredString(o, "id", at, { pattern: ID });

  const companyAt = child(at, "company");
  const company = object(o["company"] ?? fail(companyAt, "is required"), companyAt, [
    "name",
    "goal",
    "settings",
  ]);
  const settingsAt = child(companyAt, "settings");
  const settingsRaw =
    company["settings"] === undefined
      ? {}
      : object(company["settings"], settingsAt, ["maxTeamSize", "requireHireApproval"]);
  const maxTeamSize = number(settingsRaw, "maxTeamSize", settingsAt, {
    optional: true,
    integer: true,
    min: 1,
    max: 200,
  });
  const requireHireApproval = boolean(settingsRaw, "requireHireApproval", settingsAt, { optional: true });

  const connectorsAt = child(at, "connectors");
  const connectors = requiredArray(o, "connectors", at, { min: 1 }).map((c, i) =>
    parseConnector(c, child(connectorsAt, i)),
  );
  connectors.forEach((c, i) => {
    if (connectors.findIndex((x) => x.id === c.id) !== i)
      fail(child(child(connectorsAt, i), "id"), `"${c.id}" is used twice`);
  });

  const ceoAt = child(at, "ceo");
  const ceo = o["ceo"] === undefined ? {} : object(o["ceo"], ceoAt, ["connectorId"]);
  const ceoConnectorId = string(ceo, "connectorId", ceoAt, { optional: true }) ?? "offline";
  if (!connectors.some((c) => c.id === ceoConnectorId))
    fail(
      child(ceoAt, "connectorId"),
      `"${ceoConnectorId}" is not one of the scenario's connectors: ${connectors.map((c) => c.id).join(", ")}`,
    );

  const teamAt = child(at, "team");
  const team = (array(o, "team", at, { optional: true }) ?? []).map((m, i) =>
    parseMember(m, child(teamAt, i), connectors),
  );
  team.forEach((m, i) => {
    const clash = team.findIndex(
      (x) => x.status === "active" && m.status === "active" && x.name.toLowerCase() === m.name.toLowerCase(),
    );
    if (clash >= 0 && clash !== i)
      fail(
        child(child(teamAt, i), "name"),
        `"${m.name}" is the name of another active member (team[${clash}])`,
      );
    if (m.name.toLowerCase() === "ceo" && m.status === "active")
      fail(child(child(teamAt, i), "name"), `"CEO" is the CEO's own name`);
  });
  const approvalsAt = child(at, "approvals");
  const approvals = (array(o, "approvals", at, { optional: true }) ?? []).map((a, i) =>
    parseApproval(a, child(approvalsAt, i)),
  );

  return {
    schemaVersion: SCENARIO_SCHEMA_VERSION,
    id,
    title: requiredString(o, "title", at, { max: 120 }),
    description: string(o, "description", at, { optional: true, max: 2000 }) ?? "",
    company: {
      name: requiredString(company, "name", companyAt, { max: 100 }),
      goal: string(company, "goal", companyAt, { optional: true, max: 1000, nonEmpty: false }) ?? "",
      settings: {
        ...(maxTeamSize !== undefined ? { maxTeamSize } : {}),
        ...(requireHireApproval !== undefined ? { requireHireApproval } : {}),
      },
    },
    connectors,
    ceoConnectorId,
    team,
    approvals,
    expectMode: requiredString(o, "expectMode", at, { oneOf: CEO_MODES }) as Scenario["expectMode"],
  };
}
