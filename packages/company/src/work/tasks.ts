// The task operations, shared by the tools, the HTTP routes and the CLI: every rule is
// checked in code inside one transaction — who may create, assign and update what, in which mode,
// the state a task may move to — and each change records its activity and the wakes it causes
// (wake-rules.ts) in that same transaction. A refusal is a value naming the field, and writes nothing.
import {
  type CeoMode,
  type DomainEventData,
  type DomainEventOf,
  isFinishedTask,
  type TaskStatus,
} from "@cadre/model";
import type { AgentRow, Store, StoreQueries, TaskRow } from "@cadre/store";
import { newId } from "../ids.js";
import { activeAgentNamed, activeAgentOf, loadTaskState, nameOf, type TaskState } from "./task-state.js";
import type { ActionResult, Actor } from "../actions/actor.js";
import { runOnce, type ToolCallRef } from "../actions/once.js";
import { requestWakes } from "./requests.js";
import type {
  AssignTaskInput,
  CloseTaskInput,
  CommentTaskInput,
  CreateTaskInput,
  UpdateTaskInput,
} from "./task-schema.js";
import { reviewerOf } from "./reviewer.js";
import { type TaskChange, wakesFor } from "./wake-rules.js";
import { readWorkspaceFiles, type WorkspaceFile } from "./workspace-files.js";

/** What a task operation answers: the task as it now stands, and who its change wakes. */
export interface TaskResult {
  taskId: string;
  title: string;
  status: TaskStatus;
  assignee: string | null;
  /** Agents this change wakes (their names). */
  wakes: string[];
  /** The files this change attached (copies kept with the task). */
  attached?: { id: string; name: string; size: number; sha256: string }[];
}

function refuse(op: string, field: string, why: string): ActionResult<never> {
  return {
    ok: false,
    message: `${op} was not run, nothing was written. \`${field}\` ${why}.`,
    fields: { [field]: why },
  };
}

class Refusal extends Error {
  constructor(readonly result: ActionResult<never>) {
    super(result.ok ? "" : result.message);
  }
}

/** Throws a refusal out of a transaction body (rolled back: nothing written). */
export function fail(op: string, field: string, why: string): never {
  throw new Refusal(refuse(op, field, why));
}

async function refusals<T>(fn: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Refusal) return error.result;
    throw error;
  }
}

/** The acting agent's id, or the operator's name ("operator" for the bootstrap owner): the wake rules' actor. */
export function actorKey(actor: Actor): string {
  return actor.agentId ?? actor.operator ?? "operator";
}

/** The acting agent, or null for the operator; refuses an agent that is not an active one of the company. */
export function actingAgent(op: string, state: TaskState, actor: Actor): AgentRow | null {
  if (actor.agentId === null) return null;
  // The summary read the actor with the company (only an active agent of this company).
  const agent = state.agent?.id === actor.agentId ? state.agent : null;
  if (!agent) fail(op, "agent", `${actor.agentId} is not an active agent of this company`);
  return agent;
}

/** The CEO's modes in which tasks are created, assigned and worked (C4-4): the operating company only. */
export const TASK_MODES = ["operating"] as const satisfies readonly CeoMode[];

/** Governance in code (C4-4): tasks exist in the operating company only. */
export function requireOperating(op: string, state: TaskState): void {
  if (!(TASK_MODES as readonly CeoMode[]).includes(state.mode))
    fail(
      op,
      "mode",
      `tasks are created and assigned once the company strategy is approved; the CEO is in the ${state.mode} phase (${state.modeReason})`,
    );
}

/** A team member by agent id or by name as the directory shows it (names compare on their key). */
async function resolveAssignee(
  op: string,
  tx: StoreQueries,
  state: TaskState,
  ref: string,
): Promise<AgentRow> {
  const byId = await activeAgentOf(tx, state, ref);
  if (byId) return byId;
  const byName = await activeAgentNamed(tx, state, ref);
  if (byName) return byName;
  const elsewhere = await tx.getAgent(ref);
  if (elsewhere && elsewhere.companyId !== state.company.id)
    fail(
      op,
      "assignee",
      `"${ref}" is not an agent of this company; work is assigned within the company only`,
    );
  // The first of the team are named; a large team is counted, not listed.
  const team = await tx.listTeam(state.company.id, { limit: MEMBERS_NAMED });
  const more = team.total - team.agents.length;
  fail(
    op,
    "assignee",
    `"${ref}" is not an active member of this company; members: ${team.agents.map((a) => a.name).join(", ")}${more > 0 ? ` and ${more} more` : ""}`,
  );
}

