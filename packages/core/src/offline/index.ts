// `@cadre/core/offline`: what the offline connector's session needs from the testing entry (the
// scripted model and fault injection), as an entry of its own so that a session loads it on demand
// and code that only reads never does. The same functions as `@cadre/core/testing` exports.
export { createScriptedStreamFn } from "./scripted-model.js";
export { injectFaults, REHEARSAL_PROMPT_TIMEOUT_MS } from "./faults.js";
