// Connector kinds and readiness (C4-9). Readiness is computed in code from what is really there —
// a credential in the environment, a base URL, and the last outcome of the connector's probes
// (endpoint answered; executable and credentials found), which are cached and refreshed off the
// request path (connectors/probe-cache.ts). It is never stored, so it cannot go stale across restarts.
import { UserInputError, resolveModel } from "@cadre/core";
import { CONNECTOR_KINDS, type ConnectorKind } from "@cadre/model";
import type { ConnectorRow } from "@cadre/store";
import { driverOf } from "./kinds/index.js";
import { keyEnvFor } from "./kinds/driver.js";
import {
  type ProbeBook,
  type ProbeKind,
  type ProbeRecord,
  type ProbeSpec,
  sharedProbes,
} from "./probe-cache.js";
import { endpointProbe, harnessProbe } from "./probe-specs.js";
import { type FingerprintDrift, fingerprintDrift } from "./model-fingerprints.js";

export interface Readiness {
  ready: boolean;
  /** What is missing, precisely, when not ready (timeless words: they may reach a system prompt). */
  missing?: string;
  /** The probes behind it, each with its last outcome (network connectors and harnesses). */
  probes?: ProbeState[];
  /**
   * Enabled models the endpoint now offers something else under (MC-6: a changed digest or listing
   * since they were declared). Still ready: the company's `onModelDrift` decides at each wake.
   */
  drifts?: FingerprintDrift[];
}

export function connectorLabel(kind: ConnectorKind): string {
  return driverOf(kind).label;
}

export function defaultEnabledModels(kind: ConnectorKind): string[] {
  return [...driverOf(kind).defaultModels];
}

/** The env var a connector reads its key from (config may name another one; the key itself is never stored). */
export function keyEnvOf(connector: Pick<ConnectorRow, "kind" | "config">): string | undefined {
  return keyEnvFor(driverOf(connector.kind), connector);
}

/** The last outcome of one of a connector's probes, for a reader (CLI, API, dashboard). */
export interface ProbeState {
  kind: ProbeKind;
  /** What was checked: the URL asked, or the harness's executable and credentials. */
  target: string;
  status: "ok" | "failed" | "unchecked";
  /** When it was last checked (ISO-8601); null when never, or when assumed (evals). */
  checkedAt: string | null;
  latencyMs: number | null;
  /** What failed, when it did. */
  error?: string;
  detail?: string;
}

type ConnectorLike = Pick<ConnectorRow, "kind" | "config" | "enabledModels" | "modelFingerprints">;

/** What can be said without I/O: the settings and the environment (a key is set or not). */
function staticProblem(connector: ConnectorLike, env: NodeJS.ProcessEnv): string | undefined {
  // Every missing setting is named, the endpoint's first: "no enabled models" alone hid a missing URL.
  const settings = driverOf(connector.kind).settingsProblem(connector, env);
  // (Read by models too, in their prompt: no CLI flags here.)
  const models = connector.enabledModels.length === 0 ? "no enabled models" : undefined;
  return [settings, models].filter((p) => p !== undefined).join("; ") || undefined;
}

/** The probes a connector has (none for offline, nor while its settings are incomplete). */
export function probeSpecs(connector: ConnectorLike, env: NodeJS.ProcessEnv = process.env): ProbeSpec[] {
  const specs: ProbeSpec[] = [];
  const { harnessCheck } = driverOf(connector.kind);
  // A harness's executable (configured, the SDK's bundled binary, or on PATH) and a credential.
  if (harnessCheck)
    specs.push(harnessProbe(connector, env, harnessCheck.target, () => harnessCheck.check(connector, env)));
  if (staticProblem(connector, env) === undefined) {
    const endpoint = endpointProbe(connector, keyEnvOf(connector), env);
    if (endpoint) specs.push(endpoint);
  }
  return specs;
}

function stateOf(spec: ProbeSpec, record: ProbeRecord | undefined): ProbeState {
  if (!record)
    return { kind: spec.kind, target: spec.target, status: "unchecked", checkedAt: null, latencyMs: null };
  return {
    kind: record.kind,
    target: record.target,
    status: record.ok ? "ok" : "failed",
    checkedAt: record.checkedAt,
    latencyMs: record.latencyMs,
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.detail !== undefined ? { detail: record.detail } : {}),
  };
}

/** What a probe's state leaves missing, in timeless words (they may reach a system prompt, MC-3). */
function probeMissing(state: ProbeState): string | undefined {
  if (state.status === "ok") return undefined;
  if (state.kind === "endpoint")
    return state.status === "unchecked"
      ? `endpoint ${state.target} not checked yet`
      : `endpoint check failed: ${state.error}`;
  return state.status === "unchecked" ? `${state.target} not checked yet` : state.error;
}