/** How many members a refused assignee's message names. */
const MEMBERS_NAMED = 20;

export async function taskOf(
  op: string,
  tx: StoreQueries,
  state: TaskState,
  taskId: string,
): Promise<TaskRow> {
  const task = await tx.getTask(taskId);
  if (!task || task.companyId !== state.company.id)
    fail(op, "taskId", `"${taskId}" is not a task of this company`);
  return task;
}

export async function openBlockers(tx: StoreQueries, task: TaskRow): Promise<TaskRow[]> {
  const out: TaskRow[] = [];
  for (const id of task.blockers) {
    const blocker = await tx.getTask(id);
    if (blocker && !isFinishedTask(blocker.status)) out.push(blocker);
  }
  return out;
}

type ChangeType = "task.created" | "task.assigned" | "task.updated" | "task.commented" | "task.reviewed";
/** A task change's activity, without what recordChange adds to every one: the task, who, and through what. */
export type TaskChangeActivity = {
  [T in ChangeType]: { type: T; data: Omit<DomainEventData<T>, "taskId" | "by" | "via"> };
}[ChangeType];

/** Records the change's activity and the wakes it causes; returns the names of those woken. */
export async function recordChange(
  tx: StoreQueries,
  state: TaskState,
  actor: Actor,
  change: TaskChange,
  activity: TaskChangeActivity,
): Promise<string[]> {
  // The type and its data stay paired (TypeScript cannot follow the spread through the union).
  const event = {
    type: activity.type,
    data: { taskId: change.task.id, by: actorKey(actor), via: actor.via, ...activity.data },
  } as DomainEventOf<ChangeType>;
  await tx.insertActivity({
    companyId: state.company.id,
    agentId: actor.agentId,
    runId: actor.runId,
    ...event,
  });
  const written = await requestWakes(
    tx,
    state.company.id,
    wakesFor(change, actorKey(actor)),
    actorKey(actor),
    actor.runId,
  );
  const names: string[] = [];
  for (const w of written) names.push((await nameOf(tx, state, w.agentId)) ?? w.agentId);
  return names;
}

export async function result(
  q: StoreQueries,
  state: TaskState,
  task: TaskRow,
  wakes: string[],
): Promise<ActionResult<TaskResult>> {
  return {
    ok: true,
    value: {
      taskId: task.id,
      title: task.title,
      status: task.status,
      assignee: await nameOf(q, state, task.assigneeAgentId),
      wakes,
    },
  };
}

/** Runs one task operation: once per tool call of a run (MC-10), in one transaction. */
export function operate<R extends TaskResult = TaskResult>(
  store: Store,
  actor: Actor,
  op: string,
  input: unknown,
  call: ToolCallRef,
  act: (tx: StoreQueries, state: TaskState) => Promise<ActionResult<R>>,
): Promise<ActionResult<R>> {
  return refusals(async () => {
    const { result } = await runOnce(store, actor, op, input, call, async (tx) =>
      act(tx, await loadTaskState(tx, actor.companyId, actor.agentId)),
    );
    return result;
  });
}

