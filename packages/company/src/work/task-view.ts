// What a task looks like to the operator — the API's answer, the CLI's --json, the dashboard —
// built from the records by one function, with its TypeBox schema (the OpenAPI document's).
import {
  domainEventSchema,
  Nullable,
  OneOf,
  type Static,
  TASK_STATUSES,
  VIAS,
  WAKE_REQUEST_STATUSES,
  WAKE_TRIGGERS,
} from "@cadre/model";
import type { ActivityRow, TaskCommentRow, TaskFileRow, TaskRow, WakeRequestRow } from "@cadre/store";
import { Type } from "typebox";

const strict = { additionalProperties: false } as const;

export const TaskViewSchema = Type.Object(
  {
    id: Type.String(),
    companyId: Type.String(),
    title: Type.String(),
    description: Type.String(),
    status: OneOf(TASK_STATUSES),
    assigneeAgentId: Nullable(Type.String({ description: "The agent working it; null: nobody yet." })),
    creator: Type.String({ description: 'The agent id that created it, or "operator".' }),
    deliverable: Nullable(Type.String()),
    deliverableBy: Nullable(
      Type.String({
        description:
          'Who handed the deliverable in: an agent id, or "operator" — whoever it is assigned to now. Null: no deliverable, or one from before authorship was recorded.',
      }),
    ),
    blockers: Type.Array(Type.String(), { description: "Tasks that must be done before this one starts." }),
    parentTaskId: Nullable(Type.String()),
    strategyId: Nullable(Type.String({ description: "The approved strategy it was created under." })),
    checkedOutBy: Nullable(Type.String({ description: "The run working it now (one at a time)." })),
    via: OneOf(VIAS),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  strict,
);
export type TaskView = Static<typeof TaskViewSchema>;

export function taskView(t: TaskRow): TaskView {
  return {
    id: t.id,
    companyId: t.companyId,
    title: t.title,
    description: t.description,
    status: t.status,
    assigneeAgentId: t.assigneeAgentId,
    creator: t.creatorAgentId ?? "operator",
    deliverable: t.deliverable,
    deliverableBy: t.deliverable === null ? null : t.deliverableBy,
    blockers: [...t.blockers],
    parentTaskId: t.parentTaskId,
    strategyId: t.strategyId,
    checkedOutBy: t.checkoutRunId,
    via: t.via,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
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
