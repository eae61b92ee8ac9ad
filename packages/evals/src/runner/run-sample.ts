// One sample: a fresh in-memory store seeded with the scenario, one real CEO wake (real tools,
// real Pi loop, the profile's offline CEO or a live connector), then the trace.
import { loadCompanyState, type WakeResult, wakeAgent } from "@cadre/company";
import { openStore } from "@cadre/store";
import { checkSeededState } from "../scenario/check.js";
import { seedScenario } from "../scenario/seed.js";
import type { LoadedScenario } from "../scenario/types.js";
import { collectTrace } from "../trace/collect.js";
import type { Trace } from "../trace/types.js";
import type { Break } from "./breaks.js";
import { captureRequests } from "./capture.js";
import type { ProfileDriver } from "./profiles.js";

export interface SampleConfig {
  profile: ProfileDriver;
  /** A deliberate break of the candidate (offline CEO only). */
  break?: Break;
  /** Run the CEO on a real connector of this kind; default: the scenario's (offline). */
  ceoKind?: "anthropic" | "openai";
  env: NodeJS.ProcessEnv;
}

export async function runSample(loaded: LoadedScenario, sample: number, seed: number, config: SampleConfig): Promise<Trace> {
  const store = await openStore({ memory: true });
  try {
    const seeded = await seedScenario(store, loaded.scenario, { profile: config.profile.name, env: config.env, ...(config.ceoKind ? { ceoKind: config.ceoKind } : {}) });
    await checkSeededState(store, loaded, seeded.companyId);
    const before = await loadCompanyState(store, seeded.companyId);
    const offline = !config.ceoKind;
    // The capture sits inside the break: it records what the (broken) candidate's model was shown.
    const capture = captureRequests(config.profile.offlineScript);
    const script = config.break ? config.break.wrap(capture.script) : capture.script;
    const trigger = before.mode === "team-building" ? ("start_team_building" as const) : undefined;
    const session = await config.profile.open({ store, env: config.env });
    let result: WakeResult | undefined;
    let error: unknown;
    const started = performance.now();
    try {
      result = await wakeAgent({ store, agentId: seeded.ceoId, seed, env: config.env, ...session.wake, ...(trigger ? { trigger } : {}), ...(offline ? { script } : {}) });
    } catch (thrown) {
      error = thrown;
    } finally {
      await session.close();
    }
    const latencyMs = Math.round(performance.now() - started);
    return await collectTrace(
      store,
      seeded,
      { ...(result ? { result } : {}), ...(error !== undefined ? { error } : {}), trigger: trigger ?? "inferred", modeBefore: before.mode },
      offline ? capture.first() : undefined,
      { scenarioId: loaded.scenario.id, sample, seed, profile: config.profile.name, source: offline ? "offline" : "live", break: config.break?.name ?? null, latencyMs },
    );
  } finally {
    await store.close();
  }
}
