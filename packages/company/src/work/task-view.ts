// What a task looks like to the operator — the API's answer, the CLI's --json, the dashboard —
// built from the records by one function, with its TypeBox schema (the OpenAPI document's).
import {
  domainEventSchema,
  Nullable,
  OneOf,
  project,
  type Static,
  TaskRowSchema,
  WAKE_REQUEST_STATUSES,
  WAKE_TRIGGERS,
} from "@cadre/model";
import type { ActivityRow, TaskCommentRow, TaskFileRow, TaskRow, WakeRequestRow } from "@cadre/store";
import { Type } from "typebox";

const strict = { additionalProperties: false } as const;

// The record's fields, with who created it and which run holds it named for the operator.
const { creatorAgentId: _creator, checkoutRunId: _checkout, ...shared } = TaskRowSchema.properties;

export const TaskViewSchema = Type.Object(
  {
    ...shared,
    creator: Type.String({ description: 'The agent id that created it, or "operator".' }),
    checkedOutBy: Nullable(Type.String({ description: "The run working it now (one at a time)." })),
  },
  strict,
);
export type TaskView = Static<typeof TaskViewSchema>;

export function taskView(t: TaskRow): TaskView {
  return project(TaskViewSchema, t, {
    creator: t.creatorAgentId ?? "operator",
    deliverableBy: t.deliverable === null ? null : t.deliverableBy,
    blockers: [...t.blockers],
    checkedOutBy: t.checkoutRunId,
  });
}

export const TaskCommentViewSchema = Type.Object(
  {
    id: Type.String(),
    author: Type.String({
      description: 'The agent id, or the operator\'s name ("operator" for the bootstrap owner).',
    }),
    body: Type.String(),
    runId: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  strict,
);

/** One activity of the task: a domain event (its `type` narrows its `data`) with its row's refs. */
export const TaskHistoryEntrySchema = domainEventSchema({
  id: Type.Integer(),
  agentId: Nullable(Type.String()),
  runId: Nullable(Type.String()),
  at: Type.String(),
});

export const WakeRequestViewSchema = Type.Object(
  {
    id: Type.String(),
    agentId: Type.String(),
    trigger: OneOf(WAKE_TRIGGERS),
    taskId: Nullable(Type.String()),
    causedBy: Type.String(),
    cause: Type.String(),
    status: OneOf(WAKE_REQUEST_STATUSES),
    runId: Nullable(Type.String()),
    note: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  strict,
);

export const TaskFileViewSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: "Its path relative to the workspace it was attached from." }),
    size: Type.Integer({ description: "Bytes." }),
    sha256: Type.String({ description: "SHA-256 of the copy kept, hex." }),
    mediaType: Type.String(),
    addedBy: Type.String({ description: "The agent id that attached it (or the operator's name)." }),
    runId: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  strict,
);
export type TaskFileView = Static<typeof TaskFileViewSchema>;

export function taskFileView(f: TaskFileRow): TaskFileView {
  return {
    id: f.id,
    name: f.name,
    size: f.size,
    sha256: f.sha256,
    mediaType: f.mediaType,
    addedBy: f.addedBy,
    runId: f.runId,
    createdAt: f.createdAt,
  };
}

export const TaskDetailViewSchema = Type.Object(
  {
    ...TaskViewSchema.properties,
    comments: Type.Array(TaskCommentViewSchema),
    files: Type.Array(TaskFileViewSchema, {
      description: "Files handed in with it, oldest first: copies kept as they were attached.",
    }),
    history: Type.Array(TaskHistoryEntrySchema, {
      description: "The task's activity: created, assigned, updated, checked out, released, …",
    }),
    wakes: Type.Array(WakeRequestViewSchema, {
      description: "The wakes it caused (requests), and what became of them.",
    }),
  },
  strict,
);
export type TaskDetailView = Static<typeof TaskDetailViewSchema>;

export type WakeRequestView = Static<typeof WakeRequestViewSchema>;

export function wakeRequestView(r: WakeRequestRow): WakeRequestView {
  return {
    id: r.id,
    agentId: r.agentId,
    trigger: r.trigger,
    taskId: r.taskId,
    causedBy: r.causedBy,
    cause: r.cause,
    status: r.status,
    runId: r.runId,
    note: r.note,
    createdAt: r.createdAt,
  };
}

export function taskDetailView(
  t: TaskRow,
  comments: readonly TaskCommentRow[],
  activity: readonly ActivityRow[],
  requests: readonly WakeRequestRow[],
  files: readonly TaskFileRow[] = [],
): TaskDetailView {
  return {
    ...taskView(t),
    comments: comments.map((c) => ({
      id: c.id,
      author: c.authorAgentId ?? c.authorName ?? "operator",
      body: c.body,
      runId: c.runId,
      createdAt: c.createdAt,
    })),
    files: files.map(taskFileView),
    history: activity
      .filter((a) => "taskId" in a.data && a.data.taskId === t.id)
      .map(({ companyId: _, ...entry }) => entry),
    wakes: requests.filter((r) => r.taskId === t.id).map(wakeRequestView),
  };
}

/** A task with everything the detail view shows, read from the store. */
export async function loadTaskDetail(
  q: {
    getTask(id: string): Promise<TaskRow | undefined>;
    listTaskComments(id: string): Promise<TaskCommentRow[]>;
    listActivity(companyId: string): Promise<ActivityRow[]>;
    listWakeRequests(f: { companyId: string }): Promise<WakeRequestRow[]>;
    listTaskFiles(id: string): Promise<TaskFileRow[]>;
  },
  taskId: string,
): Promise<TaskDetailView | undefined> {
  const task = await q.getTask(taskId);
  if (!task) return undefined;
  return taskDetailView(
    task,
    await q.listTaskComments(task.id),
    await q.listActivity(task.companyId),
    await q.listWakeRequests({ companyId: task.companyId }),
    await q.listTaskFiles(task.id),
  );
}
