// Which store writes the audit log records, and how each reads in it. Every StoreQueries method is
// classified here: a read, an audited write (with what it says), or a write that is not audited
// and why. The type makes a new write method a compile error until it is classified, and
// audit-catalog.test.ts fails for a method of the store that is in neither list.
import type {
  NewActivity,
  AgentRow,
  ApprovalRow,
  CompanyRow,
  NewAgent,
  NewApiToken,
  NewApproval,
  NewBudget,
  NewCompany,
  NewConnector,
  NewOperator,
  NewRun,
  NewSchedule,
  NewTask,
  NewTaskComment,
  NewTaskFile,
  OperatorRow,
  StoreQueries,
  TaskPatch,
  TaskFileRow,
  TaskRow,
} from "./types.js";

/** Reads: they write nothing. */
export const READ_METHODS = [
  "getCompany",
  "listCompanies",
  "getCompanySnapshot",
  "getCompanySummary",
  "getConnector",
  "listConnectors",
  "getAgent",
  "listAgents",
  "listTeam",
  "getApproval",
  "listApprovals",
  "listApprovalEvents",
  "getRun",
  "listRuns",
  "listRunEvents",
  "listCompanyEvents",
  "listActivity",
  "listFeed",
  "findApiToken",
  "findApiTokenWithAgent",
  "listApiTokens",
  "listRunProcesses",
  "getToolCall",
  "getTask",
  "listTasks",
  "listTasksBlockedBy",
  "listTaskComments",
  "listTaskFiles",
  "getTaskFile",
  "listWakeRequests",
  "getSchedule",
  "listSchedules",
  "getAgentSession",
  "listAgentSessions",
  "getBudget",
  "listBudgets",
  "listModelCalls",
  "lockSpend",
  "spendOf",
  "getWake",
  "listExpiredWakes",
  "listRunningWakes",
  "listOperators",
  "findOperatorByHash",
  "listAudit",
  "getRunOwner",
] as const satisfies readonly (keyof StoreQueries)[];

type ReadMethod = (typeof READ_METHODS)[number];
export type WriteMethod = Exclude<keyof StoreQueries, ReadMethod>;

/** What one audited write says: the company, the action, the record written and the change. */
export interface AuditEntry {
  companyId: string | null;
  action: string;
  target: string;
  summary: string;
}

export type AuditRule =
  | { audited: false; why: string }
  | {
      audited: true;
      /** Read before the write, in its transaction (the "before" of the summary). */
      before?: (q: StoreQueries, args: any) => Promise<unknown>;
      /** Null: the write wrote nothing (e.g. a decision that lost the race), so nothing is recorded. */
      describe: (args: any, result: any, before: any) => AuditEntry | null;
    };

const notAudited = (why: string): AuditRule => ({ audited: false, why });

const RUN_RECORD = notAudited("the run's own record (its events, usage and end), kept with the run");
const WAKE_LEASE = notAudited("the wake queue's lease bookkeeping between workers");
const LEDGER = notAudited("the spend ledger, kept per model call of a run");
const RUN_OWNER = notAudited(
  "the due-work loop's ownership lease between processes (who runs a company's due work)",
);
const DERIVED = notAudited("decided in code from an audited change, recorded with that change's activity");

const changed = (fields: Record<string, [unknown, unknown]>): string =>
  Object.entries(fields)
    .filter(([, [a, b]]) => a !== b)
    .map(([k, [a, b]]) => `${k}: ${String(a)} → ${String(b)}`)
    .join(", ") || "no change";