export function createTask(
  store: Store,
  actor: Actor,
  input: CreateTaskInput,
  call: ToolCallRef = {},
): Promise<ActionResult<TaskResult>> {
  const op = "create_task";
  return operate(store, actor, op, input, call, async (tx, state) => {
    const creator = actingAgent(op, state, actor);
    if (creator && !creator.isCeo)
      fail(op, "agent", "only the CEO creates and assigns tasks; you update the tasks assigned to you");
    requireOperating(op, state);
    const assignee =
      input.assignee !== undefined ? await resolveAssignee(op, tx, state, input.assignee) : null;
    const blockers = [...new Set(input.blockedBy ?? [])];
    for (const id of blockers)
      await taskOf(op, tx, state, id).catch(() =>
        fail(op, "blockedBy", `"${id}" is not a task of this company`),
      );
    if (input.parentTaskId !== undefined)
      await taskOf(op, tx, state, input.parentTaskId).catch(() =>
        fail(op, "parentTaskId", `"${input.parentTaskId}" is not a task of this company`),
      );
    // Work the CEO creates in the operating company is traced to the approved strategy, in code.
    const strategyId = state.latestStrategy?.status === "approved" ? state.latestStrategy.id : null;
    const task = await tx.insertTask({
      id: newId("task"),
      companyId: state.company.id,
      title: input.title,
      description: input.description ?? "",
      status: "todo",
      assigneeAgentId: assignee?.id ?? null,
      creatorAgentId: creator?.id ?? null,
      parentTaskId: input.parentTaskId ?? null,
      strategyId,
      deliverable: null,
      blockers,
      via: actor.via,
    });
    const open = await openBlockers(tx, task);
    const wakes = await recordChange(
      tx,
      state,
      actor,
      { kind: "assigned", task, openBlockers: open.length },
      {
        type: "task.created",
        data: {
          title: task.title,
          assigneeAgentId: task.assigneeAgentId,
          creatorAgentId: task.creatorAgentId,
          blockers,
          strategyId,
          status: task.status,
        },
      },
    );
    return await result(tx, state, task, wakes);
  });
}

export function assignTask(
  store: Store,
  actor: Actor,
  input: AssignTaskInput,
  call: ToolCallRef = {},
): Promise<ActionResult<TaskResult>> {
  const op = "assign_task";
  return operate(store, actor, op, input, call, async (tx, state) => {
    const by = actingAgent(op, state, actor);
    if (by && !by.isCeo) fail(op, "agent", "only the CEO assigns work; you update the tasks assigned to you");
    requireOperating(op, state);
    const task = await taskOf(op, tx, state, input.taskId);
    if (isFinishedTask(task.status))
      fail(op, "taskId", `task ${task.id} is ${task.status}; a finished task is not reassigned`);
    const assignee = await resolveAssignee(op, tx, state, input.assignee);
    if (task.assigneeAgentId === assignee.id) return await result(tx, state, task, []);
    const updated = await tx.updateTask(task.id, { assigneeAgentId: assignee.id });
    const open = await openBlockers(tx, updated);
    const wakes = await recordChange(
      tx,
      state,
      actor,
      { kind: "assigned", task: updated, openBlockers: open.length },
      { type: "task.assigned", data: { from: task.assigneeAgentId, to: assignee.id } },
    );
    return await result(tx, state, updated, wakes);
  });
}

