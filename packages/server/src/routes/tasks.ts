// Tasks, wake requests and schedules over HTTP. The bodies are the task operations' own
// schemas and every rule is the company layer's (work/tasks.ts): an agent token acts as its agent —
// the CEO creates and assigns in the operating company, an agent updates its own tasks — and the
// operator does everything. Each change's task.* activity reaches the event stream as a domain event.
import {
  assignTask,
  AssigneeRef,
  closeTask,
  reviewTask,
  reviewTaskSchema,
  closeTaskSchema,
  commentOnTask,
  createTask,
  createTaskSchema,
  loadTaskDetail,
  removeSchedule,
  setSchedule,
  TaskCommentBody,
  type TaskResult,
  updateTask,
  updateTaskSchema,
} from "@cadre/company";
import { InternalError, NotFoundError } from "@cadre/core";
import {
  OneOf,
  SCHEDULE_CATCH_UPS,
  TASK_STATUSES,
  type TaskStatus,
  Text,
  WAKE_REQUEST_STATUSES,
} from "@cadre/model";
import type { TaskRow } from "@cadre/store";
import { Type } from "typebox";
import type { ServerContext } from "../context.js";
import { httpActor, refusal } from "./actor.js";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { enumQuery } from "./queries.js";
import { agentScope, companyScope } from "./scopes.js";
import {
  scheduleView,
  ScheduleViewSchema,
  TaskDetailViewSchema,
  type TaskChangeView,
  TaskChangeViewSchema,
  taskView,
  TaskViewSchema,
  wakeRequestView,
  WakeRequestViewSchema,
} from "./views.js";

export interface TaskScope {
  companyId: string;
  task: TaskRow;
}

async function taskScope(ctx: ServerContext, params: Record<string, string>): Promise<TaskScope> {
  const task = await ctx.store.getTask(params["id"] ?? "");
  if (!task) throw new NotFoundError(`task ${params["id"] ?? ""} not found`);
  return { companyId: task.companyId, task };
}

/** The task as it now stands, with what the change said: its assignee's name and whom it wakes. */
async function answer(
  ctx: ServerContext,
  result: { ok: true; value: TaskResult } | { ok: false; message: string; fields: Record<string, string> },
): Promise<TaskChangeView> {
  if (!result.ok) throw refusal(result);
  const task = await ctx.store.getTask(result.value.taskId);
  if (!task) throw new InternalError(`task ${result.value.taskId} is not in the store`);
  return { ...taskView(task), assignee: result.value.assignee, wakes: result.value.wakes };
}

/** The statuses of `?status=`: one, or several separated by commas (todo,in_progress). */
function statusesQuery(value: string | undefined): TaskStatus[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((s) => enumQuery("status", s.trim(), TASK_STATUSES) as TaskStatus);
}

const TASK_CHANGE = "The task as it now stands, its assignee's name and the agents the change wakes.";

export const AssignBody = Type.Object({ assignee: AssigneeRef }, { additionalProperties: false });
export const CommentBody = Type.Object({ body: TaskCommentBody }, { additionalProperties: false });
export const UpdateBody = Type.Object(
  {
    status: updateTaskSchema.properties.status,
    comment: updateTaskSchema.properties.comment,
    deliverable: updateTaskSchema.properties.deliverable,
  },
  { additionalProperties: false },
);
export const CloseBody = Type.Object(
  { status: closeTaskSchema.properties.status, deliverable: closeTaskSchema.properties.deliverable },
  { additionalProperties: false },
);
export const ReviewBody = Type.Object(
  { decision: reviewTaskSchema.properties.decision, reasons: reviewTaskSchema.properties.reasons },
  { additionalProperties: false },
);
export const ScheduleBody = Type.Object(
  {
    every: Type.Optional(
      Text({ maxLength: 32, description: "An interval: 15m, 1h, 1h30m, 1d (at least 1m)." }),
    ),
    cron: Type.Optional(
      Text({ maxLength: 120, description: 'A 5-field cron expression, e.g. "0 9 * * 1-5".' }),
    ),
    timezone: Type.Optional(
      Text({ maxLength: 64, description: "The cron expression's IANA time zone; default UTC." }),
    ),
    catchUp: Type.Optional(
      OneOf(SCHEDULE_CATCH_UPS, { description: "Missed ticks: one wake for all (one), or none (skip)." }),
    ),
    start: Type.Optional(Text({ maxLength: 40, description: '"now" or an ISO time: the first tick.' })),
  },
  { additionalProperties: false },
);

