// The API's answers as the dashboard reads them (GET /api/openapi.json lists the routes). Where the
// server sends a record exactly as a package types it (store rows passed through, company's usage
// reports and decisions, core's event model), the type is imported from that package as a type
// only, so the dashboard follows every change while the bundle carries none of their code
// (`import type` / `export type` are erased by the build). The shapes the server builds for HTTP
// alone (views with readiness or the CEO's mode, the wake answer, the feed frames) are written out
// here.
import type { AgentEvent } from "@cadre/core";
import type { CeoMode, PromptProfile, RunStatus, Via, WakeTrigger } from "@cadre/model";
import type { UsageCounters } from "@cadre/model";
import type { CompanyRow } from "@cadre/store";

export type { AgentEvent, ContextSnapshot, ToolResultContent, Usage, UsageSummary } from "@cadre/core";
export type { AgentUsageReport, CompanyUsageReport, DecisionResult, RunUsageReport } from "@cadre/company";
export type { ApprovalStatus, CeoMode, RunStatus, Via, WakeTrigger } from "@cadre/model";
export type { ApprovalRow as Approval, CompanyRow as Company } from "@cadre/store";

/** GET /api/companies/{id}: the company with its CEO's mode and why. */
export interface CompanyView extends CompanyRow {
  ceoAgentId: string;
  ceoMode: CeoMode;
  ceoModeReason: string;
  toolsInMode: string[];
}

/** The store's AgentRow as sent, except `department`: any text here, the store's union there. */
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

/** GET /api/companies/{id}/connectors: the stored connector, secrets redacted, with its readiness. */
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

/** The store's RunRow as sent, with `trigger` and `mode` (plain strings in the store) narrowed. */
export interface Run {
  id: string;
  companyId: string;
  agentId: string;
  trigger: WakeTrigger;
  mode: CeoMode;
  profile: PromptProfile;
  cue: string;
  status: RunStatus;
  usage: UsageCounters;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** POST /api/agents/{id}/wake (202) */
/**
 * POST /api/agents/{id}/wake. On PostgreSQL the wake is a job: when no worker started its run within
 * the server's wait, `status` is "queued" and the run fields are null.
 */
export type WakeStarted =
  | {
      status?: "started";
      wakeId?: string | null;
      runId: string;
      profile: string;
      trigger: WakeTrigger;
      mode: CeoMode;
      cue: string;
      cueTokens: number;
    }
  | {
      status: "queued";
      wakeId: string;
      runId: null;
      profile: null;
      trigger: null;
      mode: null;
      cue: null;
      cueTokens: null;
    };

/** One frame of GET /api/companies/{id}/events; `feedId` is also the SSE id. */
export type FeedMessage =
  | { feedId: number; kind: "agent_event"; runId: string; seq: number; at: string; event: AgentEvent }
  | {
      feedId: number;
      kind: "domain_event";
      type: string;
      agentId: string | null;
      runId: string | null;
      at: string;
      data: Record<string, unknown>;
    };

export type DomainMessage = Extract<FeedMessage, { kind: "domain_event" }>;
export type AgentMessage = Extract<FeedMessage, { kind: "agent_event" }>;
