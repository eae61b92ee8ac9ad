// The Claude Code harness: agent, its stream-json translator, permission policy, and the readiness
// probes (executable, credentials).
export { ClaudeCodeAgent, type ClaudeCodeAgentOptions, type ResumeOutcome } from "./claude-code-agent.js";
export {
  claudeCodeEnvironment,
  claudeCodeUsesLoopback,
  LOOPBACK_PLACEHOLDER_KEY,
  NONESSENTIAL_TRAFFIC_ENV,
} from "./environment.js";
export { claudeCodeTranslator, translateClaudeCodeJsonl } from "./translate/translator.js";
export {
  builtinToolNames,
  CLAUDE_CODE_PERMISSION_MODES,
  claudeCodePolicyProblem,
  type ClaudeCodePolicy,
  DEFAULT_CLAUDE_CODE_POLICY,
  parseClaudeCodePolicy,
  workspaceRules,
} from "./policy.js";
export { workspaceRefusal } from "./workspace-hook.js";
export { bundledClaudeCode, locateClaudeCode } from "./locate.js";
export {
  CLAUDE_CODE_KEY_ENVS,
  claudeCodeCredentials,
  claudeCodeCredentialsFile,
  type CredentialCheck,
} from "./credentials.js";
export type { Located } from "../locate-executable.js";
