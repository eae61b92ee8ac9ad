// Every StoreQueries method, written once against Kysely's builder. The same class serves the store
// (over Kysely) and a transaction (over Kysely's Transaction), so the two can never drift.
import type { DomainEventType } from "@cadre/model";
import { type Kysely, sql, type UpdateResult } from "kysely";
import { type DialectAdapter, transact } from "./dialect.js";
import { paged, pagedSql } from "./page.js";
import { ConflictError, StoreError, toStoreError } from "./errors.js";
import { refuseUnlessDomainEvents } from "./activity-check.js";
import { type FeedWrites, PendingFeedWrites } from "./feed-signal.js";
import {
  type FeedJoinRow,
  toActivity,
  toAgent,
  toAgentSession,
  toApiToken,
  toApproval,
  toApprovalEvent,
  toCompany,
  toConnector,
  toFeed,
  toRun,
  toRunEvent,
  toRunProcess,
  toToolCall,
} from "./rows.js";
import type {
  ActivityTable,
  AgentsTable,
  ApiTokensTable,
  ApprovalsTable,
  CompaniesTable,
  ConnectorsTable,
  Database,
  RunEventsTable,
} from "./schema.js";
import type { Selectable } from "kysely";
import type {
  AgentStatus,
  ApprovalStatus,
  ApprovalType,
  CompanySettings,
  RunStatus,
  Usage,
  TaskStatus,
} from "@cadre/model";
import type {
  ActivityRow,
  AgentRow,
  AgentSessionRow,
  ApiTokenRow,
  ApprovalEventRow,
  ApprovalRow,
  BudgetRow,
  CompanyRow,
  ConnectorRow,
  FeedRow,
  ModelCallRow,
  ModelCallSettlement,
  NewActivity,
  NewAgent,
  NewAgentSession,
  NewApiToken,
  NewApproval,
  NewBudget,
  NewCompany,
  NewConnector,
  NewModelCall,
  NewRun,
  NewRunEvent,
  NewRunProcess,
  NewSchedule,
  NewTask,
  NewTaskComment,
  NewToolCall,
  NewWakeRequest,
  RunEventRow,
  ProcessOwner,
  RunOwnerRow,
  RunProcessRow,
  RunRow,
  Spend,
  SpendFilter,
  ScheduleRow,
  StoreQueries,
  TaskCommentRow,
  NewTaskFile,
  TaskFileRow,
  TaskPatch,
  TaskRow,
  ToolCallRow,
  WakeClaim,
  WakeClaimResult,
  WakeRow,
  WakeRequestRow,
  WakeRequestStatus,
  WakeStatus,
  Page,
} from "./types.js";
import * as wakes from "./wake-queries.js";
import {
  type CompanySnapshot,
  type CompanySummary,
  readSnapshot,
  readSummary,
  type SummaryQuery,
} from "./snapshot.js";
import { run } from "./prepared.js";
import { readTeam, type TeamQuery, type TeamSlice } from "./team-queries.js";
import * as budgets from "./budget-queries.js";
import * as tasks from "./task-queries.js";
import * as taskFiles from "./task-file-queries.js";
import * as owners from "./run-owner-queries.js";
import * as people from "./people-queries.js";
import type { AuditFilter, AuditRow, NewOperator, OperatorRow } from "./types.js";
import { agentNameKey } from "./name-key.js";

const now = (): string => new Date().toISOString();

const INSERT_AGENT = `insert into agents (id, company_id, name, name_key, role, description, department,
  connector_id, model, reports_to, is_ceo, status, via, created_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`;

/** Update methods address one existing row; touching none means the caller passed a wrong id. */
function expectUpdated(result: UpdateResult, subject: string): void {
  if (result.numUpdatedRows === 0n) throw new StoreError(`${subject} does not exist`);
}

/** Events per insert statement (6 parameters each; well under either dialect's parameter limit). */
const EVENT_CHUNK = 500;

/** The feed of a query object that reports nowhere: a transaction of `atomic`, whose caller reports. */
const UNHEARD: FeedWrites = { written: () => {} };