/** Status, comment and deliverable changes, on a task of the actor's (agents) or any task (the operator). */
async function changeTask(
  op: string,
  tx: StoreQueries,
  state: TaskState,
  actor: Actor,
  task: TaskRow,
  change: { status?: TaskStatus; comment?: string; deliverable?: string; files?: readonly WorkspaceFile[] },
): Promise<ActionResult<TaskResult>> {
  if (isFinishedTask(task.status))
    fail(op, "taskId", `task ${task.id} is ${task.status}; a finished task does not change`);
  const files = change.files ?? [];
  if (
    change.status === undefined &&
    change.comment === undefined &&
    change.deliverable === undefined &&
    files.length === 0
  )
    fail(op, "status", "nothing to change: give a status, a comment, a deliverable or files");
  if (change.status === "in_progress") {
    const open = await openBlockers(tx, task);
    if (open.length > 0)
      fail(
        op,
        "status",
        `the task is blocked by ${open.map((b) => `${b.id} (${b.status})`).join(", ")}; it can start once they are done`,
      );
  }
  const deliverable = change.deliverable ?? task.deliverable;
  if (change.status === "done" && !deliverable)
    fail(op, "deliverable", "a task is done with its deliverable: give one with the done status");
  // Done means accepted: what its assignee hands in waits for its reviewer (review.ts), unless the
  // company accepts hand-ins automatically; while it waits, the assignee only comments on it.
  const byAssignee = actor.agentId !== null && actor.agentId === task.assigneeAgentId;
  if (
    byAssignee &&
    task.status === "in_review" &&
    (change.status !== undefined || change.deliverable !== undefined || files.length > 0)
  )
    fail(
      op,
      "taskId",
      `task ${task.id} is handed in and waits for review by ${(await reviewerOf(tx, state, task)).name}; it comes back to you if changes are asked for (a comment is still possible)`,
    );
  if (change.status === "in_review")
    fail(op, "status", "in_review is where a task goes when you hand it in: set done with your deliverable");
  const handIn = change.status === "done" && byAssignee && state.company.settings.acceptance !== "automatic";
  const status: TaskStatus | undefined = handIn ? "in_review" : change.status;
  // One run works a task at a time (OP-1): an update in a run checks the task out for that run.
  if (actor.runId !== null) {
    if (!(await tx.checkoutTask(task.id, actor.runId)))
      fail(
        op,
        "taskId",
        `another run (${task.checkoutRunId}) is working on task ${task.id}; one run works a task at a time`,
      );
    if (task.checkoutRunId !== actor.runId)
      await tx.insertActivity({
        companyId: state.company.id,
        agentId: actor.agentId,
        runId: actor.runId,
        type: "task.checked_out",
        data: { taskId: task.id, runId: actor.runId },
      });
  }
  const wakes: string[] = [];
  if (change.comment !== undefined) {
    const comment = await tx.insertTaskComment({
      id: newId("tcm"),
      taskId: task.id,
      companyId: state.company.id,
      authorAgentId: actor.agentId,
      authorName: actor.agentId === null ? (actor.operator ?? null) : null,
      body: change.comment,
      runId: actor.runId,
      via: actor.via,
    });
    wakes.push(
      ...(await recordChange(
        tx,
        state,
        actor,
        { kind: "commented", task, byOperator: actor.agentId === null },
        { type: "task.commented", data: { commentId: comment.id, authorAgentId: actor.agentId } },
      )),
    );
  }
  // The copies are written in the task update's transaction: a refused update keeps none of them.
  const attached: NonNullable<TaskResult["attached"]> = [];
  // A task's files are listed by (time, id); files of one hand-in are often written in the same
  // millisecond, so their ids share a random stem and end in their place in the hand-in: the list
  // keeps the order they were handed in.
  const stem = newId("tfl").slice(0, -4);
  for (const [i, f] of files.entries()) {
    const row = await tx.attachTaskFile({
      id: `${stem}${i.toString(16).padStart(4, "0")}`,
      taskId: task.id,
      companyId: state.company.id,
      name: f.name,
      mediaType: f.mediaType,
      addedBy: actorKey(actor),
      runId: actor.runId,
      content: f.content,
    });
    attached.push({ id: row.id, name: row.name, size: row.size, sha256: row.sha256 });
  }
  let updated = task;
  if (change.status !== undefined || change.deliverable !== undefined || files.length > 0) {
    updated = await tx.updateTask(task.id, {
      ...(status !== undefined ? { status } : {}),
      // Who wrote it is recorded with it: a reassignment later never makes it someone else's.
      ...(change.deliverable !== undefined
        ? { deliverable: change.deliverable, deliverableBy: actorKey(actor) }
        : {}),
    });
    const finished = isFinishedTask(updated.status);
    const unblocked: TaskRow[] = [];
    if (finished)
      for (const t of await tx.listTasksBlockedBy(task.id))
        if (!isFinishedTask(t.status) && (await openBlockers(tx, t)).length === 0) unblocked.push(t);
    wakes.push(
      ...(await recordChange(
        tx,
        state,
        actor,
        finished
          ? { kind: "finished", task: updated, unblocked }
          : handIn
            ? {
                kind: "handed_in",
                task: updated,
                reviewerAgentId: (await reviewerOf(tx, state, updated)).agentId,
              }
            : { kind: "updated", task: updated },
        {
          type: "task.updated",
          data: {
            from: task.status,
            status: updated.status,
            deliverable: change.deliverable !== undefined,
            ...(attached.length > 0 ? { files: attached.map((f) => f.name) } : {}),
          },
        },
      )),
    );
  }
  const answer = await result(tx, state, updated, wakes);
  return answer.ok && attached.length > 0 ? { ok: true, value: { ...answer.value, attached } } : answer;
}

