// Stored rows (snake_case, encoded JSON and booleans) → the records of types.ts.
import type { Selectable } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import type {
  ActivityTable,
  AgentSessionsTable,
  AgentsTable,
  BudgetsTable,
  ModelCallsTable,
  ApiTokensTable,
  ApprovalEventsTable,
  ApprovalsTable,
  CompaniesTable,
  ConnectorsTable,
  RunEventsTable,
  RunProcessesTable,
  RunsTable,
  ToolCallsTable,
  WakesTable,
} from "./schema.js";
import type { CompanySettings, DomainEvent } from "@cadre/model";
import type {
  ActivityRow,
  AgentSessionRow,
  AgentRow,
  BudgetPeriod,
  BudgetRow,
  ModelCallRow,
  RunCaps,
  ApiTokenRow,
  ApprovalEventRow,
  ApprovalRow,
  CompanyRow,
  ConnectorRow,
  FeedRow,
  RunEventRow,
  RunProcessRow,
  RunRow,
  ToolCallRow,
  WakeRow,
} from "./types.js";

export function toCompany(r: Selectable<CompaniesTable>, a: DialectAdapter): CompanyRow {
  return {
    id: r.id,
    name: r.name,
    goal: r.goal,
    settings: a.decodeJson(r.settings) as CompanySettings,
    createdAt: r.created_at,
  };
}

export function toConnector(r: Selectable<ConnectorsTable>, a: DialectAdapter): ConnectorRow {
  return {
    companyId: r.company_id,
    id: r.id,
    kind: r.kind,
    label: r.label,
    enabledModels: a.decodeJson(r.enabled_models) as string[],
    config: a.decodeJson(r.config) as Record<string, unknown>,
    modelFingerprints:
      r.model_fingerprints == null ? {} : (a.decodeJson(r.model_fingerprints) as Record<string, string>),
    createdAt: r.created_at,
  };
}

export function toAgent(r: Selectable<AgentsTable>, a: DialectAdapter): AgentRow {
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    role: r.role,
    description: r.description,
    department: r.department,
    connectorId: r.connector_id,
    model: r.model,
    reportsTo: r.reports_to,
    isCeo: a.decodeBool(r.is_ceo),
    status: r.status,
    via: r.via,
    createdAt: r.created_at,
  };
}

export function toApproval(r: Selectable<ApprovalsTable>): ApprovalRow {
  return {
    id: r.id,
    companyId: r.company_id,
    type: r.type,
    title: r.title,
    payload: r.payload,
    status: r.status,
    filedByAgentId: r.filed_by_agent_id,
    via: r.via,
    decisionNote: r.decision_note,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
  };
}

export function toApprovalEvent(r: Selectable<ApprovalEventsTable>): ApprovalEventRow {
  return {
    id: r.id,
    approvalId: r.approval_id,
    fromStatus: r.from_status,
    toStatus: r.to_status,
    note: r.note,
    actor: r.actor,
    at: r.at,
  };
}

export function toRun(r: Selectable<RunsTable>): RunRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    trigger: r.trigger,
    mode: r.mode,
    profile: r.profile,
    cue: r.cue,
    status: r.status,
    usage: {
      input: r.input_tokens,
      output: r.output_tokens,
      cacheRead: r.cache_read_tokens,
      cacheWrite: r.cache_write_tokens,
    },
    error: r.error,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    stopReason: r.stop_reason ?? null,
  };
}

export function toBudget(r: Selectable<BudgetsTable>, a: DialectAdapter): BudgetRow {
  return {
    companyId: r.company_id,
    agentId: r.agent_id === "" ? null : r.agent_id,
    limitUsd: r.limit_usd === null ? null : Number(r.limit_usd),
    limitTokens: r.limit_tokens === null ? null : Number(r.limit_tokens),
    period: r.period as BudgetPeriod,
    warnAt: Number(r.warn_at),
    runCaps: r.run_caps === null ? null : (a.decodeJson(r.run_caps) as RunCaps),
    updatedAt: r.updated_at,
  };
}

export function toModelCall(r: Selectable<ModelCallsTable>): ModelCallRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    runId: r.run_id,
    status: r.status,
    model: r.model,
    servedModel: r.served_model,
    usage: {
      input: Number(r.input_tokens),
      output: Number(r.output_tokens),
      cacheRead: Number(r.cache_read_tokens),
      cacheWrite: Number(r.cache_write_tokens),
    },
    costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
    reservedTokens: Number(r.reserved_tokens),
    reservedUsd: r.reserved_usd === null ? null : Number(r.reserved_usd),
    createdAt: r.created_at,
    settledAt: r.settled_at,
  };
}

