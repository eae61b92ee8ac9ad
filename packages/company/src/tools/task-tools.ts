// The task tools, defined like hire_agent: the schema (the model-facing JSON Schema and
// the strict validator), a description, and the operation every path shares (work/tasks.ts). The
// CEO is given them in the operating company; a member always has its own tasks' two.
import { CEO_MODES } from "@cadre/model";
import { listMyTasks } from "../work/my-tasks.js";
import {
  assignTaskSchema,
  createTaskSchema,
  listMyTasksSchema,
  updateTaskSchema,
} from "../work/task-schema.js";
import { assignTask, createTask, TASK_MODES, type TaskResult, updateTask } from "../work/tasks.js";
import { defineCompanyTool, type RoleOffer } from "./entry.js";
import { toolValidator } from "./validate.js";

export const CREATE_TASK_DESCRIPTION =
  "Create a task for a member of your team: a short title, what is to be done, and who does it. The member is told and starts on it. Returns the task id.";
export const ASSIGN_TASK_DESCRIPTION =
  "Give an open task to another member of your team. The new assignee is told; the previous one no longer works on it.";
export const UPDATE_TASK_DESCRIPTION =
  "Update a task assigned to you: its status (in_progress when you start, blocked when you cannot go on, done together with your deliverable), a comment, the deliverable itself, or files from your workspace to hand in with it.";
export const LIST_MY_TASKS_DESCRIPTION =
  "List the tasks assigned to you and the tasks you created, with their status, open blockers and deliverables.";

export const validateCreateTaskInput = toolValidator("create_task", createTaskSchema);
export const validateAssignTaskInput = toolValidator("assign_task", assignTaskSchema);
export const validateUpdateTaskInput = toolValidator("update_task", updateTaskSchema);
export const validateListMyTasksInput = toolValidator("list_my_tasks", listMyTasksSchema);

/** The CEO, once the company operates (members run only then, and always get their own tasks). */
const CEO_OPERATING: RoleOffer = { offeredIn: TASK_MODES, usableIn: TASK_MODES };
const MEMBER: RoleOffer = { offeredIn: CEO_MODES, usableIn: TASK_MODES };

function taskLine(d: TaskResult): string {
  // `wakes` is optional here: a run's events read back over the API carry what was recorded.
  const wakes: readonly string[] = d.wakes ?? [];
  const attached = d.attached ?? [];
  return `task ${d.taskId} ${d.status}, assigned to ${d.assignee ?? "nobody"}${attached.length ? `; attached ${attached.map((f) => f.name).join(", ")}` : ""}${wakes.length ? `; wakes ${wakes.join(", ")}` : ""}`;
}

export const createTaskTool = defineCompanyTool({
  name: "create_task",
  label: "Create task",
  description: CREATE_TASK_DESCRIPTION,
  schema: createTaskSchema,
  run: createTask,
  roles: { ceo: CEO_OPERATING },
  contract: { source: "packages/company/src/tools/task-tools.ts" },
  frozenByEval: false,
  summarize: taskLine,
});

export const assignTaskTool = defineCompanyTool({
  name: "assign_task",
  label: "Assign task",
  description: ASSIGN_TASK_DESCRIPTION,
  schema: assignTaskSchema,
  run: assignTask,
  roles: { ceo: CEO_OPERATING },
  contract: { source: "packages/company/src/tools/task-tools.ts" },
  frozenByEval: false,
  summarize: taskLine,
});

export const updateTaskTool = defineCompanyTool({
  name: "update_task",
  label: "Update task",
  description: UPDATE_TASK_DESCRIPTION,
  schema: updateTaskSchema,
  run: updateTask,
  roles: { ceo: CEO_OPERATING, member: MEMBER },
  contract: { source: "packages/company/src/tools/task-tools.ts" },
  frozenByEval: false,
  summarize: taskLine,
});

export const listMyTasksTool = defineCompanyTool({
  name: "list_my_tasks",
  label: "List my tasks",
  description: LIST_MY_TASKS_DESCRIPTION,
  schema: listMyTasksSchema,
  run: async (store, actor) => ({ ok: true, value: await listMyTasks(store, actor) }),
  roles: { ceo: CEO_OPERATING, member: MEMBER },
  contract: { source: "packages/company/src/tools/task-tools.ts" },
  frozenByEval: false,
});