const short = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const AUDIT_RULES: { [K in WriteMethod]: AuditRule } = {
  claimRunOwner: RUN_OWNER,
  renewRunOwner: RUN_OWNER,
  releaseRunOwner: RUN_OWNER,
  insertCompany: {
    audited: true,
    describe: ([c]: [NewCompany]) => ({
      companyId: c.id,
      action: "company.created",
      target: `company ${c.id}`,
      summary: `created "${c.name}"`,
    }),
  },
  updateCompanySettings: {
    audited: true,
    before: (q, [id]) => q.getCompany(id as string),
    describe: ([id, settings]: [string, Record<string, unknown>], _r, before: CompanyRow | undefined) => {
      const was = (before?.settings ?? {}) as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(was), ...Object.keys(settings)])];
      return {
        companyId: id,
        action: "company.settings_changed",
        target: `company ${id}`,
        summary: changed(
          Object.fromEntries(keys.map((k) => [k, [JSON.stringify(was[k]), JSON.stringify(settings[k])]])),
        ),
      };
    },
  },
  insertConnector: {
    audited: true,
    describe: ([c]: [NewConnector]) => ({
      companyId: c.companyId,
      action: "connector.added",
      target: `connector ${c.id}`,
      summary: `added ${c.kind} connector "${c.id}" (models: ${c.enabledModels.join(", ") || "none"})`,
    }),
  },
  removeConnector: {
    audited: true,
    describe: ([companyId, id]: [string, string], removed: boolean) =>
      removed
        ? { companyId, action: "connector.removed", target: `connector ${id}`, summary: `removed "${id}"` }
        : null,
  },
  pinModelFingerprints: {
    audited: true,
    describe: ([companyId, id, fingerprints]: [string, string, Record<string, string>], pinned: boolean) =>
      pinned
        ? {
            companyId,
            action: "connector.models_pinned",
            target: `connector ${id}`,
            summary: `kept what the endpoint serves for ${Object.keys(fingerprints).join(", ") || "no model"}`,
          }
        : null,
  },
  insertAgent: {
    audited: true,
    describe: ([a]: [NewAgent]) => ({
      companyId: a.companyId,
      action: "agent.hired",
      target: `agent ${a.id}`,
      summary: `hired ${a.name} (${a.role}) on ${a.connectorId}/${a.model} via ${a.via}`,
    }),
  },
  setAgentStatus: {
    audited: true,
    before: (q, [id]) => q.getAgent(id as string),
    describe: ([id, status]: [string, string], _r, before: AgentRow | undefined) => ({
      companyId: before?.companyId ?? null,
      action: "agent.status_changed",
      target: `agent ${id}`,
      summary: `${before?.name ?? id}: status ${before?.status ?? "?"} → ${status}`,
    }),
  },
  setAgentModel: {
    audited: true,
    before: (q, [id]) => q.getAgent(id as string),
    describe: ([id, model, connectorId]: [string, string, string?], _r, before: AgentRow | undefined) => ({
      companyId: before?.companyId ?? null,
      action: "agent.model_changed",
      target: `agent ${id}`,
      summary: `${before?.name ?? id}: ${before ? `${before.connectorId}/${before.model}` : "?"} → ${connectorId ?? before?.connectorId ?? "?"}/${model}`,
    }),
  },
  insertApproval: {
    audited: true,
    describe: ([a]: [NewApproval]) => ({
      companyId: a.companyId,
      action: "approval.filed",
      target: `approval ${a.id}`,
      summary: `filed ${a.type} "${short(a.title)}"`,
    }),
  },
  decideApproval: {
    audited: true,
    describe: ([id, status, note]: [string, string, string | null], decided: ApprovalRow | undefined) =>
      decided
        ? {
            companyId: decided.companyId,
            action: "approval.decided",
            target: `approval ${id}`,
            summary: `"${short(decided.title)}": pending → ${status}${note ? ` (note: ${short(note)})` : ""}`,
          }
        : null,
  },
  insertRun: {
    audited: true,
    before: (q, [r]) => q.getAgent((r as NewRun).agentId),
    describe: ([r]: [NewRun], _run, agent: AgentRow | undefined) => ({
      companyId: r.companyId,
      action: "run.started",
      target: `run ${r.id}`,
      summary: `woke ${agent?.name ?? r.agentId} (${r.trigger})`,
    }),
  },
  finishRun: RUN_RECORD,
  setRunUsage: RUN_RECORD,
  addEndedRunUsage: RUN_RECORD,
  appendRunEvents: RUN_RECORD,
  // The feed records domain events whose writes are audited where they are made; a message of the
  // operator's thread is a write in its own right (by the operator, or the CEO replying).
  insertActivity: {
    audited: true,
    describe: ([a]: [NewActivity]) =>
      a.type === "message.posted"
        ? {
            companyId: a.companyId,
            action: "message.posted",
            target: `company ${a.companyId} thread`,
            summary: `wrote "${short(a.data.text)}"`,
          }
        : a.type === "run.stopped"
          ? {
              companyId: a.companyId,
              action: "run.stopped",
              target: `run ${a.runId ?? "?"}`,
              summary: "stopped: running → cancelled",
            }
          : null,
  },
  insertActivities: notAudited("the company's activity feed: the record of domain events itself"),
  insertApiToken: {
    audited: true,
    describe: ([t]: [NewApiToken]) => ({
      companyId: t.companyId,
      action: "key.minted",
      target: `key ${t.id}`,
      summary: `minted a key "${t.label}" for agent ${t.agentId}${t.runId ? ` (run ${t.runId})` : ""}`,
    }),
  },
  revokeApiTokens: {
    audited: true,
    before: async (q, [match]) => {
      const m = match as Record<string, string>;
      if (m["agentId"]) return (await q.getAgent(m["agentId"]))?.companyId;
      if (m["runId"]) return (await q.getRun(m["runId"]))?.companyId;
      return undefined;
    },
    describe: ([match]: [Record<string, string>], n: number, companyId: string | undefined) =>
      n > 0
        ? {
            companyId: companyId ?? null,
            action: "key.revoked",
            target:
              "id" in match
                ? `key ${match["id"]}`
                : "agentId" in match
                  ? `agent ${match["agentId"]}`
                  : `run ${match["runId"]}`,
            summary: `revoked ${n} key(s)`,
          }
        : null,
  },
  insertRunProcess: RUN_RECORD,
  deleteRunProcess: RUN_RECORD,
  insertToolCall: notAudited(
    "a tool call's result kept so the same call is never made twice; the call's own writes are audited",
  ),
  insertTask: {
    audited: true,
    describe: ([t]: [NewTask]) => ({
      companyId: t.companyId,
      action: "task.created",
      target: `task ${t.id}`,
      summary: `created "${short(t.title)}"${t.assigneeAgentId ? ` for ${t.assigneeAgentId}` : ""}`,
    }),
  },
  updateTask: {
    audited: true,
    before: (q, [id]) => q.getTask(id as string),
    describe: ([id, patch]: [string, TaskPatch], after: TaskRow, before: TaskRow | undefined) => ({
      companyId: after.companyId,
      action: "task.updated",
      target: `task ${id}`,
      summary: changed(
        Object.fromEntries(
          (Object.keys(patch) as (keyof TaskPatch)[]).map((k) => [
            k,
            [before?.[k] ?? null, after[k] ?? null],
          ]),
        ),
      ),
    }),
  },
  checkoutTask: notAudited("a run's hold on the task while it works it, released when it ends"),
  releaseTaskCheckouts: notAudited("a run's hold on the task while it works it, released when it ends"),
  insertTaskComment: {
    audited: true,
    describe: ([c]: [NewTaskComment]) => ({
      companyId: c.companyId,
      action: "task.commented",
      target: `task ${c.taskId}`,
      summary: `"${short(c.body)}"`,
    }),
  },
  attachTaskFile: {
    audited: true,
    describe: ([f]: [NewTaskFile], after: TaskFileRow) => ({
      companyId: f.companyId,
      action: "task.file_attached",
      target: `task ${f.taskId}`,
      summary: `attached "${short(f.name)}" (${after.size} bytes, sha256 ${after.sha256.slice(0, 12)})`,
    }),
  },
  insertWakeRequest: DERIVED,
  settleWakeRequest: DERIVED,
  returnWakeRequest: DERIVED,
  putSchedule: {
    audited: true,
    describe: ([s]: [NewSchedule]) => ({
      companyId: s.companyId,
      action: "schedule.set",
      target: `agent ${s.agentId}`,
      summary: s.cron !== null ? `cron "${s.cron}" (${s.timezone})` : `every ${s.everySeconds}s`,
    }),
  },
  deleteSchedule: {
    audited: true,
    before: (q, [agentId]) => q.getSchedule(agentId as string),
    describe: ([agentId]: [string], removed: boolean, before: { companyId: string } | undefined) =>
      removed
        ? {
            companyId: before?.companyId ?? null,
            action: "schedule.removed",
            target: `agent ${agentId}`,
            summary: "schedule removed",
          }
        : null,
  },
  advanceSchedule: notAudited("a schedule's tick taken; the run it starts is audited"),
  putAgentSession: notAudited("an agent's native session bookkeeping across wakes"),
  deleteAgentSession: {
    audited: true,
    before: (q, [agentId]) => q.getAgentSession(agentId as string),
    describe: ([agentId]: [string], removed: boolean, before: { companyId: string } | undefined) =>
      removed
        ? {
            companyId: before?.companyId ?? null,
            action: "session.reset",
            target: `agent ${agentId}`,
            summary: "session reset: the next wake starts fresh",
          }
        : null,
  },
  putBudget: {
    audited: true,
    before: (q, [b]) => q.getBudget((b as NewBudget).companyId, (b as NewBudget).agentId),
    describe: ([b]: [NewBudget], _r, before: NewBudget | undefined) => ({
      companyId: b.companyId,
      action: "budget.set",
      target: b.agentId ? `agent ${b.agentId}` : `company ${b.companyId}`,
      summary: changed({
        usd: [before?.limitUsd ?? null, b.limitUsd],
        tokens: [before?.limitTokens ?? null, b.limitTokens],
        period: [before?.period ?? null, b.period],
        warnAt: [before?.warnAt ?? null, b.warnAt],
        runCaps: [JSON.stringify(before?.runCaps ?? null), JSON.stringify(b.runCaps)],
      }),
    }),
  },
  reserveModelCall: LEDGER,
  settleModelCall: LEDGER,
  releaseModelCalls: LEDGER,
  claimWake: WAKE_LEASE,
  renewWake: WAKE_LEASE,
  setWakeRun: WAKE_LEASE,
  releaseWake: WAKE_LEASE,
  expireWake: WAKE_LEASE,
  takeOverWake: WAKE_LEASE,
  insertOperator: {
    audited: true,
    describe: ([o]: [NewOperator]) => ({
      companyId: null,
      action: "operator.added",
      target: `operator ${o.name}`,
      summary: `added ${o.name} as ${o.role}${o.companyIds ? ` of ${o.companyIds.join(", ")}` : " of every company"}`,
    }),
  },
  revokeOperator: {
    audited: true,
    describe: ([ref]: [string], revoked: boolean) =>
      revoked
        ? {
            companyId: null,
            action: "operator.revoked",
            target: `operator ${ref}`,
            summary: `revoked ${ref}`,
          }
        : null,
  },
};

export type { OperatorRow };