export const taskRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/tasks",
    summary:
      "The company's tasks (?status=todo|in_progress|blocked|done|cancelled, several separated by commas; &assignee=AGENT_ID).",
    access: "company",
    scope: companyScope,
    query: {
      status: `${TASK_STATUSES.join(" | ")}, or several: todo,in_progress`,
      assignee: "an agent id",
      ...PAGE_QUERY,
    },
    response: {
      status: 200,
      description: "A page of tasks, oldest first.",
      schema: PageSchema(TaskViewSchema, "The tasks."),
    },
    async handle({ c, ctx, scope }) {
      const statuses = statusesQuery(c.req.query("status"));
      const assignee = c.req.query("assignee");
      const page = pageRequest(c);
      const tasks = await ctx.store.listTasks(scope.companyId, {
        ...(statuses ? { statuses } : {}),
        ...(assignee ? { assigneeAgentId: assignee } : {}),
        page: page.store,
      });
      return pageAnswer(tasks, page, (t) => t.createdAt, taskView);
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/tasks",
    summary:
      "Create a task (the create_task input). The operator, or the CEO's token in the operating company. Assigning it wakes the assignee.",
    access: "company",
    scope: companyScope,
    body: createTaskSchema,
    response: { status: 201, description: TASK_CHANGE, schema: TaskChangeViewSchema },
    async handle({ ctx, principal, scope, body }) {
      return answer(ctx, await createTask(ctx.store, httpActor(principal, scope.companyId), body));
    },
  }),
  route({
    method: "get",
    path: "/api/tasks/{id}",
    summary: "One task, with its comments, its history and the wakes it caused.",
    access: "company",
    scope: taskScope,
    response: { status: 200, description: "The task in detail.", schema: TaskDetailViewSchema },
    async handle({ ctx, scope }) {
      const detail = await loadTaskDetail(ctx.store, scope.task.id);
      if (!detail) throw new NotFoundError(`task ${scope.task.id} not found`);
      return detail;
    },
  }),
  route({
    method: "post",
    path: "/api/tasks/{id}/assign",
    summary: "Give an open task to a member (the operator, or the CEO's token). Wakes the new assignee.",
    access: "company",
    scope: taskScope,
    body: AssignBody,
    response: { status: 200, description: TASK_CHANGE, schema: TaskChangeViewSchema },
    async handle({ ctx, principal, scope, body }) {
      return answer(
        ctx,
        await assignTask(ctx.store, httpActor(principal, scope.companyId), {
          taskId: scope.task.id,
          ...body,
        }),
      );
    },
  }),
  route({
    method: "post",
    path: "/api/tasks/{id}/comments",
    summary:
      "Comment on a task. The operator's comment wakes the assignee of an open task; an agent comments on its own tasks.",
    access: "company",
    scope: taskScope,
    body: CommentBody,
    response: { status: 201, description: TASK_CHANGE, schema: TaskChangeViewSchema },
    async handle({ ctx, principal, scope, body }) {
      return answer(
        ctx,
        await commentOnTask(ctx.store, httpActor(principal, scope.companyId), {
          taskId: scope.task.id,
          body: body.body,
        }),
      );
    },
  }),
  route({
    method: "patch",
    path: "/api/tasks/{id}",
    summary:
      "Update a task (the update_task input): status, comment, deliverable. An agent's token updates only its own tasks; done needs a deliverable and wakes the task's creator.",
    access: "company",
    scope: taskScope,
    body: UpdateBody,
    response: { status: 200, description: TASK_CHANGE, schema: TaskChangeViewSchema },
    async handle({ ctx, principal, scope, body }) {
      return answer(
        ctx,
        await updateTask(ctx.store, httpActor(principal, scope.companyId), {
          taskId: scope.task.id,
          ...body,
        }),
      );
    },
  }),
  route({
    method: "post",
    path: "/api/tasks/{id}/close",
    summary: "Close a task: done (with a deliverable) or cancelled. A cancelled task wakes nobody.",
    access: "company",
    scope: taskScope,
    body: CloseBody,
    response: { status: 200, description: TASK_CHANGE, schema: TaskChangeViewSchema },
    async handle({ ctx, principal, scope, body }) {
      return answer(
        ctx,
        await closeTask(ctx.store, httpActor(principal, scope.companyId), { taskId: scope.task.id, ...body }),
      );
    },
  }),
  route({
    method: "post",
    path: "/api/tasks/{id}/review",
    summary:
      "Review a task handed in (in_review): accept it (done), or request changes with reasons (back to its assignee, who is woken with them).",
    access: "company",
    scope: taskScope,
    body: ReviewBody,
    response: { status: 200, description: TASK_CHANGE, schema: TaskChangeViewSchema },
    async handle({ ctx, principal, scope, body }) {
      return answer(
        ctx,
        await reviewTask(ctx.store, httpActor(principal, scope.companyId), {
          taskId: scope.task.id,
          ...body,
        }),
      );
    },
  }),
  route({
    method: "get",
    path: "/api/companies/{id}/wake-requests",
    summary:
      "Why agents are (or were) to be woken: each request, decided in code, and what became of it (?status=pending|taken|dropped).",
    access: "company",
    scope: companyScope,
    query: { status: WAKE_REQUEST_STATUSES.join(" | "), ...PAGE_QUERY },
    response: {
      status: 200,
      description: "A page of wake requests, oldest first.",
      schema: PageSchema(WakeRequestViewSchema, "The wake requests."),
    },
    async handle({ c, ctx, scope }) {
      const status = enumQuery("status", c.req.query("status"), WAKE_REQUEST_STATUSES);
      const page = pageRequest(c);
      const requests = await ctx.store.listWakeRequests({
        companyId: scope.companyId,
        ...(status ? { status } : {}),
        page: page.store,
      });
      return pageAnswer(requests, page, (w) => w.createdAt, wakeRequestView);
    },
  }),
  route({
    method: "get",
    path: "/api/companies/{id}/schedules",
    summary: "The company's schedules, soonest tick first.",
    access: "company",
    scope: companyScope,
    query: PAGE_QUERY,
    response: {
      status: 200,
      description: "A page of schedules, by next tick then id.",
      schema: PageSchema(ScheduleViewSchema, "The schedules."),
    },
    async handle({ c, ctx, scope }) {
      const page = pageRequest(c);
      const schedules = await ctx.store.listSchedules(scope.companyId, page.store);
      return pageAnswer(schedules, page, (s) => s.nextDueAt, scheduleView);
    },
  }),
  route({
    method: "patch",
    path: "/api/agents/{id}/schedule",
    summary:
      "Set the agent's schedule (operator only): every DURATION or a cron expression. A tick with no open work is skipped before any model call.",
    access: "operator",
    scope: agentScope,
    body: ScheduleBody,
    response: { status: 200, description: "The schedule.", schema: ScheduleViewSchema },
    async handle({ ctx, scope, body }) {
      return scheduleView(
        await setSchedule(ctx.store, {
          agentId: scope.agent.id,
          ...(body.every !== undefined ? { every: body.every } : {}),
          ...(body.cron !== undefined ? { cron: body.cron } : {}),
          ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
          ...(body.catchUp !== undefined ? { catchUp: body.catchUp } : {}),
          ...(body.start !== undefined ? { start: body.start } : {}),
        }),
      );
    },
  }),
  route({
    method: "delete",
    path: "/api/agents/{id}/schedule",
    summary: "Remove the agent's schedule (operator only).",
    access: "operator",
    scope: agentScope,
    response: {
      status: 200,
      description: "Whether there was one.",
      schema: Type.Object(
        { agentId: Type.String(), removed: Type.Boolean() },
        { additionalProperties: false },
      ),
    },
    async handle({ ctx, scope }) {
      return { agentId: scope.agent.id, removed: await removeSchedule(ctx.store, scope.agent.id) };
    },
  }),
];
