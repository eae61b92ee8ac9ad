// Seeds a fresh store with a scenario's company state through the store and company APIs: the
// company, its connectors and CEO in one transaction (as createCompany does), the team, and the
// approvals — decided ones through the real decision path, so activity and mode history are real.
import { randomUUID } from "node:crypto";
import {
  ASSUMED_PROBES,
  ceoAgent,
  connectorLabel,
  decideApproval,
  defaultEnabledModels,
  loadCompanyState,
  newId,
  readiness,
  type Decision,
  driverOf,
} from "@cadre/company";
import { listModels, registerCompatibleModel, UserInputError } from "@cadre/core";
import { type ConnectorKind, DEFAULT_SETTINGS, type PromptProfile } from "@cadre/model";
import type { NewConnector, Store } from "@cadre/store";
import type { Scenario, ScenarioConnector } from "./types.js";

/** The key variable of a vendor connector declared not ready: surely unset, checked below. */
export const UNSET_KEY_ENV = "CADRE_EVAL_UNSET_KEY";

/**
 * Connector kinds a live eval can run the CEO on: Pi-routed (their model calls are seen and can be
 * captured) and the harnesses that call the model themselves (Claude Code, Codex).
 */
export type CeoKind = Exclude<ConnectorKind, "offline">;

export interface SeedOptions {
  /** Prompt profile the company's wakes use (C4-7). */
  profile: PromptProfile;
  /** Runs the CEO on a real connector of this kind instead of the scenario's (live runs). */
  ceoKind?: CeoKind;
  /** openai-compatible, codex, anthropic, openai: the endpoint's base URL; and the model id the CEO runs on. */
  ceoBaseUrl?: string;
  ceoModel?: string;
  /** More of the CEO connector's config (Codex through the eval's gateway: the key's variable). */
  ceoConfig?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
}

export interface SeededCompany {
  companyId: string;
  ceoId: string;
  /** Agents and approvals that existed before the wake: whatever else exists after it is new. */
  agentIds: ReadonlySet<string>;
  approvalIds: ReadonlySet<string>;
}

/**
 * Ids that sort in insertion order. Seeding writes everything within one millisecond, and the store
 * orders rows by (createdAt, id): random ids would shuffle the team in the prompt's directory, or
 * which strategy is the latest, from one sample to the next.
 */
function orderedId(prefix: string, index: number): string {
  return `${prefix}_${index.toString(16).padStart(4, "0")}${randomUUID().replace(/-/g, "").slice(0, 12)}`;
}

const DECISIONS: Record<"approved" | "rejected" | "revision_requested", Decision> = {
  approved: "approve",
  rejected: "reject",
  revision_requested: "revise",
};

function connectorConfig(c: ScenarioConnector, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const driver = driverOf(c.kind);
  if (driver.declaresModels({ config: {} })) return c.baseUrl ? { baseUrl: c.baseUrl } : {};
  // A kind that needs a key is made not ready by naming a variable that is surely unset.
  if (driver.keyEnv !== undefined && !c.ready) {
    if (env[UNSET_KEY_ENV])
      throw new UserInputError(
        `${UNSET_KEY_ENV} is set in the environment; unset it: scenarios use it as a key that is never there`,
      );
    return { apiKeyEnv: UNSET_KEY_ENV };
  }
  return {};
}

/** OpenAI-compatible model ids are the endpoint's own; they join the registry as config would. */
function registerEndpointModels(scenario: Scenario): void {
  const known = new Set(listModels().map((m) => m.id));
  for (const c of scenario.connectors) {
    if (!driverOf(c.kind).declaresModels({ config: {} })) continue;
    for (const id of c.enabledModels)
      if (!known.has(id)) registerCompatibleModel({ id, contextWindow: 32_768, maxOutput: 8_192 });
  }
}

