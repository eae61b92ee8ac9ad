// The Codex harness: agent, its exec-JSON translator, sandbox/approval policy, and the readiness
// probes (executable, credentials).
export { CodexAgent, type CodexAgentOptions, type CodexMcpServer } from "./codex-agent.js";
export { codexTranslator, translateCodexJsonl } from "./translate/translator.js";
export {
  CODEX_APPROVAL_POLICIES,
  CODEX_SANDBOX_MODES,
  type CodexPolicy,
  DEFAULT_CODEX_POLICY,
  parseCodexPolicy,
} from "./policy.js";
export { bundledCodex, locateCodex } from "./locate.js";
export { CODEX_KEY_ENVS, codexAuthFile, codexCredentials } from "./credentials.js";
