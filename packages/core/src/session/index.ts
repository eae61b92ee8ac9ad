// Harness-neutral glue between the context rules (context/) and a running session: the live
// context state, the recovery decision after a failed model call, product-turn settlement for
// harnesses without continuations, and reading a stored run's context snapshot.

export {
  describeProviderError,
  failureKindOf,
  type FailureKind,
  type ProviderFailure,
} from "./provider-error.js";
export {
  decideRecovery,
  TurnEvidenceTracker,
  type FailedCallInput,
  type RecoveryDecision,
} from "./recovery.js";
export { ProductTurn, ProductTurns, type SettledOutcome } from "./product-turns.js";
export { SessionContext, windowTokensOf, type SessionContextOptions } from "./session-context.js";
export { contextReportOf, type ContextReport } from "./context-report.js";
export {
  selfHealReason,
  type HarnessSessionState,
  type NativeSessionRef,
  type SessionBootstrap,
  type SessionContinuation,
  type VendorTotals,
} from "./harness-session.js";
