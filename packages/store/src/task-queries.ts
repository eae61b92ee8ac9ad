// Tasks, their blockers and comments, wake requests and schedules (migration 010), written once
// against Kysely's builder. KyselyQueries wraps each function with its error mapping and, where it
// says so, a transaction.
import type { Kysely, Selectable, SelectQueryBuilder } from "kysely";
import { paged } from "./page.js";
import type { TaskStatus } from "@cadre/model";
import { StoreError } from "./errors.js";
import type { Database, SchedulesTable, TaskCommentsTable, TasksTable, WakeRequestsTable } from "./schema.js";
import type {
  NewSchedule,
  NewTask,
  NewTaskComment,
  NewWakeRequest,
  ScheduleRow,
  TaskCommentRow,
  TaskPatch,
  TaskRow,
  WakeRequestRow,
  WakeRequestStatus,
  Page,
} from "./types.js";

const now = (): string => new Date().toISOString();

function toTask(r: Selectable<TasksTable>, blockers: string[]): TaskRow {
  return {
    id: r.id,
    companyId: r.company_id,
    title: r.title,
    description: r.description,
    status: r.status,
    assigneeAgentId: r.assignee_agent_id,
    creatorAgentId: r.creator_agent_id,
    parentTaskId: r.parent_task_id,
    strategyId: r.strategy_id,
    deliverable: r.deliverable,
    deliverableBy: r.deliverable_by ?? null,
    checkoutRunId: r.checkout_run_id,
    blockers,
    via: r.via,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toComment(r: Selectable<TaskCommentsTable>): TaskCommentRow {
  return {
    id: r.id,
    taskId: r.task_id,
    companyId: r.company_id,
    authorAgentId: r.author_agent_id,
    authorName: r.author_name ?? null,
    body: r.body,
    runId: r.run_id,
    via: r.via,
    createdAt: r.created_at,
  };
}

function toWakeRequest(r: Selectable<WakeRequestsTable>): WakeRequestRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    trigger: r.trigger,
    taskId: r.task_id,
    causedBy: r.caused_by,
    cause: r.cause,
    status: r.status,
    runId: r.run_id,
    note: r.note,
    returns: Number(r.returns ?? 0),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toSchedule(r: Selectable<SchedulesTable>): ScheduleRow {
  return {
    id: r.id,
    companyId: r.company_id,
    agentId: r.agent_id,
    everySeconds: r.every_seconds === null ? null : Number(r.every_seconds),
    cron: r.cron,
    timezone: r.timezone,
    catchUp: r.catch_up,
    nextDueAt: r.next_due_at,
    lastTickAt: r.last_tick_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

type TaskIds = SelectQueryBuilder<Database, "tasks", { id: string }>;

/**
 * The blockers of each task, in the order they were given. The tasks are named by the query that
 * selected them (a subquery), never by a parameter per task: a list of any size stays one statement.
 */
async function blockersOf(
  db: Kysely<Database>,
  taskIds: readonly string[],
  selected: TaskIds,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0) return out;
  const rows = await db
    .selectFrom("task_blockers")
    .selectAll()
    .where("task_id", "in", selected)
    .orderBy("task_id")
    .orderBy("position")
    .execute();
  for (const r of rows) out.get(r.task_id)?.push(r.blocker_task_id);
  return out;
}

async function withBlockers(
  db: Kysely<Database>,
  rows: Selectable<TasksTable>[],
  selected: TaskIds,
): Promise<TaskRow[]> {
  const blockers = await blockersOf(
    db,
    rows.map((r) => r.id),
    selected,
  );
  return rows.map((r) => toTask(r, blockers.get(r.id) ?? []));
}

/** Run inside one transaction. */
export async function insertTask(db: Kysely<Database>, task: NewTask): Promise<TaskRow> {
  const at = now();
  const row = await db
    .insertInto("tasks")
    .values({
      id: task.id,
      company_id: task.companyId,
      title: task.title,
      description: task.description,
      status: task.status,
      assignee_agent_id: task.assigneeAgentId,
      creator_agent_id: task.creatorAgentId,
      parent_task_id: task.parentTaskId,
      strategy_id: task.strategyId,
      deliverable: task.deliverable,
      deliverable_by: task.deliverableBy ?? null,
      checkout_run_id: null,
      via: task.via,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const blockers = [...new Set(task.blockers)];
  for (const [position, blocker] of blockers.entries())
    await db
      .insertInto("task_blockers")
      .values({ task_id: task.id, blocker_task_id: blocker, position })
      .execute();
  return toTask(row, blockers);
}

export async function getTask(db: Kysely<Database>, id: string): Promise<TaskRow | undefined> {
  const row = await db.selectFrom("tasks").selectAll().where("id", "=", id).executeTakeFirst();
  return row && (await withBlockers(db, [row], db.selectFrom("tasks").select("id").where("id", "=", id)))[0];
}

export async function listTasks(
  db: Kysely<Database>,
  companyId: string,
  filter: {
    assigneeAgentId?: string;
    creatorAgentId?: string;
    statuses?: readonly TaskStatus[];
    page?: Page;
  },
): Promise<TaskRow[]> {
  let query = db.selectFrom("tasks").where("company_id", "=", companyId);
  if (filter.assigneeAgentId !== undefined)
    query = query.where("assignee_agent_id", "=", filter.assigneeAgentId);
  if (filter.creatorAgentId !== undefined)
    query = query.where("creator_agent_id", "=", filter.creatorAgentId);
  if (filter.statuses !== undefined) {
    if (filter.statuses.length === 0) return [];
    query = query.where("status", "in", [...filter.statuses]);
  }
  const selected = paged(query.select("id"), "created_at", filter.page);
  return withBlockers(db, await paged(query.selectAll(), "created_at", filter.page).execute(), selected);
}

export async function listTasksBlockedBy(db: Kysely<Database>, taskId: string): Promise<TaskRow[]> {
  const rows = await db
    .selectFrom("tasks")
    .selectAll("tasks")
    .innerJoin("task_blockers", "task_blockers.task_id", "tasks.id")
    .where("task_blockers.blocker_task_id", "=", taskId)
    .orderBy("tasks.created_at")
    .orderBy("tasks.id")
    .execute();
  const selected = db
    .selectFrom("task_blockers")
    .select("task_id as id")
    .where("blocker_task_id", "=", taskId) as unknown as TaskIds;
  return withBlockers(db, rows, selected);
}

export async function updateTask(db: Kysely<Database>, id: string, patch: TaskPatch): Promise<TaskRow> {
  const set: Partial<Selectable<TasksTable>> = { updated_at: now() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.assigneeAgentId !== undefined) set.assignee_agent_id = patch.assigneeAgentId;
  if (patch.deliverable !== undefined) set.deliverable = patch.deliverable;
  if (patch.deliverableBy !== undefined) set.deliverable_by = patch.deliverableBy;
  const row = await db.updateTable("tasks").set(set).where("id", "=", id).returningAll().executeTakeFirst();
  if (!row) throw new StoreError(`task "${id}" does not exist`);
  return (
    await withBlockers(db, [row], db.selectFrom("tasks").select("id").where("id", "=", id))
  )[0] as TaskRow;
}

export async function checkoutTask(db: Kysely<Database>, id: string, runId: string): Promise<boolean> {
  // The condition makes the update the arbiter: of two runs checking out one task, one sees it free.
  const result = await db
    .updateTable("tasks")
    .set({ checkout_run_id: runId })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("checkout_run_id", "is", null), eb("checkout_run_id", "=", runId)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseTaskCheckouts(db: Kysely<Database>, runId: string): Promise<string[]> {
  const rows = await db
    .updateTable("tasks")
    .set({ checkout_run_id: null })
    .where("checkout_run_id", "=", runId)
    .returning("id")
    .execute();
  return rows.map((r) => r.id).sort();
}

export async function insertTaskComment(db: Kysely<Database>, c: NewTaskComment): Promise<TaskCommentRow> {
  const row = await db
    .insertInto("task_comments")
    .values({
      id: c.id,
      task_id: c.taskId,
      company_id: c.companyId,
      author_agent_id: c.authorAgentId,
      author_name: c.authorName ?? null,
      body: c.body,
      run_id: c.runId,
      via: c.via,
      created_at: now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toComment(row);
}

export async function listTaskComments(db: Kysely<Database>, taskId: string): Promise<TaskCommentRow[]> {
  const rows = await db
    .selectFrom("task_comments")
    .selectAll()
    .where("task_id", "=", taskId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toComment);
}

export async function insertWakeRequest(db: Kysely<Database>, r: NewWakeRequest): Promise<WakeRequestRow> {
  const at = now();
  const row = await db
    .insertInto("wake_requests")
    .values({
      id: r.id,
      company_id: r.companyId,
      agent_id: r.agentId,
      trigger: r.trigger,
      task_id: r.taskId,
      caused_by: r.causedBy,
      cause: r.cause,
      status: "pending",
      run_id: null,
      note: null,
      returns: 0,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWakeRequest(row);
}

export async function listWakeRequests(
  db: Kysely<Database>,
  filter: { companyId?: string; agentId?: string; status?: WakeRequestStatus; runId?: string; page?: Page },
): Promise<WakeRequestRow[]> {
  let query = db.selectFrom("wake_requests").selectAll();
  if (filter.companyId !== undefined) query = query.where("company_id", "=", filter.companyId);
  if (filter.agentId !== undefined) query = query.where("agent_id", "=", filter.agentId);
  if (filter.status !== undefined) query = query.where("status", "=", filter.status);
  if (filter.runId !== undefined) query = query.where("run_id", "=", filter.runId);
  const rows = await paged(query, "created_at", filter.page).execute();
  return rows.map(toWakeRequest);
}

export async function settleWakeRequest(
  db: Kysely<Database>,
  id: string,
  to: { status: "taken"; runId: string } | { status: "dropped"; note: string },
): Promise<boolean> {
  const result = await db
    .updateTable("wake_requests")
    .set({
      status: to.status,
      run_id: to.status === "taken" ? to.runId : null,
      note: to.status === "dropped" ? to.note : null,
      updated_at: now(),
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function returnWakeRequest(
  db: Kysely<Database>,
  id: string,
  runId: string,
  note: string,
): Promise<boolean> {
  const result = await db
    .updateTable("wake_requests")
    .set((eb) => ({
      status: "pending",
      run_id: null,
      note,
      returns: eb("returns", "+", 1),
      updated_at: now(),
    }))
    .where("id", "=", id)
    .where("status", "=", "taken")
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Run inside one transaction. */
export async function putSchedule(db: Kysely<Database>, s: NewSchedule): Promise<ScheduleRow> {
  const at = now();
  const existing = await db
    .selectFrom("schedules")
    .selectAll()
    .where("agent_id", "=", s.agentId)
    .executeTakeFirst();
  const values = {
    company_id: s.companyId,
    every_seconds: s.everySeconds,
    cron: s.cron,
    timezone: s.timezone,
    catch_up: s.catchUp,
    next_due_at: s.nextDueAt,
    updated_at: at,
  };
  const row = existing
    ? await db
        .updateTable("schedules")
        .set({ ...values, last_tick_at: null })
        .where("id", "=", existing.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    : await db
        .insertInto("schedules")
        .values({ id: s.id, agent_id: s.agentId, last_tick_at: null, created_at: at, ...values })
        .returningAll()
        .executeTakeFirstOrThrow();
  return toSchedule(row);
}

export async function getSchedule(db: Kysely<Database>, agentId: string): Promise<ScheduleRow | undefined> {
  const row = await db.selectFrom("schedules").selectAll().where("agent_id", "=", agentId).executeTakeFirst();
  return row && toSchedule(row);
}

export async function listSchedules(
  db: Kysely<Database>,
  companyId?: string,
  page?: Page,
): Promise<ScheduleRow[]> {
  let query = db.selectFrom("schedules").selectAll();
  if (companyId !== undefined) query = query.where("company_id", "=", companyId);
  const rows = await paged(query, "next_due_at", page).execute();
  return rows.map(toSchedule);
}

export async function deleteSchedule(db: Kysely<Database>, agentId: string): Promise<boolean> {
  const result = await db.deleteFrom("schedules").where("agent_id", "=", agentId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function advanceSchedule(
  db: Kysely<Database>,
  id: string,
  dueAt: string,
  next: { nextDueAt: string; lastTickAt: string },
): Promise<boolean> {
  const result = await db
    .updateTable("schedules")
    .set({ next_due_at: next.nextDueAt, last_tick_at: next.lastTickAt, updated_at: now() })
    .where("id", "=", id)
    .where("next_due_at", "=", dueAt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
