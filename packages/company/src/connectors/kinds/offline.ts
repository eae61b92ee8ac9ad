// The built-in offline connector: the scripted model (core's, a real pi-ai stream function) plugged
// into Pi at the provider boundary — deterministic, no network, no key. The one product code that
// loads the scripted model (with the sessions, `@cadre/core/sessions`), for that model and for
// `--faults` rehearsals; loaded when a session starts, so a command that only reads never does.
import { OFFLINE_MODEL_ID, type StreamFn } from "@cadre/core";
import { offlineMemberScript } from "../../offline/ceo-script.js";
import { offlineCeoScript } from "../../profiles/offline-ceo-script.js";
import type { ConnectorDriver } from "./driver.js";

/**
 * The tool whose success `overflow-after-tool` waits for: a hire is the side effect a replay would
 * repeat (the rehearsal shows it is not replayed and the agent exists once).
 */
const REHEARSED_SIDE_EFFECT = "hire_agent";

export const offlineDriver: ConnectorDriver<"offline"> = {
  kind: "offline",
  label: "Offline scripted model (deterministic, no network)",
  defaultModels: [OFFLINE_MODEL_ID],
  harness: "pi",
  budget: "before-each-call",
  providers: () => ["offline"],
  declaresModels: () => false,
  endpoint: () => undefined,
  settingsProblem: () => undefined,
  localTest: async () => ({
    ok: true,
    answered: true,
    target: "offline scripted model (no network)",
    answer: "offline",
  }),
  rehearsesFaults: true,
  async createSession(input, { config, pi, wrap }) {
    const { PiAgent, createScriptedStreamFn, injectFaults, REHEARSAL_PROMPT_TIMEOUT_MS } =
      await import("@cadre/core/sessions");
    const script = input.script ?? (input.agent.isCeo ? offlineCeoScript : offlineMemberScript);
    const streamFn = createScriptedStreamFn({ script, seed: input.seed }) as StreamFn;
    if (!input.faults?.length) return new PiAgent(config, { ...pi, streamFn: wrap(streamFn) });
    const faulted = injectFaults(input.faults, { streamFn, sideEffectTools: [REHEARSED_SIDE_EFFECT] });
    // Stated here, not left on the faulted function, so a wrapper (cassettes) cannot drop it.
    const rehearsal =
      input.faults.includes("prompt-timeout") && pi.promptTimeoutMs === undefined
        ? { promptTimeoutMs: REHEARSAL_PROMPT_TIMEOUT_MS }
        : {};
    return new PiAgent(config, { ...pi, ...rehearsal, streamFn: wrap(faulted.streamFn) });
  },
};