export async function seedScenario(
  store: Store,
  scenario: Scenario,
  options: SeedOptions,
): Promise<SeededCompany> {
  const env = options.env ?? process.env;
  registerEndpointModels(scenario);
  const companyId = newId("cmp");
  const connectors: NewConnector[] = scenario.connectors.map((c) => ({
    companyId,
    id: c.id,
    kind: c.kind,
    label: connectorLabel(c.kind),
    enabledModels: c.enabledModels,
    config: connectorConfig(c, env),
  }));
  let ceoConnector = connectors.find((c) => c.id === scenario.ceoConnectorId) as NewConnector;
  if (options.ceoKind) {
    const ceoDriver = driverOf(options.ceoKind);
    const compatible = ceoDriver.declaresModels({ config: {} });
    if (compatible && (!options.ceoBaseUrl || !options.ceoModel))
      throw new UserInputError(`a ${options.ceoKind} CEO needs a base URL and a model id`);
    if (compatible && !listModels().some((m) => m.id === options.ceoModel))
      registerCompatibleModel({ id: options.ceoModel as string, contextWindow: 32_768, maxOutput: 8_192 });
    ceoConnector = {
      companyId,
      id: `ceo-${options.ceoKind}`,
      kind: options.ceoKind,
      label: connectorLabel(options.ceoKind),
      enabledModels: options.ceoModel ? [options.ceoModel] : defaultEnabledModels(options.ceoKind),
      // A base URL for the other kinds: the eval's rate gateway in front of the vendor (or a stand-in).
      config: {
        // (A harness that reads its URL from its environment gets it there: liveEval.baseUrlEnv.)
        ...(options.ceoBaseUrl && !ceoDriver.liveEval?.baseUrlEnv ? { baseUrl: options.ceoBaseUrl } : {}),
        ...options.ceoConfig,
      },
    };
    const ready = readiness(ceoConnector, env, ASSUMED_PROBES);
    if (!ready.ready)
      throw new UserInputError(`the CEO's connector ${options.ceoKind} is not ready: ${ready.missing}`);
    connectors.push(ceoConnector);
  }
  const ceoModel = ceoConnector.enabledModels[0] ?? defaultEnabledModels(ceoConnector.kind)[0];
  if (!ceoModel)
    throw new UserInputError(
      `scenario ${scenario.id}: the CEO's connector "${ceoConnector.id}" has no model to run on`,
    );

  const { ceoId, approvalIds } = await store.transaction(async (tx) => {
    await tx.insertCompany({
      id: companyId,
      name: scenario.company.name,
      goal: scenario.company.goal,
      settings: { ...DEFAULT_SETTINGS, ...scenario.company.settings, profile: options.profile },
    });
    // The store lists connectors by (createdAt, id): inserted in id order, they are listed (and
    // shown in the prompt) in one order whether or not the inserts share a millisecond.
    for (const c of [...connectors].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
      await tx.insertConnector(c);
    const ceo = await tx.insertAgent(
      ceoAgent({ id: orderedId("agt", 0), companyId, connectorId: ceoConnector.id, model: ceoModel }),
    );
    await tx.insertActivity({
      companyId,
      agentId: ceo.id,
      runId: null,
      type: "company.created",
      data: {
        name: scenario.company.name,
        ceoAgentId: ceo.id,
        connectors: connectors.map((c) => c.id),
        scenario: scenario.id,
      },
    });
    for (const [i, m] of scenario.team.entries()) {
      await tx.insertAgent({ id: orderedId("agt", i + 1), companyId, ...m, reportsTo: ceo.id, isCeo: false });
    }
    const ids: string[] = [];
    for (const [i, a] of scenario.approvals.entries()) {
      const row = await tx.insertApproval(
        {
          id: orderedId("apr", i),
          companyId,
          type: a.type,
          title: a.title,
          payload: a.payload,
          filedByAgentId: ceo.id,
          via: "tool",
        },
        ceo.id,
      );
      ids.push(row.id);
    }
    return { ceoId: ceo.id, approvalIds: ids };
  });
  for (const [i, a] of scenario.approvals.entries()) {
    if (a.status !== "pending")
      await decideApproval(store, approvalIds[i] as string, DECISIONS[a.status], a.note);
  }
  const agents = await store.listAgents(companyId);
  await loadCompanyState(store, companyId); // fails loudly if the seeded state is inconsistent
  return { companyId, ceoId, agentIds: new Set(agents.map((a) => a.id)), approvalIds: new Set(approvalIds) };
}
