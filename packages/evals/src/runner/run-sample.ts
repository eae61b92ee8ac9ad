// One sample: a fresh in-memory store seeded with the scenario, one real CEO wake (real tools,
// real Pi loop, the profile's offline CEO or a live connector), then the trace. The model call is
// wrapped (outermost first): the break's request edit, the capture of what the model was shown,
// and the cassette that records or replays the answer. A harness that runs its own loop (Claude
// Code, Codex) is wrapped as a whole session: its cassette records or replays the wake's events.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ASSUMED_PROBES,
  type HarnessSessionCall,
  loadCompanyState,
  type WakeResult,
  wakeAgent,
  driverOf,
} from "@cadre/company";
import { type StreamFn, UserInputError } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { type Cassette, CassetteMissError, type CassetteMode, openCassette } from "../cassette/cassette.js";
import { type HarnessCassette, openHarnessCassette } from "../cassette/harness-cassette.js";
import { checkSeededState } from "../scenario/check.js";
import { type CeoKind, seedScenario } from "../scenario/seed.js";
import type { LoadedScenario } from "../scenario/types.js";
import { collectTrace } from "../trace/collect.js";
import type { Trace } from "../trace/types.js";
import type { Break } from "./breaks.js";
import { applySampleCaps, capOf, DEFAULT_SAMPLE_CAPS, type SampleCaps } from "./caps.js";
import { captureRequests } from "./capture.js";
import type { ProfileDriver } from "./profiles.js";

export interface SampleConfig {
  profile: ProfileDriver;
  /** A deliberate break of the candidate. */
  break?: Break;
  /** Run the CEO on a real connector of this kind; default: the scenario's (offline). */
  ceoKind?: CeoKind;
  /** openai-compatible: the endpoint and the model the CEO runs on. */
  ceoBaseUrl?: string;
  ceoModel?: string;
  /** More of the CEO connector's config (see seedScenario). */
  ceoConfig?: Record<string, unknown>;
  /** How the report names the CEO's connector (default its kind; "standin" for the built-in stand-in). */
  connectorLabel?: string;
  /**
   * Record every model answer (or harness wake) under dir/<scenario>/, answer from there only
   * (replay), or answer what is there and record the rest live (replay-or-record).
   */
  cassettes?: { mode: CassetteMode; dir: string };
  env: NodeJS.ProcessEnv;
  /** Answers in place of the connector's own model call (tests record a vendor CEO's cassettes with no key). */
  vendor?: StreamFn;
  /** Per-sample caps (default DEFAULT_SAMPLE_CAPS), enforced by the budget machinery (caps.ts). */
  caps?: SampleCaps;
  /** Codex starts `cadre mcp` on the sample's store: the argv that starts cadre (default: this process). */
  cadreCommand?: readonly string[];
  /** Why the model server is a stand-in, once it has said so (live-endpoint.ts); null: nothing said so. */
  standin?: () => string | null;
}

/**
 * A sample of a harness that runs its own loop in its own process (its model calls are not Pi's to
 * wrap) has a file store (Codex's `cadre mcp` opens it) in a scratch data folder.
 */
async function sampleStore(kind: string | undefined): Promise<{ store: Store; dataDir?: string }> {
  if (!kind || driverOf(kind).harness === "pi") return { store: await openStore({ memory: true }) };
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-eval-sample-"));
  return { store: await openStore({ path: join(dataDir, "cadre.db") }), dataDir };
}

