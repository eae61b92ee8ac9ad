// The Codex harness: agent, its exec-JSON translator, sandbox/approval policy, the configuration it
// hands Codex, and the readiness probes (executable, credentials).
export {
  CodexAgent,
  type CodexAgentOptions,
  type CodexMcpServer,
  type CodexProvider,
  type CodexResumeOutcome,
} from "./codex-agent.js";
export { CODEX_PROVIDER_ID } from "./config.js";
export { EXEC_YIELD_CONTINUATION_TEMPLATE } from "./exec-yield.js";
export { codexTranslator, translateCodexJsonl } from "./translate/translator.js";
export {
  CODEX_APPROVAL_POLICIES,
  CODEX_SANDBOX_MODES,
  codexBuiltinTools,
  type CodexPolicy,
  DEFAULT_CODEX_POLICY,
  parseCodexPolicy,
} from "./policy.js";
export { bundledCodex, locateCodex } from "./locate.js";
export { codexHome, rolloutCalls, type RolloutCall, type ThreadTotals } from "./rollout.js";
export { CODEX_KEY_ENVS, codexAuthFile, codexCredentials } from "./credentials.js";
