// What a connector kind is, in one place: its label, defaults, credential, the models it routes, its
// endpoint and wire, what readiness checks, how it is tested, how a session on it is made and how
// its budget is enforced. One driver per kind (this folder, one file each), in one exhaustive record
// keyed by the vocabulary's kinds (index.ts); readiness, probes, the connector test, model routing,
// the session, the wake and the evaluation read the driver instead of switching on the kind.
import type { BaseAgent, PiAgentOptions, SessionConfig, StreamFn } from "@cadre/core";
import type { ConnectorKind, HarnessKind, ModelProvider } from "@cadre/model";
import type { ConnectorRow } from "@cadre/store";
import type { SessionInput } from "./session-input.js";

/** The HTTP API a network connector's endpoint speaks. */
export type Wire = "anthropic" | "openai-chat" | "openai-responses";

/**
 * How code holds a run on this connector to its budget (OP-3):
 * - `before-each-call`: every model call is reserved first and not sent without room (Pi calls the
 *   model through the run's guard);
 * - `after-each-reported-call`: the harness calls the model itself and reports each call's usage, so
 *   each call is counted and settled as it is reported, and the run is stopped after the call that
 *   used up a limit (its tool calls refused from then on);
 * - `after-each-reported-turn`: the same, but the harness reports usage once per turn (all its calls
 *   together), so model calls cannot be counted one by one.
 */
export type BudgetEnforcement = "before-each-call" | "after-each-reported-call" | "after-each-reported-turn";

type ConnectorLike = Pick<ConnectorRow, "kind" | "config" | "enabledModels">;
type ConfigOf = Pick<ConnectorRow, "config">;

/** What a connector test found (one small real request, or starting the executable). */
export interface TestAttempt {
  ok: boolean;
  /** Whether the endpoint answered at all (a 4xx from it is an answer: the model may still be wrong). */
  answered: boolean;
  /** What was asked: the URL, or the executable started (never a secret). */
  target: string;
  error?: string;
  answer?: string;
}

/** What every session on any kind shares, prepared once by `createSession` (session.ts). */
export interface SessionParts {
  config: SessionConfig;
  env: NodeJS.ProcessEnv;
  /** Pi's options every Pi-routed kind starts from (prompt checks, compaction, timeouts, tools, folders). */
  pi: Omit<PiAgentOptions, "streamFn" | "route" | "getApiKey">;
  /** Wraps a Pi model call: the run's budget guard outside, a cassette inside (Pi-routed kinds). */
  wrap: (inner: StreamFn) => StreamFn;
}

export interface ConnectorDriver<K extends ConnectorKind = ConnectorKind> {
  kind: K;
  /** How the company's connectors section and the views name it. */
  label: string;
  /** The models a new connector of this kind enables when none are given. */
  defaultModels: readonly string[];
  /** The environment variable holding its credential, when it needs one (config.apiKeyEnv names another). */
  keyEnv?: string;
  /** The harness its agents run in: Pi for a model-only connector, else a harness's own loop. */
  harness: HarnessKind;
  budget: BudgetEnforcement;
  /** The providers whose registry ids it routes (a harness runs a vendor's models). */
  providers(connector: ConfigOf): readonly ModelProvider[];
  /** True when its endpoint serves models the connector declares (config.models) instead of registry ids. */
  declaresModels(connector: ConfigOf): boolean;
  /** Why config.models does not apply to this connector, when it does not. */
  declaredModelsProblem?(connector: ConfigOf): string | undefined;
  /** The endpoint a network connector talks to, without a trailing slash; undefined when it has none. */
  endpoint(connector: ConfigOf): string | undefined;
  /** The wire its endpoint speaks, when it has one. */
  wire?: Wire;
  /** A connector test on the OpenAI Chat wire names its output limit this way (OpenAI's own API: max_completion_tokens). */
  chatTokenLimit?: "max_tokens" | "max_completion_tokens";
  /** What keeps it from being ready that code sees without I/O: its settings and the environment. */
  settingsProblem(connector: ConnectorLike, env: NodeJS.ProcessEnv): string | undefined;
  /** A harness's own check — executable, credentials, policy — run as its probe (filesystem work). */
  harnessCheck?: {
    /** What the probe checks, in words ("Codex executable and credentials"). */
    target: string;
    check(connector: ConnectorLike, env: NodeJS.ProcessEnv): { ready: boolean; missing?: string };
  };
  /** The connector test of a kind with no endpoint to ask (offline: nothing to reach; a harness: --version). */
  localTest?(connector: ConfigOf, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<TestAttempt>;
  /** Whether `--faults` can rehearse failures on it (the offline scripted model only). */
  rehearsesFaults?: boolean;
  /** Makes the agent's session on this connector (loading its harness on first use). */
  createSession(input: SessionInput, parts: SessionParts): Promise<BaseAgent>;
  /** How a live evaluation reaches it (through its rate gateway). */
  liveEval?: {
    /** What fixes a connector of this kind that is not ready: the variable or flag. */
    hint: string;
    /** The vendor's own endpoint, the gateway's upstream when no --base-url is given. */
    vendorUrl?: string;
    /** The harness reads its model server's URL from this environment variable, not config.baseUrl. */
    baseUrlEnv?: string;
    /** Sent to a base URL, the harness sends the key this variable holds (named by config.apiKeyEnv). */
    gatewayKeyEnv?: string;
  };
}

/** The base URL a connector's config names, when it names one. */
export function configuredBaseUrl(connector: ConfigOf): string | undefined {
  const configured = connector.config["baseUrl"];
  return typeof configured === "string" && configured.length > 0 ? configured : undefined;
}

/** A configured base URL that is not an http(s) URL, in words; undefined when fine or absent. */
export function badBaseUrl(connector: ConfigOf): string | undefined {
  const baseUrl = connector.config["baseUrl"];
  return baseUrl !== undefined && !(typeof baseUrl === "string" && /^https?:\/\//.test(baseUrl))
    ? "config.baseUrl must be an http(s) URL"
    : undefined;
}

/** The env var a connector reads its key from (config may name another one; the key itself is never stored). */
export function keyEnvFor(driver: ConnectorDriver, connector: ConfigOf): string | undefined {
  const configured = connector.config["apiKeyEnv"];
  return typeof configured === "string" && configured.length > 0 ? configured : driver.keyEnv;
}
