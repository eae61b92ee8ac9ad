// @cadre/company: the company's rules and its wake, as the CLI, the server, the evals and the
// dashboard use them. Each name here is one another package imports; a name only this package uses
// is imported by relative path, so the list says what the surface is.
export { ceoAgent, CompanyGoal, CompanyName, createCompany, findOrCreateCompany } from "./companies.js";
export { newId } from "./ids.js";
export { checkInput } from "./input.js";
export {
  checkReadiness,
  connectorLabel,
  defaultEnabledModels,
  keyEnvOf,
  preferredConnectorKind,
  probeSpecs,
  readiness,
  refreshReadiness,
  validateEnabledModels,
} from "./connectors/readiness.js";
export { driverOf, piRoutedKinds } from "./connectors/kinds/index.js";
export {
  addConnector,
  type AddConnectorInput,
  addConnectorSchema,
  ConnectorId,
  removeConnector,
  testConnector,
  validateAddConnectorInput,
} from "./connectors/connector-admin.js";
export type { ConnectorTestResult } from "./connectors/connector-test.js";
export {
  connectorTestView,
  type ConnectorTestView,
  ConnectorTestViewSchema,
  connectorView,
  type ConnectorView,
  ConnectorViewSchema,
  ProbeViewSchema,
} from "./connectors/connector-view.js";
export { scrubSecrets } from "./connectors/credential-shapes.js";
export { ASSUMED_PROBES, type ProbeBook, ProbeCache, sharedProbes } from "./connectors/probe-cache.js";
export {
  CEO_TRANSITIONS,
  MODE_TITLES,
  modeAfterDecision,
  OPERATOR_ACTIONS_LIST,
  type OperatorAction,
  resolveCeoMode,
} from "./modes.js";
export { type CompanyState, loadCompanyState, loadCompanySummary } from "./state.js";
export { createSession, type HarnessSessionCall } from "./session.js";
export { wakeAgent, wakeIfDue, type WakeOptions, type WakeResult, type WakeSession } from "./wake.js";
export {
  AgentUsageReportSchema,
  companyUsageReport,
  type CompanyUsageReport,
  CompanyUsageReportSchema,
  runUsageReport,
  type RunUsageReport,
  RunUsageReportSchema,
  runUsageTotal,
} from "./usage-report.js";
export {
  COMPANY_TOOL_NAMES,
  COMPANY_TOOLS,
  type CompanyTool,
  companyTool,
  companyTools,
  modeOffer,
  offeredTools,
  toolSchemaHashes,
  toolValidator,
  usableTools,
  validateFileApprovalInput,
  validateHireAgentInput,
} from "./tools/index.js";
export {
  buildAgentPrompt,
  buildSession,
  contactsSegment,
  hostRuntimeSegment,
  type ModeDocumentEdit,
} from "./prompts/build.js";
export { lockedTexts } from "./prompts/locked-texts.js";
export { ceoCue, cueTokenCount } from "./prompts/cues.js";
export { MODE_DOCUMENTS } from "./profiles/semantic/mode-documents.js";
export { CEO_PRODUCT_APPEND, HARNESS_PRESETS, MEMORY_RULES } from "./prompts/segments.js";
export { toolHistory } from "./offline/read-prompt.js";
export {
  AGENT_TOKEN_PREFIX,
  generateToken,
  hashToken,
  KeyLabel,
  mintAgentToken,
  OPERATOR_TOKEN_PREFIX,
} from "./agent-tokens.js";
export { findProfileDriver, offlineCeoScript, PROFILE_DRIVERS, profileDriver } from "./profiles/index.js";
export { terminateAgent, type Termination } from "./team/terminate.js";
export { hireAgent } from "./team/hire.js";
export { hireAgentSchema } from "./team/hire-rules.js";
export { fileApproval, fileApprovalSchema } from "./approvals/file.js";
export { decideApproval, type Decision, DecisionNote, type DecisionResult } from "./approvals/decide.js";
export type { Actor } from "./actions/actor.js";
export { type ToolCallRef } from "./actions/once.js";
export { type ModelChange, ModelId, setAgentModel } from "./agent-model.js";
export { LeaseLostError, WakeLease } from "./lease.js";
export { processState, thisProcess } from "./recovery/processes.js";
export { describeRecovery, INTERRUPTED_REASON, lossOf, recoverLostRuns } from "./recovery/recover.js";
export { reconcileLostCodexRuns } from "./recovery/codex-usage.js";
export {
  AssigneeRef,
  type AssignTaskInput,
  assignTaskSchema,
  type CloseTaskInput,
  closeTaskSchema,
  type CommentTaskInput,
  commentTaskSchema,
  type CreateTaskInput,
  createTaskSchema,
  type ReviewTaskInput,
  reviewTaskSchema,
  TaskCommentBody,
  updateTaskSchema,
} from "./work/task-schema.js";
export {
  assignTask,
  closeTask,
  commentOnTask,
  createTask,
  type TaskResult,
  updateTask,
} from "./work/tasks.js";
export { reviewTask } from "./work/review.js";
export { dropStaleRequests } from "./work/due.js";
export { describeSchedule, type ScheduleTick, tickSchedules } from "./work/schedules.js";
export { removeSchedule, setSchedule } from "./work/schedule-admin.js";
export { budgetHold, dropInactive, dueAgents, type DueWake, heldByBudget, runDue } from "./work/dispatch.js";
export { checkDue, type DueCheck, type DueChecked } from "./work/due-check.js";
export {
  loadTaskDetail,
  type TaskDetailView,
  TaskDetailViewSchema,
  taskView,
  type TaskView,
  TaskViewSchema,
  wakeRequestView,
  type WakeRequestView,
  WakeRequestViewSchema,
} from "./work/task-view.js";
export { waitingReviews, type WaitingReviewView, WaitingReviewViewSchema } from "./work/waiting-reviews.js";
export { workspaceOf } from "./team/workspace.js";
export { agentWorkspace } from "./team/workspace-lifecycle.js";
export { harnessOf, resetAgentSession, sessionOfRun } from "./agent-session.js";
export { checkPromptContract, describeContractProblem } from "./prompts/contract.js";
export { appliedBudgets, BudgetExhaustedError, periodStart, usd } from "./budgets/policy.js";
export {
  budgetReport,
  type BudgetReport,
  BudgetReportSchema,
  type BudgetUse,
  setBudget,
  type SetBudgetInput,
  SetBudgetSchema,
} from "./budgets/manage.js";
export { assertBudgetRoom, budgetRefusal, type BudgetRefusal } from "./budgets/run-budget.js";
export { capServedToolCalls } from "./budgets/tool-cap.js";
export {
  checkMessageInput,
  listMessages,
  postMessageSchema,
  postOperatorMessage,
  type ThreadMessage,
} from "./messages/thread.js";
export { RunOwnedError, takeRunOwnership } from "./work/run-owner.js";
export {
  addOperator,
  BOOTSTRAP_OPERATOR,
  operatorMay,
  revokeOperator,
  ROLE_RANK,
} from "./people/operators.js";
export { type RunWhy, whyRun, whyText } from "./work/why.js";
export { startTracing, stopTracing, tracesUrl } from "./tracing/otel.js";
export { modelDriftReport, ModelDriftReportSchema, type ModelDriftView } from "./model-drift-report.js";
