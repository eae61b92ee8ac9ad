// What a live eval's CEO runs on, per connector kind: readiness checked first against
// the user's own environment (a missing key or base URL is named with its variable or flag, before
// anything runs), then the rate gateway started in front of the model server, and the CEO's
// connector seeded to reach the model through it (Pi's base URL, ANTHROPIC_BASE_URL for Claude Code,
// the Codex provider's base URL).
import {
  ASSUMED_PROBES,
  defaultEnabledModels,
  driverOf,
  type ProbeBook,
  ProbeCache,
  probeSpecs,
  readiness,
} from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { plumbingCeo, startStandin, type StandinServer } from "@cadre/standin";
import { CONNECTOR_KINDS, type ConnectorKind } from "@cadre/model";
import { type RateGateway, startRateGateway } from "./rate-gateway.js";
import type { SampleConfig } from "./run-sample.js";

/** Every connector kind (each driver says how a live evaluation reaches it), and the built-in stand-in. */
export const EVAL_CONNECTORS = [...CONNECTOR_KINDS, "standin"] as const;
export type EvalConnector = (typeof EVAL_CONNECTORS)[number];

/** The model id the built-in stand-in (`--connector standin`) serves: it names itself a stand-in. */
export const STANDIN_MODEL = "cadre-standin-plumbing-1b";

/** Why `--connector standin`'s answers are scripted (the run's traces carry it). */
export const BUILTIN_STANDIN = "--connector standin is Cadre's own stand-in (scripted, prompt-blind)";

/** What the kind's driver says a live evaluation needs: the hint when not ready, the vendor's URL, the harness's URL variable. */
const liveOf = (connector: EvalConnector) =>
  connector === "standin" ? undefined : driverOf(connector).liveEval;

/** A kind whose endpoint serves the models a connector declares (it needs --base-url and --model). */
const declaresModels = (connector: EvalConnector) =>
  connector !== "standin" && driverOf(connector).declaresModels({ config: {} });

export interface EndpointRequest {
  connector: EvalConnector;
  baseUrl?: string;
  model?: string;
  env: NodeJS.ProcessEnv;
  /** The gateway's starting (and highest) model-request concurrency. */
  concurrency: number;
  /** Replay answers from cassettes: no model server is reached (no gateway, no stand-in). */
  replay: boolean;
}

export interface LiveEndpoint {
  /** Merged into the suite's sample config. */
  sample: Pick<SampleConfig, "ceoKind" | "ceoBaseUrl" | "ceoModel" | "ceoConfig" | "connectorLabel">;
  /** The environment the samples run with (Claude Code's ANTHROPIC_BASE_URL at the gateway). */
  env: NodeJS.ProcessEnv;
  /** The model the CEO runs on. */
  model: string | null;
  /**
   * Why the model server is a stand-in, once it has said so (the built-in one always; any other
   * through its responses' header or its model list); null: nothing said so (yet).
   */
  standin(): string | null;
  gateway?: RateGateway;
  close(): Promise<void>;
}

export function isEvalConnector(value: string): value is EvalConnector {
  return (EVAL_CONNECTORS as readonly string[]).includes(value);
}

/** The model a connector's CEO runs on, before the run: --model, else the kind's default. */
export function modelFor(connector: EvalConnector, model: string | undefined): string | null {
  if (model !== undefined) return model;
  if (connector === "standin") return STANDIN_MODEL;
  if (connector === "offline" || declaresModels(connector)) return null;
  return defaultEnabledModels(connector)[0] ?? null;
}

/** How the report names the connector (openai-compatible carries its model: every server differs). */
export function labelFor(connector: EvalConnector, model: string | null): string {
  return declaresModels(connector) ? `${connector}:${model ?? "?"}` : connector;
}

