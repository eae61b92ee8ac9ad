// Context management decisions of the agent core (MC-8..MC-14): pure, harness-neutral rules.
// Named exports on purpose: internal helpers (byte truncation, digest reducer) stay private.

export { HARNESS_KINDS, type ErrorSource, type HarnessKind } from "./harness-kind.js";
export {
  classifyCompactionFailure,
  type CompactionFailureClass,
  type CompactionFailureInput,
  type CompactionFailureVerdict,
  type CompactionPath,
} from "./classify-compaction-failure.js";
export type { CompactionDigest, CompactionResult } from "./compaction-digest.js";
export { DEFAULT_COMPACT_THRESHOLD, reserveTokensFor } from "./context-threshold.js";
export {
  ContextController,
  REMOTE_NO_LOCAL_ROLLOVER,
  type CompactionEndDetails,
  type ContextControllerOptions,
  type PersistedContextState,
  type SendAction,
  type SendPreparation,
} from "./context-controller.js";
export {
  buildHandoff,
  DEFAULT_HANDOFF_MAX_BYTES,
  type HandoffOptions,
  type TranscriptItem,
} from "./handoff.js";
export {
  decideReplay,
  evidenceFromEvents,
  isExplicitContextOverflow,
  type ReplayDecision,
  type ReplayGateInput,
  type TurnErrorDescription,
  type TurnEvidence,
} from "./replay-gate.js";
export {
  CODEX_RECONNECT_WATCHDOG_MS,
  timeoutPolicy,
  type RecoveryAction,
  type TimeoutFailure,
  type TimeoutKind,
  type TimeoutVerdict,
} from "./timeout-policy.js";
export {
  canMeasureBytes,
  decideCompression,
  type CompressionDecision,
  type CompressionSnapshot,
  type CompressionTrigger,
  type StrippableImage,
} from "./compression-decision.js";
export { SessionLock } from "./session-lock.js";
export {
  assessModelSwitch,
  FORCED_ROLLOVER_FRACTION,
  forcedRolloverLine,
  switchModel,
  type ModelSwitchAction,
  type ModelSwitchInput,
  type ModelSwitchSteps,
  type ModelSwitchVerdict,
} from "./model-switch.js";
export {
  TurnSettlement,
  type ClaimState,
  type CompletedItem,
  type CompletionOutcome,
  type ContinuationEvidence,
  type ProviderCompletion,
  type SettlementHooks,
  type TerminalEvent,
  type TurnSettlementOptions,
} from "./turn-settlement.js";
export {
  ContinuationQueue,
  type ContinuationRun,
  type ContinuationStart,
  type StartContinuation,
} from "./continuation-queue.js";
