// The API's answers as the dashboard reads them (GET /api/openapi.json lists the routes). The
// HTTP shapes are written out here; the agent core's event model is imported from @cadre/core as
// types only, so the run view follows every event core emits while the bundle carries none of
// core's code (`import type` is erased by the build).
import type { AgentEvent } from "@cadre/core";

export type { AgentEvent, ContextSnapshot, ToolResultContent, Usage } from "@cadre/core";

export type CeoMode = "team-building" | "strategy-drafting" | "awaiting-approval" | "revising" | "operating";
export type Via = "tool" | "http" | "system";

export interface Company {
  id: string;
  name: string;
  goal: string;
  settings: { maxTeamSize: number; requireHireApproval: boolean; profile: "semantic" | "legacy" };
  createdAt: string;
}

/** GET /api/companies/{id}: the company with its CEO's mode and why. */
export interface CompanyView extends Company {
  ceoAgentId: string;
  ceoMode: CeoMode;
  ceoModeReason: string;
  toolsInMode: string[];
}

export interface Agent {
  id: string;
  companyId: string;
  name: string;
  role: string;
  description: string;
  department: string | null;
  connectorId: string;
  model: string;
  reportsTo: string | null;
  isCeo: boolean;
  status: "active" | "terminated";
  via: Via;
  createdAt: string;
}

export interface Connector {
  companyId: string;
  id: string;
  kind: string;
  label: string;
  enabledModels: string[];
  config: Record<string, unknown>;
  ready: boolean;
  /** What keeps it from being ready (credentials, executable, endpoint). */
  missing?: string;
  createdAt: string;
}

export type ApprovalStatus = "pending" | "approved" | "rejected" | "revision_requested";

export interface Approval {
  id: string;
  companyId: string;
  type: "approve_ceo_strategy" | "hire_agent";
  title: string;
  payload: string;
  status: ApprovalStatus;
  filedByAgentId: string | null;
  via: Via;
  decisionNote: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** POST /api/approvals/{id}/approve|reject|request-revision */
export interface DecisionResult {
  approval: Approval;
  modeBefore: CeoMode;
  modeAfter: CeoMode;
}

export type RunStatus = "running" | "done" | "failed" | "cancelled";
export type WakeTrigger = "start_team_building" | "approval_decided" | "routine";

export interface Run {
  id: string;
  companyId: string;
  agentId: string;
  trigger: WakeTrigger;
  mode: CeoMode;
  profile: "semantic" | "legacy";
  cue: string;
  status: RunStatus;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** POST /api/agents/{id}/wake (202) */
export interface WakeStarted {
  runId: string;
  profile: string;
  trigger: WakeTrigger;
  mode: CeoMode;
  cue: string;
  cueTokens: number;
}

export interface UsageSummary {
  /** Uncached input tokens. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  /** USD; null when the model's prices are unknown. */
  cost: number | null;
  /** cacheRead / (input + cacheRead + cacheWrite). */
  hitRate: number;
}

export interface RunUsageReport {
  runId: string;
  agentId: string;
  agentName: string;
  model: string;
  status: RunStatus;
  startedAt: string;
  usage: UsageSummary;
  /** One per model call, in order (GET /api/runs/{id}/usage). */
  turns?: Array<{ turn: number; usage: UsageSummary }>;
}

export interface AgentUsageReport {
  agentId: string;
  name: string;
  role: string;
  model: string;
  runs: number;
  usage: UsageSummary;
}

export interface CompanyUsageReport {
  companyId: string;
  name: string;
  usage: UsageSummary;
  agents: AgentUsageReport[];
  runs: RunUsageReport[];
}

/** One frame of GET /api/companies/{id}/events; `feedId` is also the SSE id. */
export type FeedMessage =
  | { feedId: number; kind: "agent_event"; runId: string; seq: number; at: string; event: AgentEvent }
  | { feedId: number; kind: "domain_event"; type: string; agentId: string | null; runId: string | null; at: string; data: Record<string, unknown> };

export type DomainMessage = Extract<FeedMessage, { kind: "domain_event" }>;
export type AgentMessage = Extract<FeedMessage, { kind: "agent_event" }>;