async function checkReady(request: EndpointRequest, model: string | null): Promise<void> {
  const { connector, baseUrl, env } = request;
  if (connector === "offline" || connector === "standin") return;
  if (declaresModels(connector)) {
    const missing = [
      !baseUrl ? "--base-url URL (the endpoint, e.g. http://127.0.0.1:11434/v1)" : "",
      !request.model ? "--model ID (explicit, as the server names it)" : "",
    ].filter(Boolean);
    if (missing.length > 0)
      throw new UserInputError(`--connector ${connector} needs ${missing.join(" and ")}`);
    return;
  }
  const kind: ConnectorKind = connector;
  // A harness that reads its model server's URL from its environment gets it there, not in config.
  const urlEnv = liveOf(connector)?.baseUrlEnv;
  const userEnv = urlEnv && baseUrl ? { ...env, [urlEnv]: baseUrl } : env;
  const config = baseUrl && !urlEnv ? { baseUrl } : {};
  const connector_ = { kind, config, enabledModels: model ? [model] : defaultEnabledModels(kind) };
  // The harness probe (its executable, its credentials) really runs; the endpoint is not probed
  // here (the first sample reaches it, through the gateway, soon enough).
  const harness = new ProbeCache();
  await harness.refresh(probeSpecs(connector_, userEnv).filter((p) => p.kind === "harness"));
  const book: ProbeBook = {
    ...ASSUMED_PROBES,
    peek: (spec) => (spec.kind === "harness" ? harness.peek(spec) : ASSUMED_PROBES.peek(spec)),
  };
  const ready = readiness(connector_, userEnv, book);
  if (!ready.ready)
    throw new UserInputError(
      `the ${connector} connector is not ready: ${ready.missing}. ${liveOf(connector)?.hint ?? ""}. Offline runs need no key (--connector offline).`,
    );
}

export async function openEndpoint(request: EndpointRequest): Promise<LiveEndpoint> {
  const { connector, env } = request;
  const model = modelFor(connector, request.model);
  if (request.baseUrl !== undefined && (connector === "offline" || connector === "standin"))
    throw new UserInputError(`--base-url does not apply to --connector ${connector}`);
  await checkReady(request, model);
  if (connector === "offline")
    return { sample: {}, env, model: null, standin: () => null, close: async () => {} };
  const label = labelFor(connector, model);
  const ceoKind = connector === "standin" ? "openai-compatible" : connector;
  // A vendor kind without --model keeps its default model list (the prompt lists them all).
  const explicit = request.model ?? (connector === "standin" ? STANDIN_MODEL : undefined);
  const modelPart = explicit ? { ceoModel: explicit } : {};
  if (request.replay)
    return {
      sample: {
        ceoKind,
        connectorLabel: label,
        ...modelPart,
        ...(ceoKind === "openai-compatible"
          ? { ceoBaseUrl: request.baseUrl ?? "http://127.0.0.1:9/v1" }
          : {}),
      },
      env,
      model,
      // A replay's answers are the cassettes': each entry says whether a stand-in gave it.
      standin: () => (connector === "standin" ? BUILTIN_STANDIN : null),
      close: async () => {},
    };
  // The built-in stand-in: a loopback server speaking OpenAI Chat Completions, answered by a
  // prompt-blind plumbing policy (packages/standin/src/policies/plumbing-ceo.ts). Not a model.
  let standin: StandinServer | undefined;
  let gateway: RateGateway | undefined;
  try {
    if (connector === "standin") standin = await startStandin({ policy: plumbingCeo() });
    const live = liveOf(connector);
    const upstream =
      standin?.openaiBaseUrl ??
      request.baseUrl ??
      (live?.baseUrlEnv ? env[live.baseUrlEnv] : undefined) ??
      (live?.vendorUrl as string);
    gateway = await startRateGateway({ upstream, concurrency: request.concurrency });
    const sampleEnv = live?.baseUrlEnv ? { ...env, [live.baseUrlEnv]: gateway.url } : env;
    const opened = gateway;
    return {
      sample: {
        ceoKind,
        connectorLabel: label,
        ...modelPart,
        ...(live?.baseUrlEnv ? {} : { ceoBaseUrl: gateway.url }),
        // A harness sent to a base URL sends the key that URL's config names: the user's vendor key.
        ...(live?.gatewayKeyEnv && !request.baseUrl ? { ceoConfig: { apiKeyEnv: live.gatewayKeyEnv } } : {}),
      },
      env: sampleEnv,
      model,
      // Every response through the gateway is read for a stand-in's header (rate-gateway.ts).
      standin: () => (connector === "standin" ? BUILTIN_STANDIN : opened.standin()),
      gateway,
      close: async () => {
        await opened.close();
        await standin?.close();
      },
    };
  } catch (error) {
    await gateway?.close();
    await standin?.close();
    throw error;
  }
}
