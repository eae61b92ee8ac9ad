// The API's answers as the dashboard reads them (GET /api/openapi.json lists the routes). Every
// answer's type is the server's own view type (server/routes/views.ts: the TypeBox schema the
// server checks and documents its answers with), and the event model is core's; all are imported
// as types only, so the dashboard follows every change while the bundle carries none of their code
// (`import type` / `export type` are erased by the build). No database row type is the contract.
import type { AgentEvent } from "@cadre/core";
import type { FeedMessage as FeedFrame } from "@cadre/server";

export type { AgentEvent, ContextSnapshot, ToolResultContent, Usage, UsageSummary } from "@cadre/core";
export type {
  BudgetReport,
  BudgetUse,
  CompanyUsageReport,
  ModelDriftView as ModelDrift,
  RunUsageReport,
  TaskDetailView as TaskDetail,
  WaitingReviewView as WaitingReview,
} from "@cadre/company";
export type { ApprovalStatus, CeoMode, RunStatus, Via, WakeTrigger } from "@cadre/model";
export type {
  AgentView as Agent,
  ApprovalView as Approval,
  CompanySummaryView as Company,
  CompanyGlance,
  CompanyListItemView as CompanyListItem,
  CompanyView,
  ConnectorTestView as ConnectorTest,
  ConnectorView as Connector,
  DecisionView as DecisionResult,
  RunDetailView as RunDetail,
  RunView as Run,
  TaskView as Task,
  WakeStartedView as WakeStarted,
} from "@cadre/server";

/**
 * One frame of GET /api/companies/{id}/events (the server's FeedMessage, its agent event typed; a
 * domain event's `type` narrows its `data`); `feedId` is also the SSE id.
 */
export type FeedMessage =
  | (Omit<Extract<FeedFrame, { kind: "agent_event" }>, "event"> & { event: AgentEvent })
  | Extract<FeedFrame, { kind: "domain_event" }>;

export type DomainMessage = Extract<FeedMessage, { kind: "domain_event" }>;
export type AgentMessage = Extract<FeedMessage, { kind: "agent_event" }>;
