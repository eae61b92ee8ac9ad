// Company lifecycle: creation (company + connectors + CEO in one transaction, C4-9); the operator's
// approval decisions are approvals/decide.ts.
import { defaultBudgetRow } from "./budgets/manage.js";
import { UserInputError } from "@cadre/core";
import {
  type CompanySettings,
  CompanySettingsSchema,
  type ConnectorKind,
  DEFAULT_SETTINGS,
  Text,
} from "@cadre/model";
import { Type } from "typebox";
import type { CompanyRow, NewAgent, NewConnector, Store, StoreQueries } from "@cadre/store";
import {
  connectorLabel,
  defaultEnabledModels,
  offeredFingerprint,
  readiness,
  refreshReadiness,
} from "./connectors/readiness.js";
import { configProblems } from "./connectors/connector-config.js";
import { declaredModels, validateConnectorModels } from "./connectors/connector-models.js";
import { type ProbeBook, sharedProbes } from "./connectors/probe-cache.js";
import { recordTelemetry } from "./telemetry.js";
import { checkInput } from "./input.js";
import { newId } from "./ids.js";

export interface CreateCompanyInput {
  name: string;
  goal?: string;
  /** Extra connectors besides the always-present offline one. */
  connectors?: Array<{
    id?: string;
    kind: ConnectorKind;
    enabledModels?: string[];
    config?: Record<string, unknown>;
  }>;
  /** Connector the CEO runs on; must be ready. Default "offline". */
  ceoConnectorId?: string;
  settings?: Partial<CompanySettings>;
  /** The CEO's connector must be ready against this environment (default process.env) and probe book. */
  env?: NodeJS.ProcessEnv;
  probes?: ProbeBook;
}

/** The company's own texts, as every entry point takes them. */
export const CompanyName = Text({ maxLength: 100, description: "The company's name." });
export const CompanyGoal = Text({
  maxLength: 1000,
  multiline: true,
  description: "What the company is for; the CEO plans its team from it.",
});

const CompanyTexts = Type.Object(
  { name: CompanyName, goal: Type.Optional(CompanyGoal) },
  { additionalProperties: false },
);

/** The CEO's agent record, as every company starts with it (created with the company, C4-9). */
export function ceoAgent(input: {
  id: string;
  companyId: string;
  connectorId: string;
  model: string;
}): NewAgent {
  return {
    ...input,
    name: "CEO",
    role: "Chief Executive Officer",
    description: "Leads the company: builds the team, sets the strategy and answers to the operator.",
    department: null,
    reportsTo: null,
    isCeo: true,
    status: "active",
    via: "system",
  };
}

interface PreparedCompany {
  companyId: string;
  name: string;
  goal: string;
  settings: CompanySettings;
  connectors: NewConnector[];
  ceoConnector: NewConnector;
}

/** Every check of a new company, before anything is written. */
function prepareCompany(input: CreateCompanyInput): PreparedCompany {
  const texts = checkInput("company", CompanyTexts, {
    name: input.name,
    ...(input.goal !== undefined && input.goal !== "" ? { goal: input.goal } : {}),
  });
  const name = texts.name;
  const goal = texts.goal ?? "";
  const settings = checkInput("company", Type.Object({ settings: CompanySettingsSchema }), {
    settings: { ...DEFAULT_SETTINGS, ...input.settings },
  }).settings;
  const companyId = newId("cmp");
  const connectors: NewConnector[] = [
    {
      companyId,
      id: "offline",
      kind: "offline",
      label: connectorLabel("offline"),
      enabledModels: defaultEnabledModels("offline"),
      config: {},
    },
  ];
  for (const c of input.connectors ?? []) {
    const id = c.id ?? c.kind;
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id))
      throw new UserInputError(
        `connector id "${id}" is not valid: lowercase letters, digits and -, at most 64`,
        { connectorId: "format" },
      );
    if (connectors.some((x) => x.id === id))
      throw new UserInputError(`connector id "${id}" is used twice`, { connectorId: "duplicate" });
    const config = c.config ?? {};
    const problems = configProblems(config, `connector "${id}" config`);
    if (Object.keys(problems).length > 0)
      throw new UserInputError(
        `company: nothing was written. Fix: ${Object.entries(problems)
          .map(([f, why]) => `\`${f}\` ${why}`)
          .join("; ")}.`,
        problems,
      );
    const declared = declaredModels({ kind: c.kind, config }).map((m) => m.id);
    const enabledModels = c.enabledModels ?? (declared.length > 0 ? declared : defaultEnabledModels(c.kind));
    validateConnectorModels(c.kind, enabledModels, config);
    connectors.push({ companyId, id, kind: c.kind, label: connectorLabel(c.kind), enabledModels, config });
  }
  const ceoConnector = connectors.find((c) => c.id === (input.ceoConnectorId ?? "offline"));
  if (!ceoConnector)
    throw new UserInputError(
      `connector "${input.ceoConnectorId}" is not one of this company's connectors: ${connectors.map((c) => c.id).join(", ")}`,
    );
  return { companyId, name, goal, settings, connectors, ceoConnector };
}