export class KyselyQueries implements StoreQueries {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly adapter: DialectAdapter,
    /** Told the companies whose feed a write of these queries appended to (see feed-signal.ts). */
    protected readonly feed: FeedWrites = UNHEARD,
  ) {}

  /** Runs `op`, turning whatever it throws into a StoreError about `subject`. */
  protected guard<T>(subject: string, op: () => Promise<T>): Promise<T> {
    return op().catch((error: unknown) => {
      throw toStoreError(error, subject, this.adapter);
    });
  }

  /**
   * Runs `fn` atomically: inside the caller's transaction when there is one (reusing it, since
   * nested BEGINs are not portable), otherwise in a transaction of its own.
   */
  protected async atomic<T>(fn: (q: KyselyQueries) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    // Its feed writes are told once it commits (each attempt of a retried one starts afresh).
    let pending = new PendingFeedWrites();
    // The methods' own transactions need no more than read committed: each relies on its own
    // conditions, row locks and unique keys (e.g. decideApproval's `status = pending`).
    const result = await transact(
      this.db,
      this.adapter,
      (trx) => {
        pending = new PendingFeedWrites();
        return fn(new KyselyQueries(trx, this.adapter, pending));
      },
      "read committed",
    );
    pending.committed(this.feed);
    return result;
  }

  insertCompany(company: NewCompany): Promise<CompanyRow> {
    return this.guard(`company "${company.id}"`, async () => {
      const row = await this.db
        .insertInto("companies")
        .values({
          id: company.id,
          name: company.name,
          goal: company.goal,
          settings: this.adapter.encodeJson(company.settings),
          created_at: now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toCompany(row, this.adapter);
    });
  }

  getCompany(id: string): Promise<CompanyRow | undefined> {
    return this.guard(`company "${id}"`, async () => {
      const [row] = await run<Selectable<CompaniesTable>>(
        this.db,
        this.adapter,
        `select * from companies where id = ?`,
        [id],
      );
      return row && toCompany(row, this.adapter);
    });
  }

  listCompanies(page?: Page): Promise<CompanyRow[]> {
    return this.guard("companies", async () => {
      const rows = await paged(this.db.selectFrom("companies").selectAll(), "created_at", page).execute();
      return rows.map((r) => toCompany(r, this.adapter));
    });
  }

  getCompanySnapshot(companyId: string): Promise<CompanySnapshot | undefined> {
    return this.guard(`company "${companyId}"`, async () => {
      return readSnapshot(this.db, this.adapter, companyId);
    });
  }

  getCompanySummary(companyId: string, query: SummaryQuery = {}): Promise<CompanySummary | undefined> {
    return this.guard(`company "${companyId}"`, async () => {
      return readSummary(this.db, this.adapter, companyId, query);
    });
  }

  updateCompanySettings(id: string, settings: CompanySettings): Promise<void> {
    const subject = `company "${id}"`;
    return this.guard(subject, async () => {
      const result = await this.db
        .updateTable("companies")
        .set({ settings: this.adapter.encodeJson(settings) })
        .where("id", "=", id)
        .executeTakeFirst();
      expectUpdated(result, subject);
    });
  }

  insertConnector(connector: NewConnector): Promise<ConnectorRow> {
    return this.guard(`connector "${connector.id}" of company "${connector.companyId}"`, async () => {
      const values = {
        kind: connector.kind,
        label: connector.label,
        enabled_models: this.adapter.encodeJson(connector.enabledModels),
        config: this.adapter.encodeJson(connector.config),
        model_fingerprints: this.adapter.encodeJson(connector.modelFingerprints ?? {}),
        created_at: now(),
      };
      // A removed connector of the same id keeps its row (its agents' records name it): reuse it.
      const revived = await this.db
        .updateTable("connectors")
        .set({ ...values, removed_at: null })
        .where("company_id", "=", connector.companyId)
        .where("id", "=", connector.id)
        .where("removed_at", "is not", null)
        .returningAll()
        .executeTakeFirst();
      if (revived) return toConnector(revived, this.adapter);
      const row = await this.db
        .insertInto("connectors")
        .values({ company_id: connector.companyId, id: connector.id, ...values })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toConnector(row, this.adapter);
    });
  }

  removeConnector(companyId: string, id: string): Promise<boolean> {
    return this.guard(`connector "${id}" of company "${companyId}"`, async () => {
      const result = await this.db
        .updateTable("connectors")
        .set({ removed_at: now() })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("removed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  pinModelFingerprints(
    companyId: string,
    id: string,
    fingerprints: Record<string, string>,
  ): Promise<boolean> {
    return this.guard(`connector "${id}" of company "${companyId}"`, async () => {
      const row = await this.db
        .selectFrom("connectors")
        .select("model_fingerprints")
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("removed_at", "is", null)
        .executeTakeFirst();
      if (!row) return false;
      const kept =
        row.model_fingerprints == null
          ? {}
          : (this.adapter.decodeJson(row.model_fingerprints) as Record<string, string>);
      await this.db
        .updateTable("connectors")
        .set({ model_fingerprints: this.adapter.encodeJson({ ...kept, ...fingerprints }) })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("removed_at", "is", null)
        .execute();
      return true;
    });
  }

  getConnector(companyId: string, id: string): Promise<ConnectorRow | undefined> {
    return this.guard(`connector "${id}" of company "${companyId}"`, async () => {
      const row = await this.db
        .selectFrom("connectors")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("removed_at", "is", null)
        .executeTakeFirst();
      return row && toConnector(row, this.adapter);
    });
  }

  listConnectors(companyId: string, page?: Page): Promise<ConnectorRow[]> {
    return this.guard(`connectors of company "${companyId}"`, async () => {
      const p = pagedSql("created_at", page);
      const rows = await run<Selectable<ConnectorsTable>>(
        this.db,
        this.adapter,
        `select * from connectors where company_id = ? and removed_at is null${p.where}${p.tail}`,
        [companyId, ...p.params, ...p.tailParams],
      );
      return rows.map((r) => toConnector(r, this.adapter));
    });
  }

  insertAgent(agent: NewAgent): Promise<AgentRow> {
    return this.guard(`agent "${agent.id}"`, async () => {
      const [row] = await run<Selectable<AgentsTable>>(this.db, this.adapter, INSERT_AGENT, [
        agent.id,
        agent.companyId,
        agent.name,
        agentNameKey(agent.name),
        agent.role,
        agent.description,
        agent.department,
        agent.connectorId,
        agent.model,
        agent.reportsTo,
        this.adapter.encodeBool(agent.isCeo),
        agent.status,
        agent.via,
        now(),
      ]);
      return toAgent(row as Selectable<AgentsTable>, this.adapter);
    });
  }

  getAgent(id: string): Promise<AgentRow | undefined> {
    return this.guard(`agent "${id}"`, async () => {
      const [row] = await run<Selectable<AgentsTable>>(
        this.db,
        this.adapter,
        `select * from agents where id = ?`,
        [id],
      );
      return row && toAgent(row, this.adapter);
    });
  }

  listAgents(companyId: string, filter: { status?: AgentStatus; page?: Page } = {}): Promise<AgentRow[]> {
    return this.guard(`agents of company "${companyId}"`, async () => {
      const page = pagedSql("created_at", filter.page);
      const status = filter.status === undefined ? "" : " and status = ?";
      const rows = await run<Selectable<AgentsTable>>(
        this.db,
        this.adapter,
        `select * from agents where company_id = ?${status}${page.where}${page.tail}`,
        [
          companyId,
          ...(filter.status === undefined ? [] : [filter.status]),
          ...page.params,
          ...page.tailParams,
        ],
      );
      return rows.map((r) => toAgent(r, this.adapter));
    });
  }

  listTeam(companyId: string, query: TeamQuery): Promise<TeamSlice> {
    return this.guard(`agents of company "${companyId}"`, () =>
      readTeam(this.db, this.adapter, companyId, query),
    );
  }

  setAgentStatus(id: string, status: AgentStatus): Promise<void> {
    const subject = `agent "${id}"`;
    return this.guard(subject, async () => {
      const result = await this.db
        .updateTable("agents")
        .set({ status })
        .where("id", "=", id)
        .executeTakeFirst();
      expectUpdated(result, subject);
    });
  }

  setAgentModel(id: string, model: string, connectorId?: string): Promise<void> {
    const subject = `agent "${id}"`;
    return this.guard(subject, async () => {
      const result = await this.db
        .updateTable("agents")
        .set(connectorId === undefined ? { model } : { model, connector_id: connectorId })
        .where("id", "=", id)
        .executeTakeFirst();
      expectUpdated(result, subject);
    });
  }

  insertApproval(approval: NewApproval, actor: string): Promise<ApprovalRow> {
    return this.guard(`approval "${approval.id}"`, () =>
      this.atomic(async (q) => {
        const at = now();
        const row = await q.db
          .insertInto("approvals")
          .values({
            id: approval.id,
            company_id: approval.companyId,
            type: approval.type,
            title: approval.title,
            payload: approval.payload,
            status: "pending",
            filed_by_agent_id: approval.filedByAgentId,
            via: approval.via,
            decision_note: null,
            created_at: at,
            decided_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await q.db
          .insertInto("approval_events")
          .values({
            approval_id: approval.id,
            from_status: null,
            to_status: "pending",
            note: null,
            actor,
            at,
          })
          .execute();
        return toApproval(row);
      }),
    );
  }

  getApproval(id: string): Promise<ApprovalRow | undefined> {
    return this.guard(`approval "${id}"`, async () => {
      const [row] = await run<Selectable<ApprovalsTable>>(
        this.db,
        this.adapter,
        `select * from approvals where id = ?`,
        [id],
      );
      return row && toApproval(row);
    });
  }

  listApprovals(
    companyId: string,
    filter: { status?: ApprovalStatus; type?: ApprovalType; page?: Page } = {},
  ): Promise<ApprovalRow[]> {
    return this.guard(`approvals of company "${companyId}"`, async () => {
      let query = this.db.selectFrom("approvals").selectAll().where("company_id", "=", companyId);
      if (filter.status !== undefined) query = query.where("status", "=", filter.status);
      if (filter.type !== undefined) query = query.where("type", "=", filter.type);
      const rows = await paged(query, "created_at", filter.page).execute();
      return rows.map(toApproval);
    });
  }

  decideApproval(
    id: string,
    status: Exclude<ApprovalStatus, "pending">,
    note: string | null,
    actor: string,
  ): Promise<ApprovalRow | undefined> {
    return this.guard(`approval "${id}"`, () =>
      this.atomic(async (q) => {
        const at = now();
        // The status condition makes the update itself the arbiter: of concurrent deciders, only
        // one sees a pending row (SQLite serialises writers; PostgreSQL re-checks after the row lock).
        // The update returns the decided row; on PostgreSQL the history row is written by the same
        // statement (a data-modifying CTE), on SQLite by a second one.
        if (q.adapter.name === "postgres") {
          const { rows } = await sql<Selectable<ApprovalsTable>>`with d as (
              update approvals set status = ${status}, decision_note = ${note}, decided_at = ${at}
              where id = ${id} and status = 'pending' returning *),
            e as (insert into approval_events (approval_id, from_status, to_status, note, actor, at)
              select id, 'pending', ${status}, ${note}, ${actor}, ${at} from d)
            select * from d`.execute(q.db);
          return rows[0] && toApproval(rows[0]);
        }
        const [row] = await run<Selectable<ApprovalsTable>>(
          q.db,
          q.adapter,
          `update approvals set status = ?, decision_note = ?, decided_at = ? where id = ? and status = 'pending' returning *`,
          [status, note, at, id],
        );
        if (!row) return undefined;
        await run(
          q.db,
          q.adapter,
          `insert into approval_events (approval_id, from_status, to_status, note, actor, at) values (?, 'pending', ?, ?, ?, ?)`,
          [id, status, note, actor, at],
        );
        return toApproval(row);
      }),
    );
  }

  listApprovalEvents(approvalId: string): Promise<ApprovalEventRow[]> {
    return this.guard(`history of approval "${approvalId}"`, async () => {
      const rows = await this.db
        .selectFrom("approval_events")
        .selectAll()
        .where("approval_id", "=", approvalId)
        .orderBy("id")
        .execute();
      return rows.map(toApprovalEvent);
    });
  }

  insertRun(run: NewRun): Promise<RunRow> {
    return this.guard(`run "${run.id}"`, async () => {
      const row = await this.db
        .insertInto("runs")
        .values({
          id: run.id,
          company_id: run.companyId,
          agent_id: run.agentId,
          trigger: run.trigger,
          mode: run.mode,
          profile: run.profile,
          cue: run.cue,
          status: "running",
          input_tokens: 0,
          output_tokens: 0,
          cache_read_tokens: 0,
          cache_write_tokens: 0,
          error: null,
          started_at: now(),
          ended_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRun(row);
    });
  }

  getRun(id: string): Promise<RunRow | undefined> {
    return this.guard(`run "${id}"`, async () => {
      const row = await this.db.selectFrom("runs").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toRun(row);
    });
  }

  listRuns(
    filter: { companyId?: string; agentId?: string; status?: RunStatus; page?: Page } = {},
  ): Promise<RunRow[]> {
    return this.guard("runs", async () => {
      let query = this.db.selectFrom("runs").selectAll();
      if (filter.companyId !== undefined) query = query.where("company_id", "=", filter.companyId);
      if (filter.agentId !== undefined) query = query.where("agent_id", "=", filter.agentId);
      if (filter.status !== undefined) query = query.where("status", "=", filter.status);
      const rows = await paged(query, "started_at", filter.page).execute();
      return rows.map(toRun);
    });
  }

  finishRun(
    id: string,
    end: {
      status: Exclude<RunStatus, "running">;
      usage: Usage;
      error: string | null;
      stopReason?: string | null;
    },
  ): Promise<void> {
    const subject = `run "${id}"`;
    return this.guard(subject, async () => {
      const result = await this.db
        .updateTable("runs")
        .set({
          status: end.status,
          input_tokens: end.usage.input,
          output_tokens: end.usage.output,
          cache_read_tokens: end.usage.cacheRead,
          cache_write_tokens: end.usage.cacheWrite,
          error: end.error,
          ended_at: now(),
          stop_reason: end.stopReason ?? null,
        })
        .where("id", "=", id)
        .executeTakeFirst();
      expectUpdated(result, subject);
    });
  }

  setRunUsage(id: string, usage: Usage): Promise<boolean> {
    return this.guard(`run "${id}"`, async () => {
      const result = await this.db
        .updateTable("runs")
        .set({
          input_tokens: usage.input,
          output_tokens: usage.output,
          cache_read_tokens: usage.cacheRead,
          cache_write_tokens: usage.cacheWrite,
        })
        .where("id", "=", id)
        .where("status", "=", "running")
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  addEndedRunUsage(id: string, usage: Usage): Promise<boolean> {
    return this.guard(`run "${id}"`, async () => {
      const result = await this.db
        .updateTable("runs")
        .set((eb) => ({
          input_tokens: eb("input_tokens", "+", usage.input),
          output_tokens: eb("output_tokens", "+", usage.output),
          cache_read_tokens: eb("cache_read_tokens", "+", usage.cacheRead),
          cache_write_tokens: eb("cache_write_tokens", "+", usage.cacheWrite),
        }))
        .where("id", "=", id)
        .where("status", "!=", "running")
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  appendRunEvents(events: NewRunEvent[]): Promise<RunEventRow[]> {
    if (events.length === 0) return Promise.resolve([]);
    return this.guard("run events", () =>
      this.atomic(async (q) => {
        const at = now();
        const rows: RunEventRow[] = [];
        await q.adapter.beforeFeedWrite?.(q.db, [...new Set(events.map((e) => e.companyId))]);
        // A batch is one statement (two in SQLite) per chunk, not two per event: a wake flushes its
        // events in batches, and on PostgreSQL every statement is a round trip. Ids are assigned in
        // list order (identity values are drawn row by row, in VALUES order; SQLite's rowids too).
        for (let from = 0; from < events.length; from += EVENT_CHUNK) {
          const chunk = events.slice(from, from + EVENT_CHUNK);
          const runs = [...new Set(chunk.map((e) => e.runId))];
          const subject = `event${chunk.length > 1 ? "s" : ""} ${chunk.map((e) => e.seq).join(", ")} of run${runs.length > 1 ? "s" : ""} ${runs.map((r) => `"${r}"`).join(", ")}`;
          const values = chunk.map((e) => [
            e.runId,
            e.companyId,
            e.seq,
            e.type,
            q.adapter.encodeJson(e.data),
            at,
          ]);
          const inserted = await q.guard(subject, async () => {
            if (q.adapter.name === "postgres") {
              // The events and their feed rows in one data-modifying statement.
              const tuples = values.map(
                ([runId, companyId, seq, type, data, eventAt]) =>
                  sql`(${runId}, ${companyId}, ${seq}, ${type}, ${data}::json, ${eventAt})`,
              );
              const { rows: out } = await sql<Selectable<RunEventsTable>>`with e as (
                  insert into run_events (run_id, company_id, seq, type, data, at)
                  values ${sql.join(tuples)} returning *),
                f as (insert into company_feed (company_id, run_event_id, activity_id)
                  select company_id, id, null from e order by id)
                select id, run_id, company_id, seq, type, data::text as data, at from e order by id`.execute(
                q.db,
              );
              return out;
            }
            const out = await run<Selectable<RunEventsTable>>(
              q.db,
              q.adapter,
              `insert into run_events (run_id, company_id, seq, type, data, at) values ${values.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")} returning *`,
              values.flat(),
            );
            out.sort((x, y) => x.id - y.id);
            await run(
              q.db,
              q.adapter,
              `insert into company_feed (company_id, run_event_id, activity_id) values ${out.map(() => "(?, ?, null)").join(", ")}`,
              out.flatMap((r) => [r.company_id, r.id]),
            );
            return out;
          });
          for (const row of inserted) rows.push(toRunEvent(row, q.adapter));
        }
        q.feed.written(events.map((e) => e.companyId));
        return rows;
      }),
    );
  }

  listRunEvents(runId: string, afterId?: number): Promise<RunEventRow[]> {
    return this.guard(`events of run "${runId}"`, async () => {
      let query = this.db.selectFrom("run_events").selectAll().where("run_id", "=", runId);
      if (afterId !== undefined) query = query.where("id", ">", afterId);
      const rows = await query.orderBy("id").execute();
      return rows.map((r) => toRunEvent(r, this.adapter));
    });
  }

  listCompanyEvents(companyId: string, afterId?: number, limit?: number): Promise<RunEventRow[]> {
    return this.guard(`events of company "${companyId}"`, async () => {
      let query = this.db
        .selectFrom("run_events")
        .selectAll()
        .where("company_id", "=", companyId)
        .orderBy("id");
      if (afterId !== undefined) query = query.where("id", ">", afterId);
      if (limit !== undefined) query = query.limit(limit);
      const rows = await query.execute();
      return rows.map((r) => toRunEvent(r, this.adapter));
    });
  }

  insertActivity(activity: NewActivity): Promise<ActivityRow> {
    return this.insertActivities([activity]).then((rows) => rows[0] as ActivityRow);
  }

  insertActivities(activities: NewActivity[]): Promise<ActivityRow[]> {
    if (activities.length === 0) return Promise.resolve([]);
    const first = activities[0] as NewActivity;
    const subject =
      activities.length === 1
        ? `activity "${first.type}" of company "${first.companyId}"`
        : `${activities.length} activities of company "${first.companyId}"`;
    return this.guard(subject, async () => {
      refuseUnlessDomainEvents(activities);
      return this.atomic(async (q) => {
        await q.adapter.beforeFeedWrite?.(q.db, [...new Set(activities.map((a) => a.companyId))]);
        const at = now();
        const values = activities.map((activity) => ({
          company_id: activity.companyId,
          agent_id: activity.agentId,
          run_id: activity.runId,
          type: activity.type,
          data: q.adapter.encodeJson(activity.data),
          at,
        }));
        if (q.adapter.name === "postgres") {
          // One statement: the activity rows and their feed rows (a data-modifying CTE), ids in
          // list order (identity values are drawn row by row, in the VALUES order).
          const tuples = values.map(
            (v) => sql`(${v.company_id}, ${v.agent_id}, ${v.run_id}, ${v.type}, ${v.data}::json, ${v.at})`,
          );
          const { rows } = await sql<Selectable<ActivityTable>>`with a as (
              insert into activity (company_id, agent_id, run_id, type, data, at)
              values ${sql.join(tuples)} returning *),
            f as (insert into company_feed (company_id, run_event_id, activity_id)
              select company_id, null, id from a order by id)
            select id, company_id, agent_id, run_id, type, data::text as data, at from a order by id`.execute(
            q.db,
          );
          q.feed.written(activities.map((a) => a.companyId));
          return rows.map((r) => toActivity(r, q.adapter));
        }
        // SQLite: one multi-row insert (rowids in VALUES order), then their feed rows in one more.
        const rows = await run<Selectable<ActivityTable>>(
          q.db,
          q.adapter,
          `insert into activity (company_id, agent_id, run_id, type, data, at) values ${values.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")} returning *`,
          values.flatMap((v) => [v.company_id, v.agent_id, v.run_id, v.type, v.data, v.at]),
        );
        rows.sort((x, y) => x.id - y.id);
        await run(
          q.db,
          q.adapter,
          `insert into company_feed (company_id, run_event_id, activity_id) values ${rows.map(() => "(?, null, ?)").join(", ")}`,
          rows.flatMap((r) => [r.company_id, r.id]),
        );
        q.feed.written(activities.map((a) => a.companyId));
        return rows.map((r) => toActivity(r, q.adapter));
      });
    });
  }

  listActivity(companyId: string, filter: { type?: DomainEventType } = {}): Promise<ActivityRow[]> {
    return this.guard(`activity of company "${companyId}"`, async () => {
      let query = this.db.selectFrom("activity").selectAll().where("company_id", "=", companyId);
      if (filter.type !== undefined) query = query.where("type", "=", filter.type);
      const rows = await query.orderBy("id").execute();
      return rows.map((r) => toActivity(r, this.adapter));
    });
  }

  listFeed(companyId: string, afterId?: number, limit?: number): Promise<FeedRow[]> {
    return this.guard(`feed of company "${companyId}"`, async () => {
      let query = this.db
        .selectFrom("company_feed as f")
        .leftJoin("run_events as r", "r.id", "f.run_event_id")
        .leftJoin("activity as a", "a.id", "f.activity_id")
        .select([
          "f.id as feed_id",
          "f.company_id as company_id",
          "r.id as r_id",
          "r.run_id as r_run_id",
          "r.seq as r_seq",
          "r.type as r_type",
          "r.data as r_data",
          "r.at as r_at",
          "a.id as a_id",
          "a.agent_id as a_agent_id",
          "a.run_id as a_run_id",
          "a.type as a_type",
          "a.data as a_data",
          "a.at as a_at",
        ])
        .where("f.company_id", "=", companyId)
        .orderBy("f.id");
      if (afterId !== undefined) query = query.where("f.id", ">", afterId);
      if (limit !== undefined) query = query.limit(limit);
      const rows = (await query.execute()) as FeedJoinRow[];
      return rows.map((r) => toFeed(r, this.adapter));
    });
  }

  insertApiToken(token: NewApiToken): Promise<ApiTokenRow> {
    return this.guard(`API token "${token.id}"`, async () => {
      const row = await this.db
        .insertInto("api_tokens")
        .values({
          id: token.id,
          hash: token.hash,
          company_id: token.companyId,
          agent_id: token.agentId,
          run_id: token.runId,
          label: token.label,
          created_at: now(),
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toApiToken(row);
    });
  }

  findApiToken(hash: string): Promise<ApiTokenRow | undefined> {
    return this.guard("API token", async () => {
      const [row] = await run<Selectable<ApiTokensTable>>(
        this.db,
        this.adapter,
        `select * from api_tokens where hash = ?`,
        [hash],
      );
      return row && toApiToken(row);
    });
  }

  findApiTokenWithAgent(hash: string): Promise<(ApiTokenRow & { agentStatus: AgentStatus }) | undefined> {
    return this.guard("API token", async () => {
      const [row] = await run<Selectable<ApiTokensTable> & { agent_status: AgentStatus }>(
        this.db,
        this.adapter,
        `select t.*, a.status as agent_status from api_tokens t join agents a on a.id = t.agent_id where t.hash = ?`,
        [hash],
      );
      return row && { ...toApiToken(row), agentStatus: row.agent_status };
    });
  }

  listApiTokens(agentId: string, page?: Page): Promise<ApiTokenRow[]> {
    return this.guard(`API tokens of agent "${agentId}"`, async () => {
      const query = this.db.selectFrom("api_tokens").selectAll().where("agent_id", "=", agentId);
      const rows = await paged(query, "created_at", page).execute();
      return rows.map(toApiToken);
    });
  }

  revokeApiTokens(match: { id: string } | { agentId: string } | { runId: string }): Promise<number> {
    const subject =
      "id" in match
        ? `API token "${match.id}"`
        : "agentId" in match
          ? `API tokens of agent "${match.agentId}"`
          : `API tokens of run "${match.runId}"`;
    return this.guard(subject, async () => {
      let query = this.db
        .updateTable("api_tokens")
        .set({ revoked_at: now() })
        .where("revoked_at", "is", null);
      query =
        "id" in match
          ? query.where("id", "=", match.id)
          : "agentId" in match
            ? query.where("agent_id", "=", match.agentId)
            : query.where("run_id", "=", match.runId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }

  insertRunProcess(process: NewRunProcess): Promise<RunProcessRow> {
    return this.guard(`process ${process.pid} of run "${process.runId}"`, async () => {
      const row = await this.db
        .insertInto("run_processes")
        .values({
          run_id: process.runId,
          pid: process.pid,
          host: process.host,
          started: process.started,
          created_at: now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRunProcess(row);
    });
  }

  deleteRunProcess(runId: string, pid: number): Promise<boolean> {
    return this.guard(`process ${pid} of run "${runId}"`, async () => {
      const result = await this.db
        .deleteFrom("run_processes")
        .where("run_id", "=", runId)
        .where("pid", "=", pid)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    });
  }

  listRunProcesses(runId: string): Promise<RunProcessRow[]> {
    return this.guard(`processes of run "${runId}"`, async () => {
      const rows = await this.db
        .selectFrom("run_processes")
        .selectAll()
        .where("run_id", "=", runId)
        .orderBy("created_at")
        .orderBy("pid")
        .execute();
      return rows.map(toRunProcess);
    });
  }

  insertToolCall(call: NewToolCall): Promise<ToolCallRow> {
    return this.guard(`tool call "${call.toolCallId}" of run "${call.runId}"`, async () => {
      const row = await this.db
        .insertInto("tool_calls")
        .values({
          run_id: call.runId,
          tool_call_id: call.toolCallId,
          tool: call.tool,
          input_hash: call.inputHash,
          result: this.adapter.encodeJson(call.result),
          created_at: now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toToolCall(row, this.adapter);
    });
  }

  getToolCall(runId: string, toolCallId: string): Promise<ToolCallRow | undefined> {
    return this.guard(`tool call "${toolCallId}" of run "${runId}"`, async () => {
      const row = await this.db
        .selectFrom("tool_calls")
        .selectAll()
        .where("run_id", "=", runId)
        .where("tool_call_id", "=", toolCallId)
        .executeTakeFirst();
      return row && toToolCall(row, this.adapter);
    });
  }

  getAgentSession(agentId: string): Promise<AgentSessionRow | undefined> {
    return this.guard(`session of agent "${agentId}"`, async () => {
      const row = await this.db
        .selectFrom("agent_sessions")
        .selectAll()
        .where("agent_id", "=", agentId)
        .executeTakeFirst();
      return row && toAgentSession(row, this.adapter);
    });
  }

  putAgentSession(session: NewAgentSession): Promise<AgentSessionRow> {
    return this.guard(`session of agent "${session.agentId}"`, async () => {
      const a = this.adapter;
      const json = (v: unknown): string | null => (v === null || v === undefined ? null : a.encodeJson(v));
      const at = now();
      const values = {
        company_id: session.companyId,
        harness: session.harness,
        connector_id: session.connectorId,
        model: session.model,
        session_id: session.sessionId,
        session_file: session.sessionFile,
        reserve_tokens: session.reserveTokens,
        tokens_in_window: session.tokensInWindow,
        rolled_over: a.encodeBool(session.rolledOver),
        bootstrap: json(session.bootstrap),
        digest: a.encodeJson(session.digest),
        prompt: json(session.prompt),
        vendor_totals: json(session.vendorTotals),
        running_run_id: session.runningRunId,
        last_run_id: session.lastRunId,
        previous_session_id: session.previousSessionId,
        last_used_at: at,
      };
      const row = await this.db
        .insertInto("agent_sessions")
        .values({ agent_id: session.agentId, created_at: at, ...values })
        .onConflict((oc) => oc.column("agent_id").doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAgentSession(row, a);
    });
  }

  deleteAgentSession(agentId: string): Promise<boolean> {
    return this.guard(`session of agent "${agentId}"`, async () => {
      const result = await this.db
        .deleteFrom("agent_sessions")
        .where("agent_id", "=", agentId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  listAgentSessions(companyId: string): Promise<AgentSessionRow[]> {
    return this.guard(`sessions of company "${companyId}"`, async () => {
      const rows = await this.db
        .selectFrom("agent_sessions")
        .selectAll()
        .where("company_id", "=", companyId)
        .orderBy("agent_id")
        .execute();
      return rows.map((r) => toAgentSession(r, this.adapter));
    });
  }

  // The wake lease: the queries are in wake-queries.ts.

  async claimWake(claim: WakeClaim): Promise<WakeClaimResult> {
    const inserted = await this.guard(`wake "${claim.id}"`, () => wakes.claimNewWake(this.db, claim));
    if (inserted) return { outcome: "claimed", wake: inserted };
    const attempt = () =>
      this.guard(`wake "${claim.id}"`, () => this.atomic((q) => wakes.claimWake(q.db, claim)));
    try {
      return await attempt();
    } catch (error) {
      // A concurrent claim committed first (the unique index said so): read again what it wrote.
      if (error instanceof ConflictError && !this.db.isTransaction) return attempt();
      throw error;
    }
  }

  getWake(id: string): Promise<WakeRow | undefined> {
    return this.guard(`wake "${id}"`, () => wakes.getWake(this.db, id));
  }

  renewWake(id: string, workerId: string, leaseUntil: string): Promise<boolean> {
    return this.guard(`wake "${id}"`, () => wakes.renewWake(this.db, id, workerId, leaseUntil));
  }

  setWakeRun(id: string, workerId: string, runId: string): Promise<boolean> {
    return this.guard(`wake "${id}"`, () => wakes.setWakeRun(this.db, id, workerId, runId));
  }

  releaseWake(
    id: string,
    workerId: string,
    end: { status: Exclude<WakeStatus, "running">; error: string | null },
  ): Promise<boolean> {
    return this.guard(`wake "${id}"`, () => wakes.releaseWake(this.db, id, workerId, end));
  }

  listExpiredWakes(before: string): Promise<WakeRow[]> {
    return this.guard("expired wakes", () => wakes.listExpiredWakes(this.db, before));
  }

  expireWake(id: string, before: string, error: string): Promise<boolean> {
    return this.guard(`wake "${id}"`, () => wakes.expireWake(this.db, id, before, error));
  }

  listRunningWakes(): Promise<WakeRow[]> {
    return this.guard("running wakes", () => wakes.listRunningWakes(this.db));
  }

  takeOverWake(id: string, workerId: string, error: string): Promise<boolean> {
    return this.guard(`wake "${id}"`, () => wakes.takeOverWake(this.db, id, workerId, error));
  }

  getBudget(companyId: string, agentId: string | null): Promise<BudgetRow | undefined> {
    return this.guard(`budget of ${agentId ?? companyId}`, () =>
      budgets.getBudget(this.db, this.adapter, companyId, agentId),
    );
  }

  listBudgets(companyId: string): Promise<BudgetRow[]> {
    return this.guard(`budgets of "${companyId}"`, () =>
      budgets.listBudgets(this.db, this.adapter, companyId),
    );
  }

  putBudget(budget: NewBudget): Promise<BudgetRow> {
    return this.guard(`budget of ${budget.agentId ?? budget.companyId}`, () =>
      this.atomic((q) => budgets.putBudget(q.db, q.adapter, budget)),
    );
  }

  reserveModelCall(call: NewModelCall): Promise<ModelCallRow> {
    return this.guard(`model call "${call.id}"`, () => budgets.reserveModelCall(this.db, call));
  }

  settleModelCall(id: string, settlement: ModelCallSettlement): Promise<boolean> {
    return this.guard(`model call "${id}"`, () =>
      this.atomic((q) => budgets.settleModelCall(q.db, id, settlement)),
    );
  }

  releaseModelCalls(runId: string): Promise<number> {
    return this.guard(`model calls of run "${runId}"`, () => budgets.releaseModelCalls(this.db, runId));
  }

  listModelCalls(runId: string): Promise<ModelCallRow[]> {
    return this.guard(`model calls of run "${runId}"`, () => budgets.listModelCalls(this.db, runId));
  }

  lockSpend(companyId: string): Promise<boolean> {
    return this.guard(`spend of "${companyId}"`, () => budgets.lockSpend(this.db, this.adapter, companyId));
  }

  spendOf(filter: SpendFilter): Promise<Spend> {
    return this.guard(`spend of "${filter.companyId}"`, () => budgets.spendOf(this.db, filter));
  }

  // Tasks, wake requests and schedules: the queries are in task-queries.ts.

  insertTask(task: NewTask): Promise<TaskRow> {
    return this.guard(`task "${task.id}"`, () => this.atomic((q) => tasks.insertTask(q.db, task)));
  }

  getTask(id: string): Promise<TaskRow | undefined> {
    return this.guard(`task "${id}"`, () => tasks.getTask(this.db, id));
  }

  listTasks(
    companyId: string,
    filter: {
      assigneeAgentId?: string;
      creatorAgentId?: string;
      statuses?: readonly TaskStatus[];
      page?: Page;
    } = {},
  ): Promise<TaskRow[]> {
    return this.guard(`tasks of company "${companyId}"`, () => tasks.listTasks(this.db, companyId, filter));
  }

  listTasksBlockedBy(taskId: string): Promise<TaskRow[]> {
    return this.guard(`tasks blocked by "${taskId}"`, () => tasks.listTasksBlockedBy(this.db, taskId));
  }

  updateTask(id: string, patch: TaskPatch): Promise<TaskRow> {
    return this.guard(`task "${id}"`, () => tasks.updateTask(this.db, id, patch));
  }

  checkoutTask(id: string, runId: string): Promise<boolean> {
    return this.guard(`task "${id}"`, () => tasks.checkoutTask(this.db, id, runId));
  }

  releaseTaskCheckouts(runId: string): Promise<string[]> {
    return this.guard(`tasks of run "${runId}"`, () => tasks.releaseTaskCheckouts(this.db, runId));
  }

  insertTaskComment(comment: NewTaskComment): Promise<TaskCommentRow> {
    return this.guard(`comment on task "${comment.taskId}"`, () => tasks.insertTaskComment(this.db, comment));
  }

  listTaskComments(taskId: string): Promise<TaskCommentRow[]> {
    return this.guard(`comments on task "${taskId}"`, () => tasks.listTaskComments(this.db, taskId));
  }

  attachTaskFile(file: NewTaskFile): Promise<TaskFileRow> {
    return this.guard(`file "${file.name}" of task "${file.taskId}"`, () =>
      this.atomic((q) => taskFiles.attachTaskFile(q.db, file)),
    );
  }

  listTaskFiles(taskId: string): Promise<TaskFileRow[]> {
    return this.guard(`files of task "${taskId}"`, () => taskFiles.listTaskFiles(this.db, taskId));
  }

  getTaskFile(id: string): Promise<(TaskFileRow & { content: Uint8Array }) | undefined> {
    return this.guard(`file "${id}"`, () => taskFiles.getTaskFile(this.db, id));
  }

  insertWakeRequest(request: NewWakeRequest): Promise<WakeRequestRow> {
    return this.guard(`wake request "${request.id}"`, () => tasks.insertWakeRequest(this.db, request));
  }

  listWakeRequests(filter: {
    companyId?: string;
    agentId?: string;
    status?: WakeRequestStatus;
    runId?: string;
    page?: Page;
  }): Promise<WakeRequestRow[]> {
    return this.guard("wake requests", () => tasks.listWakeRequests(this.db, filter));
  }

  settleWakeRequest(
    id: string,
    to: { status: "taken"; runId: string } | { status: "dropped"; note: string },
  ): Promise<boolean> {
    return this.guard(`wake request "${id}"`, () => tasks.settleWakeRequest(this.db, id, to));
  }

  getRunOwner(companyId: string): Promise<RunOwnerRow | null> {
    return this.guard(`company "${companyId}"`, () => owners.getRunOwner(this.db, companyId));
  }

  claimRunOwner(
    companyId: string,
    owner: ProcessOwner,
    lease: { since: string; until: string },
    expected: RunOwnerRow | null,
  ): Promise<boolean> {
    return this.guard(`company "${companyId}"`, () =>
      owners.claimRunOwner(this.db, companyId, owner, lease, expected),
    );
  }

  renewRunOwner(companyId: string, owner: ProcessOwner, until: string): Promise<boolean> {
    return this.guard(`company "${companyId}"`, () => owners.renewRunOwner(this.db, companyId, owner, until));
  }

  releaseRunOwner(companyId: string, owner: ProcessOwner): Promise<void> {
    return this.guard(`company "${companyId}"`, () => owners.releaseRunOwner(this.db, companyId, owner));
  }

  returnWakeRequest(id: string, runId: string, note: string): Promise<boolean> {
    return this.guard(`wake request "${id}"`, () => tasks.returnWakeRequest(this.db, id, runId, note));
  }

  putSchedule(schedule: NewSchedule): Promise<ScheduleRow> {
    return this.guard(`schedule of agent "${schedule.agentId}"`, () =>
      this.atomic((q) => tasks.putSchedule(q.db, schedule)),
    );
  }

  getSchedule(agentId: string): Promise<ScheduleRow | undefined> {
    return this.guard(`schedule of agent "${agentId}"`, () => tasks.getSchedule(this.db, agentId));
  }

  listSchedules(companyId?: string, page?: Page): Promise<ScheduleRow[]> {
    return this.guard("schedules", () => tasks.listSchedules(this.db, companyId, page));
  }

  deleteSchedule(agentId: string): Promise<boolean> {
    return this.guard(`schedule of agent "${agentId}"`, () => tasks.deleteSchedule(this.db, agentId));
  }

  advanceSchedule(
    id: string,
    dueAt: string,
    next: { nextDueAt: string; lastTickAt: string },
  ): Promise<boolean> {
    return this.guard(`schedule "${id}"`, () => tasks.advanceSchedule(this.db, id, dueAt, next));
  }

  // Operators and the audit log: the queries are in people-queries.ts.

  insertOperator(operator: NewOperator): Promise<OperatorRow> {
    return this.guard(`operator "${operator.name}"`, () =>
      people.insertOperator(this.db, this.adapter, operator),
    );
  }

  listOperators(): Promise<OperatorRow[]> {
    return this.guard("operators", () => people.listOperators(this.db, this.adapter));
  }

  findOperatorByHash(hash: string): Promise<OperatorRow | undefined> {
    return this.guard("operator token", () => people.findOperatorByHash(this.db, this.adapter, hash));
  }

  revokeOperator(idOrName: string): Promise<boolean> {
    return this.guard(`operator "${idOrName}"`, () => people.revokeOperator(this.db, idOrName));
  }

  listAudit(filter?: AuditFilter): Promise<AuditRow[]> {
    return this.guard("audit log", () => people.listAudit(this.db, filter));
  }

  /** For audited.ts: `fn` atomically, with these (unaudited) queries and the audit row's insert. */
  auditAtomic<T>(
    fn: (q: StoreQueries, record: (row: people.NewAuditRow) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    return this.atomic((q) =>
      fn(q, (row) => this.guard("audit log", () => people.insertAudit(q.db, this.adapter, row))),
    );
  }
}
