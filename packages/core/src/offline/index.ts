// `@cadre/core/offline`: the offline connector's model, which is product code: the deterministic
// scripted model (a real pi-ai stream function) and the script types a company writes for it, its
// seeded randomness, and the failure rehearsal (`--faults`) injected at its provider boundary. The
// offline scripts import it statically for their types and seeded random; a session gets the model
// itself from `@cadre/core/sessions`, loaded on demand, so code that only reads never loads pi-ai.
export {
  createScriptedStreamFn,
  type Script,
  type ScriptReply,
  type ScriptRequest,
  serialiseRequest,
} from "./scripted-model.js";
export { between, pick, seededRandom } from "./seeded-random.js";
export {
  FAULT_DESCRIPTIONS,
  FAULT_NAMES,
  type FaultName,
  injectFaults,
  parseFaultList,
  REHEARSAL_PROMPT_TIMEOUT_MS,
} from "./faults.js";