/** The CEO's connector must be ready: its probes run first (before any transaction), then readiness is read. */
async function requireCeoReady(prepared: PreparedCompany, input: CreateCompanyInput): Promise<void> {
  const env = input.env ?? process.env;
  const probes = input.probes ?? sharedProbes;
  await refreshReadiness([prepared.ceoConnector], env, probes);
  const ready = readiness(prepared.ceoConnector, env, probes);
  if (!ready.ready)
    throw new UserInputError(
      `the CEO's connector "${prepared.ceoConnector.id}" is not ready: ${ready.missing}`,
    );
  // Its models are declared now: each is pinned by what the endpoint offers for it (MC-6).
  const c = prepared.ceoConnector;
  c.modelFingerprints = Object.fromEntries(
    c.enabledModels.flatMap((m) => {
      const offered = offeredFingerprint(c, m, env, probes);
      return offered !== undefined ? [[m, offered]] : [];
    }),
  );
}

/** The company, its connectors, its CEO and the `company.created` activity, inside the caller's transaction. */
async function insertCompany(tx: StoreQueries, prepared: PreparedCompany): Promise<CompanyRow> {
  const { companyId, name, goal, settings, connectors, ceoConnector } = prepared;
  const row = await tx.insertCompany({ id: companyId, name, goal, settings });
  for (const c of connectors) await tx.insertConnector(c);
  // A new company has a budget from the start: "no budget" is an explicit choice.
  await tx.putBudget(defaultBudgetRow(companyId));
  const ceo = await tx.insertAgent(
    ceoAgent({
      id: newId("agt"),
      companyId,
      connectorId: ceoConnector.id,
      model: ceoConnector.enabledModels[0] as string,
    }),
  );
  await tx.insertActivity({
    companyId,
    agentId: ceo.id,
    runId: null,
    type: "company.created",
    data: { name, ceoAgentId: ceo.id, connectors: connectors.map((c) => c.id) },
  });
  return row;
}

export async function createCompany(store: Store, input: CreateCompanyInput): Promise<CompanyRow> {
  const prepared = prepareCompany(input);
  await requireCeoReady(prepared, input);
  const company = await store.transaction((tx) => insertCompany(tx, prepared));
  recordTelemetry("company.created", { "cadre.company_id": company.id });
  return company;
}

/**
 * The company `find` finds, or else a new one — decided in one transaction, so that processes doing
 * this at once (several `cadre demo`s on an empty data dir) end up with exactly one company.
 */
export async function findOrCreateCompany(
  store: Store,
  input: CreateCompanyInput,
  find: (tx: StoreQueries) => Promise<CompanyRow | undefined>,
): Promise<{ company: CompanyRow; created: boolean }> {
  const prepared = prepareCompany(input);
  await requireCeoReady(prepared, input);
  const result = await store.transaction(async (tx) => {
    const existing = await find(tx);
    return existing
      ? { company: existing, created: false }
      : { company: await insertCompany(tx, prepared), created: true };
  });
  if (result.created) recordTelemetry("company.created", { "cadre.company_id": result.company.id });
  return result;
}