export async function runSample(
  loaded: LoadedScenario,
  sample: number,
  seed: number,
  config: SampleConfig,
  /** The sample's USD cap: its per-sample cap, or less when the run's --max-cost-usd has less left. */
  usdCap?: number,
): Promise<Trace> {
  const id = loaded.scenario.id;
  const caps = config.caps ?? DEFAULT_SAMPLE_CAPS;
  const usd = usdCap ?? caps.costUsd;
  const { store, dataDir } = await sampleStore(config.ceoKind);
  try {
    const seeded = await seedScenario(store, loaded.scenario, {
      profile: config.profile.name,
      env: config.env,
      ...(config.ceoKind ? { ceoKind: config.ceoKind } : {}),
      ...(config.ceoBaseUrl ? { ceoBaseUrl: config.ceoBaseUrl } : {}),
      ...(config.ceoModel ? { ceoModel: config.ceoModel } : {}),
      ...(config.ceoConfig ? { ceoConfig: config.ceoConfig } : {}),
    });
    await checkSeededState(store, loaded, seeded.companyId, config.env);
    await applySampleCaps(store, seeded.companyId, caps, usd);
    const before = await loadCompanyState(store, seeded.companyId);
    const offline = !config.ceoKind;
    const capture = captureRequests();
    let cassette: Cassette | undefined;
    let harness: HarnessCassette | undefined;
    const cassetteDir = join(config.cassettes?.dir ?? "", id);
    const salt = `${id}#${sample}`;
    const wrapStreamFn = (connectorCall: StreamFn, connector: { kind: string }): StreamFn => {
      const inner = config.vendor ?? connectorCall;
      if (config.cassettes)
        cassette = openCassette({
          dir: cassetteDir,
          mode: config.cassettes.mode,
          salt,
          kind: connector.kind,
          inner,
          ...(config.standin ? { standin: config.standin } : {}),
        });
      const seen = capture.wrap(cassette ? cassette.streamFn : inner);
      return config.break?.wrapStream ? config.break.wrapStream(seen) : seen;
    };
    const wrapHarness = (call: HarnessSessionCall) => {
      capture.see({
        systemPrompt: call.config.systemPrompt,
        tools: call.config.tools.map((t) => ({ name: t.name, parameters: t.parameters })),
      });
      if (!config.cassettes) return call.launch();
      harness = openHarnessCassette({
        dir: cassetteDir,
        mode: config.cassettes.mode,
        salt,
        ...(config.standin ? { standin: config.standin } : {}),
      });
      return harness.wrap(call);
    };
    // A captured run's trigger, as it woke the CEO; else the operator's start in team-building.
    const trigger =
      loaded.scenario.trigger ??
      (before.mode === "team-building" ? ("start_team_building" as const) : undefined);
    const session = await config.profile.open({ store, env: config.env });
    let result: WakeResult | undefined;
    let error: unknown;
    // The wall-time cap: the wake is cancelled with a reason, and the sample is a failed one.
    const wall = new AbortController();
    const timer = setTimeout(
      () => wall.abort(`wall_time: the sample reached its wall-time cap of ${caps.wallTimeMs} ms`),
      caps.wallTimeMs,
    );
    const started = performance.now();
    try {
      result = await wakeAgent({
        store,
        agentId: seeded.ceoId,
        seed,
        env: config.env,
        // Scenario connectors are ready as the scenario declares: no endpoint behind them is probed.
        probes: ASSUMED_PROBES,
        wrapStreamFn,
        wrapHarness,
        signal: wall.signal,
        ...(dataDir ? { dataDir } : {}),
        ...(config.cadreCommand ? { cadreCommand: config.cadreCommand } : {}),
        ...session.wake,
        ...(trigger ? { trigger } : {}),
        ...(offline ? { script: config.profile.offlineScript } : {}),
        ...(config.break?.modeDocument ? { modeDocument: config.break.modeDocument } : {}),
        ...(config.break?.cue ? { cue: config.break.cue } : {}),
        ...(config.break?.toolOffer ? { toolOffer: config.break.toolOffer } : {}),
      });
    } catch (thrown) {
      error = thrown;
    } finally {
      clearTimeout(timer);
      await session.close();
    }
    const latencyMs = Math.round(performance.now() - started);
    // A replay never falls back to a model: a request with no recording, a damaged cassette or a
    // harness replay whose tools answered otherwise ends the whole run.
    const stats = [cassette?.stats(), harness?.stats()].filter((s) => s !== undefined);
    const corrupt = stats.flatMap((s) => s.corrupt)[0];
    if (corrupt) throw corrupt;
    const missed = stats.flatMap((s) => s.misses)[0];
    if (missed) throw new CassetteMissError(id, sample, missed.key, cassetteDir, missed.diagnosis);
    const diverged = harness?.stats().diverged[0];
    if (diverged) throw new UserInputError(`scenario ${id}, sample ${sample}: ${diverged}`);
    // A replay is replayed throughout; under replay-or-record, a sample any answer of which came from
    // a cassette is replayed too: its evidence is the recording's.
    const replayed = config.cassettes?.mode === "replay" || stats.some((s) => s.replayed > 0);
    const source = replayed ? "replayed" : offline ? "offline" : "live";
    // Answers from a stand-in are scripted, live or replayed: the trace says so, and why.
    const standin = offline ? null : (stats.find((s) => s.standin)?.standin ?? config.standin?.() ?? null);
    const used = result
      ? {
          tokens: result.usage.input + result.usage.output + result.usage.cacheRead + result.usage.cacheWrite,
          usd: (await store.listModelCalls(result.run.id)).reduce<number | null>(
            (sum, c) => (sum === null || c.costUsd === null ? null : sum + c.costUsd),
            0,
          ),
        }
      : { tokens: 0, usd: 0 };
    const cap = capOf(
      {
        // A drift refusal is no cap: the run's error says what happened.
        stopReason: result?.stopReason === "model_drift" ? null : (result?.stopReason ?? null),
        error: result?.run.error ?? null,
        wallTime: wall.signal.aborted && result?.terminal !== "done",
      },
      used,
      caps,
      usd,
    );
    return await collectTrace(
      store,
      seeded,
      {
        ...(result ? { result } : {}),
        ...(error !== undefined ? { error } : {}),
        trigger: trigger ?? "inferred",
        modeBefore: before.mode,
      },
      capture.first(),
      {
        scenarioId: id,
        sample,
        seed,
        profile: config.profile.name,
        source,
        break: config.break?.name ?? null,
        latencyMs,
        cap,
        ...(standin ? { standin } : {}),
      },
    );
  } finally {
    await store.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}
