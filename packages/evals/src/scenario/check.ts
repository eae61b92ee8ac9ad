// The rules a scenario can only be checked against by seeding it: the readiness computed in code
// for each connector and the CEO mode the state resolves to must be what the file declares.
import { ASSUMED_PROBES, loadCompanyState, readiness } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { EvalDataError } from "../data/fields.js";
import { seedScenario } from "./seed.js";
import type { LoadedScenario } from "./types.js";

export async function checkSeededState(
  store: Store,
  loaded: LoadedScenario,
  companyId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { scenario, file } = loaded;
  const state = await loadCompanyState(store, companyId);
  for (const [i, declared] of scenario.connectors.entries()) {
    const row = state.connectors.find((c) => c.id === declared.id);
    // As declared: the scenario's endpoints are not probed (ASSUMED_PROBES), its settings and keys are.
    const computed = row ? readiness(row, env, ASSUMED_PROBES) : { ready: false, missing: "missing" };
    if (computed.ready !== declared.ready) {
      throw new EvalDataError(
        file,
        `connectors[${i}].ready`,
        `declared ${declared.ready} but computed ${computed.ready}${computed.missing ? ` (${computed.missing})` : ""}`,
      );
    }
  }
  if (state.mode !== scenario.expectMode) {
    throw new EvalDataError(
      file,
      "expectMode",
      `declared "${scenario.expectMode}" but the seeded state resolves to "${state.mode}" (${state.modeReason})`,
    );
  }
}

/** Seeds the scenario into a scratch in-memory store and checks it. */
export async function checkScenario(loaded: LoadedScenario): Promise<void> {
  const store = await openStore({ memory: true });
  try {
    const seeded = await seedScenario(store, loaded.scenario, { profile: "semantic" });
    await checkSeededState(store, loaded, seeded.companyId);
  } finally {
    await store.close();
  }
}