/**
 * Ready or not, and what is missing (C4-9): the settings and the environment, plus the last outcome
 * of the connector's probes — endpoint answered, executable and credentials found — read from
 * `probes` without any I/O (so it may run inside a transaction). A probe never checked counts as
 * not ready: whoever needs readiness refreshes the probes first (`refreshReadiness`).
 */
export function readiness(
  connector: ConnectorLike,
  env: NodeJS.ProcessEnv = process.env,
  probes: ProbeBook = sharedProbes,
): Readiness {
  const problem = staticProblem(connector, env);
  const states = probeSpecs(connector, env).map((spec) => stateOf(spec, probes.peek(spec)));
  const missing = [
    ...states.filter((s) => s.kind === "harness").map(probeMissing),
    problem,
    ...states.filter((s) => s.kind === "endpoint").map(probeMissing),
  ].filter((m): m is string => m !== undefined);
  const drifts = connector.enabledModels.flatMap((m) => {
    const d = modelFingerprintDrift(connector, m, env, probes);
    return d ? [d] : [];
  });
  return {
    ready: missing.length === 0,
    ...(missing.length > 0 ? { missing: missing.join("; ") } : {}),
    ...(states.length > 0 ? { probes: states } : {}),
    ...(drifts.length > 0 ? { drifts } : {}),
  };
}

/**
 * Whether the endpoint now offers something else under `model` than when it was declared, from its
 * probe's last outcome (no I/O: a wake refreshes the probes first, cheaply, from the cache).
 */
export function modelFingerprintDrift(
  connector: ConnectorLike,
  model: string,
  env: NodeJS.ProcessEnv = process.env,
  probes: ProbeBook = sharedProbes,
): FingerprintDrift | undefined {
  const spec = probeSpecs(connector, env).find((s) => s.kind === "endpoint");
  return spec ? fingerprintDrift(connector, model, probes.peek(spec)) : undefined;
}

/** What the endpoint's last probe offered for `model` (no I/O), to keep when it is declared. */
export function offeredFingerprint(
  connector: ConnectorLike,
  model: string,
  env: NodeJS.ProcessEnv = process.env,
  probes: ProbeBook = sharedProbes,
): string | undefined {
  const spec = probeSpecs(connector, env).find((s) => s.kind === "endpoint");
  return spec ? probes.peek(spec)?.fingerprints?.[model] : undefined;
}

/**
 * Runs the connectors' probes that are missing or stale (all with `force`), concurrently, each
 * under the book's timeout. Never inside a transaction: call it before one.
 */
export async function refreshReadiness(
  connectors: readonly ConnectorLike[],
  env: NodeJS.ProcessEnv = process.env,
  probes: ProbeBook = sharedProbes,
  options: { force?: boolean } = {},
): Promise<void> {
  await probes.refresh(
    connectors.flatMap((c) => probeSpecs(c, env)),
    options,
  );
}

/** Validates a connector's enabled models against the registry (explicit ids only, MC-6). */
export function validateEnabledModels(kind: ConnectorKind, models: string[]): void {
  const providers = driverOf(kind).providers({ config: {} });
  for (const id of models) {
    const info = resolveModel(id);
    if (!providers.includes(info.provider))
      throw new UserInputError(`model "${id}" belongs to ${info.provider}, not to a ${kind} connector`);
  }
}

/**
 * Picks the connector for a new company or the demo: the first Pi-routed kind, in the vocabulary's
 * order, whose key is set and that needs nothing else (default models, no base URL), else offline.
 */
export function preferredConnectorKind(env: NodeJS.ProcessEnv = process.env): ConnectorKind {
  const ready = CONNECTOR_KINDS.find((kind) => {
    const d = driverOf(kind);
    return (
      d.harness === "pi" &&
      d.keyEnv !== undefined &&
      d.defaultModels.length > 0 &&
      d.settingsProblem({ kind, config: {}, enabledModels: [...d.defaultModels] }, env) === undefined
    );
  });
  return ready ?? "offline";
}

/** Readiness now: the connector's stale probes run (outside any transaction), then it is read. */
export async function checkReadiness(
  connector: ConnectorLike,
  env: NodeJS.ProcessEnv = process.env,
  probes: ProbeBook = sharedProbes,
  options: { force?: boolean } = {},
): Promise<Readiness> {
  await refreshReadiness([connector], env, probes, options);
  return readiness(connector, env, probes);
}
