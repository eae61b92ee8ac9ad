// The task tools (issue 17), defined once like hire_agent: a TypeBox schema (the model-facing JSON
// Schema and the strict validator), a description, and the handler every path shares
// (work/tasks.ts). Which of them a session gets is decided by role and mode (modes.ts offeredTools),
// and each handler checks the same again.
import { defineTool, textOutcome } from "@cadre/core";
import type { Store } from "@cadre/store";
import { listMyTasks } from "../work/my-tasks.js";
import {
  assignTaskSchema,
  createTaskSchema,
  listMyTasksSchema,
  updateTaskSchema,
} from "../work/task-schema.js";
import { assignTask, createTask, type TaskResult, updateTask } from "../work/tasks.js";
import type { ActionResult, Actor } from "./actor.js";
import { toolValidator } from "./validate.js";

export const CREATE_TASK_DESCRIPTION =
  "Create a task for a member of your team: a short title, what is to be done, and who does it. The member is told and starts on it. Returns the task id.";
export const ASSIGN_TASK_DESCRIPTION =
  "Give an open task to another member of your team. The new assignee is told; the previous one no longer works on it.";
export const UPDATE_TASK_DESCRIPTION =
  "Update a task assigned to you: its status (in_progress when you start, blocked when you cannot go on, done together with your deliverable), a comment, or the deliverable itself.";
export const LIST_MY_TASKS_DESCRIPTION =
  "List the tasks assigned to you and the tasks you created, with their status, open blockers and deliverables.";

export const validateCreateTaskInput = toolValidator("create_task", createTaskSchema);
export const validateAssignTaskInput = toolValidator("assign_task", assignTaskSchema);
export const validateUpdateTaskInput = toolValidator("update_task", updateTaskSchema);
export const validateListMyTasksInput = toolValidator("list_my_tasks", listMyTasksSchema);

function outcome(result: ActionResult<TaskResult>) {
  return result.ok
    ? textOutcome(JSON.stringify(result.value), false, result.value)
    : textOutcome(result.message, true, { fields: result.fields });
}

export function createTaskTool(store: Store, actor: Actor) {
  return defineTool({
    name: "create_task",
    label: "Create task",
    description: CREATE_TASK_DESCRIPTION,
    parameters: createTaskSchema,
    validate: validateCreateTaskInput,
    execute: async (input, context) =>
      outcome(await createTask(store, actor, input, { toolCallId: context.toolCallId })),
  });
}

export function assignTaskTool(store: Store, actor: Actor) {
  return defineTool({
    name: "assign_task",
    label: "Assign task",
    description: ASSIGN_TASK_DESCRIPTION,
    parameters: assignTaskSchema,
    validate: validateAssignTaskInput,
    execute: async (input, context) =>
      outcome(await assignTask(store, actor, input, { toolCallId: context.toolCallId })),
  });
}

export function updateTaskTool(store: Store, actor: Actor) {
  return defineTool({
    name: "update_task",
    label: "Update task",
    description: UPDATE_TASK_DESCRIPTION,
    parameters: updateTaskSchema,
    validate: validateUpdateTaskInput,
    execute: async (input, context) =>
      outcome(await updateTask(store, actor, input, { toolCallId: context.toolCallId })),
  });
}

export function listMyTasksTool(store: Store, actor: Actor) {
  return defineTool({
    name: "list_my_tasks",
    label: "List my tasks",
    description: LIST_MY_TASKS_DESCRIPTION,
    parameters: listMyTasksSchema,
    validate: validateListMyTasksInput,
    async execute() {
      const tasks = await listMyTasks(store, actor);
      return textOutcome(JSON.stringify(tasks), false, tasks);
    },
  });
}
