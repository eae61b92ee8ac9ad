// What an operating evaluation runs its companies on: the offline model by default, or a connector
// kind reached as `cadre eval run --connector` reaches it (live-endpoint.ts: readiness first, the
// rate gateway, the built-in stand-in). The scenario seeder puts the CEO on it; every member is
// moved onto the same connector and model, so the whole company works on it. Whether what the
// agents chose was measured is the gates' own decision (scriptedReason): the offline model, and any
// model server that says it is a stand-in, are scripted.
import { ASSUMED_PROBES, driverOf, type ProbeBook } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { join } from "node:path";
import { scriptedReason } from "../compare/gates.js";
import {
  EVAL_CONNECTORS,
  isEvalConnector,
  type LiveEndpoint,
  openEndpoint,
} from "../runner/live-endpoint.js";
import type { SeedOptions } from "../scenario/seed.js";

export interface OperatingConnectorRequest {
  /** A kind of `cadre eval run --connector`; default offline. */
  connector?: string;
  baseUrl?: string;
  model?: string;
  env: NodeJS.ProcessEnv;
}

export interface OperatingConnector {
  /** How the report names it ("offline", "standin", "openai-compatible:<model>", …). */
  label: string;
  model: string | null;
  live: boolean;
  /** What the scenario seeder needs to put the CEO on it (nothing for the offline model). */
  seed: Pick<SeedOptions, "ceoKind" | "ceoBaseUrl" | "ceoModel" | "ceoConfig">;
  /** The environment the wakes run with (a harness's base URL at the gateway). */
  env: NodeJS.ProcessEnv;
  /** Live connectors' readiness is checked once, up front: the wakes do not probe them again. */
  probes?: ProbeBook;
  /** A store for one scenario: a file one where a harness's own process opens it (Codex's cadre mcp). */
  openStore(dataDir: string): Promise<Store>;
  /** Why behaviour is not measured on it, once its runs are done; null: it is a model. */
  notMeasured(): string | null;
  close(): Promise<void>;
}

export async function openOperatingConnector(
  request: OperatingConnectorRequest,
): Promise<OperatingConnector> {
  const connector = request.connector ?? "offline";
  if (!isEvalConnector(connector))
    throw new UserInputError(`--connector must be one of ${EVAL_CONNECTORS.join(", ")} (got "${connector}")`);
  const endpoint: LiveEndpoint = await openEndpoint({
    connector,
    ...(request.baseUrl !== undefined ? { baseUrl: request.baseUrl } : {}),
    ...(request.model !== undefined ? { model: request.model } : {}),
    env: request.env,
    // The company's agents wake one after another: one model request in flight is enough.
    concurrency: 1,
    replay: false,
  });
  const live = connector !== "offline";
  const { ceoKind, ceoBaseUrl, ceoModel, ceoConfig } = endpoint.sample;
  const ownProcess = ceoKind !== undefined && driverOf(ceoKind).harness !== "pi";
  return {
    label: endpoint.sample.connectorLabel ?? connector,
    model: endpoint.model,
    live,
    seed: {
      ...(ceoKind ? { ceoKind } : {}),
      ...(ceoBaseUrl ? { ceoBaseUrl } : {}),
      ...(ceoModel ? { ceoModel } : {}),
      ...(ceoConfig ? { ceoConfig } : {}),
    },
    env: live ? endpoint.env : {},
    ...(live ? { probes: ASSUMED_PROBES } : {}),
    openStore: (dataDir) =>
      ownProcess ? openStore({ path: join(dataDir, "cadre.db") }) : openStore({ memory: true }),
    notMeasured: () => {
      const standin = endpoint.standin();
      return scriptedReason([{ source: live ? "live" : "offline", ...(standin ? { standin } : {}) }]);
    },
    close: () => endpoint.close(),
  };
}

/** Every active member moved onto the CEO's connector and model: the whole company runs on it. */
export async function teamOntoCeoConnector(store: Store, companyId: string, ceoId: string): Promise<void> {
  const ceo = (await store.getAgent(ceoId))!;
  for (const a of await store.listAgents(companyId, { status: "active" }))
    if (!a.isCeo) await store.setAgentModel(a.id, ceo.model, ceo.connectorId);
}
