// The Claude Code harness: agent, its stream-json translator, permission policy, and the readiness
// probes (executable, credentials).
export { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "./claude-code-agent.js";
export { claudeCodeTranslator, translateClaudeCodeJsonl } from "./translate/translator.js";
export {
  CLAUDE_CODE_PERMISSION_MODES,
  type ClaudeCodePolicy,
  DEFAULT_CLAUDE_CODE_POLICY,
  parseClaudeCodePolicy,
} from "./policy.js";
export { bundledClaudeCode, locateClaudeCode } from "./locate.js";
export {
  CLAUDE_CODE_KEY_ENVS,
  claudeCodeCredentials,
  claudeCodeCredentialsFile,
  type CredentialCheck,
} from "./credentials.js";
export type { Located } from "../locate-executable.js";