export function toRunEvent(r: Selectable<RunEventsTable>, a: DialectAdapter): RunEventRow {
  return {
    id: r.id,
    runId: r.run_id,
    companyId: r.company_id,
    seq: r.seq,
    type: r.type,
    data: a.decodeJson(r.data),
    at: r.at,
  };
}

/** Read back as written: insertActivities let only domain events in (a read never throws on one). */
export function toActivity(r: Selectable<ActivityTable>, a: DialectAdapter): ActivityRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    runId: r.run_id,
    at: r.at,
    ...({ type: r.type, data: a.decodeJson(r.data) } as DomainEvent),
  };
}

/** The hash is left behind on purpose: nothing above the store ever reads it back. */
export function toApiToken(r: Selectable<ApiTokensTable>): ApiTokenRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    runId: r.run_id,
    label: r.label,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}

/** A company_feed row joined with the run event or activity row it points to (see listFeed). */
export interface FeedJoinRow {
  feed_id: number;
  company_id: string;
  r_id: number | null;
  r_run_id: string | null;
  r_seq: number | null;
  r_type: string | null;
  r_data: unknown;
  r_at: string | null;
  a_id: number | null;
  a_agent_id: string | null;
  a_run_id: string | null;
  a_type: string | null;
  a_data: unknown;
  a_at: string | null;
}

export function toFeed(r: FeedJoinRow, a: DialectAdapter): FeedRow {
  if (r.r_id !== null) {
    const event = toRunEvent(
      {
        id: r.r_id,
        run_id: r.r_run_id as string,
        company_id: r.company_id,
        seq: r.r_seq as number,
        type: r.r_type as string,
        data: r.r_data,
        at: r.r_at as string,
      },
      a,
    );
    return { id: r.feed_id, companyId: r.company_id, kind: "agent_event", event };
  }
  const activity = toActivity(
    {
      id: r.a_id as number,
      company_id: r.company_id,
      agent_id: r.a_agent_id,
      run_id: r.a_run_id,
      type: r.a_type as string,
      data: r.a_data,
      at: r.a_at as string,
    },
    a,
  );
  return { id: r.feed_id, companyId: r.company_id, kind: "domain_event", activity };
}

export function toWake(r: Selectable<WakesTable>): WakeRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    status: r.status,
    runId: r.run_id,
    attempts: r.attempts,
    workerId: r.worker_id,
    leaseUntil: r.lease_until,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    owner:
      r.owner_host !== null && r.owner_pid !== null
        ? { host: r.owner_host, pid: Number(r.owner_pid), started: r.owner_started ?? "" }
        : null,
  };
}

export function toRunProcess(r: Selectable<RunProcessesTable>): RunProcessRow {
  return { runId: r.run_id, pid: Number(r.pid), host: r.host, started: r.started, createdAt: r.created_at };
}

export function toToolCall(r: Selectable<ToolCallsTable>, a: DialectAdapter): ToolCallRow {
  return {
    runId: r.run_id,
    toolCallId: r.tool_call_id,
    tool: r.tool,
    inputHash: r.input_hash,
    result: a.decodeJson(r.result),
    createdAt: r.created_at,
  };
}

export function toAgentSession(r: Selectable<AgentSessionsTable>, a: DialectAdapter): AgentSessionRow {
  const json = (v: unknown): unknown => (v === null || v === undefined ? null : a.decodeJson(v));
  return {
    agentId: r.agent_id,
    companyId: r.company_id,
    harness: r.harness as AgentSessionRow["harness"],
    connectorId: r.connector_id,
    model: r.model,
    sessionId: r.session_id,
    sessionFile: r.session_file,
    reserveTokens: r.reserve_tokens === null ? null : Number(r.reserve_tokens),
    tokensInWindow: r.tokens_in_window === null ? null : Number(r.tokens_in_window),
    rolledOver: a.decodeBool(r.rolled_over),
    bootstrap: json(r.bootstrap),
    digest: (a.decodeJson(r.digest) as unknown[]) ?? [],
    prompt: json(r.prompt),
    vendorTotals: json(r.vendor_totals),
    runningRunId: r.running_run_id,
    lastRunId: r.last_run_id,
    previousSessionId: r.previous_session_id,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}