/** update_task: the assignee moves its own task on, comments on it, hands in its deliverable. */
export async function updateTask(
  store: Store,
  actor: Actor,
  input: UpdateTaskInput,
  call: ToolCallRef = {},
): Promise<ActionResult<TaskResult>> {
  const op = "update_task";
  const { files: paths, ...fields } = input;
  let files: WorkspaceFile[] = [];
  if (paths !== undefined) {
    if (actor.agentId === null || actor.workspace === undefined)
      return Promise.resolve(
        refuse(op, "files", "are attached by an agent from its own workspace; this session has none"),
      );
    // Read before the transaction (no I/O inside one); a refusal here writes nothing.
    const read = await readWorkspaceFiles(actor.workspace, paths);
    if (!read.ok) {
      // A call recorded already (a redelivered call) answers as it did, whatever the files are now.
      if (!(await recordedCall(store, actor, call))) return refuse(op, "files", read.why);
    } else files = read.files;
  }
  return operate(store, actor, op, input, call, async (tx, state) => {
    const agent = actingAgent(op, state, actor);
    const task = await taskOf(op, tx, state, input.taskId);
    if (agent && task.assigneeAgentId !== agent.id)
      fail(
        op,
        "taskId",
        `task ${task.id} is assigned to ${(await nameOf(tx, state, task.assigneeAgentId)) ?? "nobody"}; you update only the tasks assigned to you`,
      );
    return changeTask(op, tx, state, actor, task, { ...fields, files });
  });
}

async function recordedCall(store: Store, actor: Actor, call: ToolCallRef): Promise<boolean> {
  if (actor.runId === null || !call.toolCallId) return false;
  return (await store.getToolCall(actor.runId, call.toolCallId)) !== undefined;
}

/** The operator's comment on any task of the company; it wakes the assignee of an open task. */
export function commentOnTask(
  store: Store,
  actor: Actor,
  input: CommentTaskInput,
): Promise<ActionResult<TaskResult>> {
  const op = "comment";
  return operate(store, actor, op, input, {}, async (tx, state) => {
    actingAgent(op, state, actor);
    const task = await taskOf(op, tx, state, input.taskId);
    if (actor.agentId !== null && task.assigneeAgentId !== actor.agentId)
      fail(op, "taskId", `task ${task.id} is not assigned to you; agents comment on their own tasks`);
    return changeTask(op, tx, state, actor, task, { comment: input.body });
  });
}

/** The operator closes a task: done (with a deliverable) or cancelled. */
export function closeTask(
  store: Store,
  actor: Actor,
  input: CloseTaskInput,
): Promise<ActionResult<TaskResult>> {
  const op = "close";
  return operate(store, actor, op, input, {}, async (tx, state) => {
    const agent = actingAgent(op, state, actor);
    const task = await taskOf(op, tx, state, input.taskId);
    if (agent && task.creatorAgentId !== agent.id) {
      if (task.assigneeAgentId !== agent.id)
        fail(op, "taskId", `task ${task.id} is neither yours nor created by you`);
      // Its assignee finishes it (done, which wakes its creator) but never cancels it: cancelling
      // is its creator's or the operator's, as update_task has it.
      if (input.status === "cancelled")
        fail(
          op,
          "status",
          `cancelled is for the task's creator or the operator; as its assignee you set done (with a deliverable), or blocked with a comment saying why`,
        );
    }
    return changeTask(op, tx, state, actor, task, {
      status: input.status,
      ...(input.deliverable !== undefined ? { deliverable: input.deliverable } : {}),
    });
  });
}
