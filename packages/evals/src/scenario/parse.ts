// Validates a scenario file into a Scenario: the file against its schema (scenario/schema.ts), then
// every rule that spans fields and can be checked without a store, with the file and field named;
// scenario/check.ts then seeds it to check the rest.
import { connectorLabel, defaultEnabledModels, driverOf, validateEnabledModels } from "@cadre/company";
import { UserInputError, errorMessage } from "@cadre/core";
import { nameKey } from "@cadre/model";
import { type At, atFile, child, fail, readAs } from "../data/fields.js";
import { SCENARIO_CONNECTOR_KINDS, SCENARIO_SCHEMA_VERSION, ScenarioFileSchema } from "./schema.js";
import type { Scenario, ScenarioApproval, ScenarioConnector, ScenarioMember } from "./types.js";

type File = ReturnType<typeof readScenarioFile>;

function readScenarioFile(raw: unknown, at: At) {
  return readAs(ScenarioFileSchema, raw, at);
}

function connectorOf(c: File["connectors"][number], at: At): ScenarioConnector {
  const { id, kind, ready, baseUrl } = c;
  const enabledModels = c.enabledModels ?? (ready || kind !== "offline" ? defaultEnabledModels(kind) : []);
  // A kind whose endpoint declares its models (OpenAI-compatible) lists them and has a base URL.
  const declares = driverOf(kind).declaresModels({ config: {} });
  if (!declares) {
    try {
      validateEnabledModels(kind, enabledModels);
    } catch (error) {
      if (error instanceof UserInputError) fail(child(at, "enabledModels"), errorMessage(error));
      throw error;
    }
  } else if (enabledModels.length === 0 && ready) {
    fail(
      child(at, "enabledModels"),
      `${connectorLabel(kind)}: a connector whose endpoint declares its models needs their ids listed`,
    );
  }
  if (baseUrl !== undefined && !declares)
    fail(
      child(at, "baseUrl"),
      `only a connector whose endpoint declares its models (${SCENARIO_CONNECTOR_KINDS.filter((k) => driverOf(k).declaresModels({ config: {} })).join(", ")}) has a baseUrl (this one is ${kind})`,
    );
  if (declares && ready && baseUrl === undefined)
    fail(child(at, "baseUrl"), `is required for a ready ${kind} connector`);
  if (declares && !ready && baseUrl !== undefined)
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

function memberOf(
  m: NonNullable<File["team"]>[number],
  at: At,
  connectors: ScenarioConnector[],
): ScenarioMember {
  const connector = connectors.find((c) => c.id === m.connectorId);
  if (!connector)
    fail(
      child(at, "connectorId"),
      `"${m.connectorId}" is not one of the scenario's connectors: ${connectors.map((c) => c.id).join(", ")}`,
    );
  if (connector.enabledModels.length > 0 && !connector.enabledModels.includes(m.model)) {
    fail(
      child(at, "model"),
      `"${m.model}" is not enabled on connector "${m.connectorId}"; enabled: ${connector.enabledModels.join(", ")}`,
    );
  }
  return {
    name: m.name,
    role: m.role,
    description: m.description,
    department: m.department ?? null,
    connectorId: m.connectorId,
    model: m.model,
    status: m.status ?? "active",
    via: m.via ?? "tool",
  };
}

function approvalOf(a: NonNullable<File["approvals"]>[number], at: At): ScenarioApproval {
  if (a.note !== undefined && a.status === "pending")
    fail(child(at, "note"), "a pending approval has no decision note");
  return { type: a.type, title: a.title, payload: a.payload, status: a.status, note: a.note ?? null };
}

/** Validates one scenario document; `file` (and `at`, when nested in another file) is named in every error. */
export function parseScenario(raw: unknown, file: string, at: At = atFile(file)): Scenario {
  const f = readScenarioFile(raw, at);
  const connectorsAt = child(at, "connectors");
  const connectors = f.connectors.map((c, i) => connectorOf(c, child(connectorsAt, i)));
  connectors.forEach((c, i) => {
    if (connectors.findIndex((x) => x.id === c.id) !== i)
      fail(child(child(connectorsAt, i), "id"), `"${c.id}" is used twice`);
  });

  const ceoConnectorId = f.ceo?.connectorId ?? "offline";
  if (!connectors.some((c) => c.id === ceoConnectorId))
    fail(
      child(child(at, "ceo"), "connectorId"),
      `"${ceoConnectorId}" is not one of the scenario's connectors: ${connectors.map((c) => c.id).join(", ")}`,
    );

  const teamAt = child(at, "team");
  const team = (f.team ?? []).map((m, i) => memberOf(m, child(teamAt, i), connectors));
  // Active names are unique as the store keeps them: on their key (case and look-alikes folded).
  team.forEach((m, i) => {
    const clash = team.findIndex(
      (x) => x.status === "active" && m.status === "active" && nameKey(x.name) === nameKey(m.name),
    );
    if (clash >= 0 && clash !== i)
      fail(
        child(child(teamAt, i), "name"),
        `"${m.name}" is the name of another active member (team[${clash}])`,
      );
    if (nameKey(m.name) === nameKey("CEO") && m.status === "active")
      fail(child(child(teamAt, i), "name"), `"CEO" is the CEO's own name`);
  });
  const approvalsAt = child(at, "approvals");
  const approvals = (f.approvals ?? []).map((a, i) => approvalOf(a, child(approvalsAt, i)));

  return {
    schemaVersion: SCENARIO_SCHEMA_VERSION,
    id: f.id,
    title: f.title,
    description: f.description ?? "",
    company: {
      name: f.company.name,
      goal: f.company.goal ?? "",
      settings: { ...f.company.settings },
    },
    connectors,
    ceoConnectorId,
    team,
    approvals,
    expectMode: f.expectMode,
    ...(f.trigger !== undefined ? { trigger: f.trigger } : {}),
    ...(f.captured !== undefined ? { captured: f.captured } : {}),
  };
}
