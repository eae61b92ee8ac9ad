// review_task: the CEO accepts work handed in to it, or sends it back with reasons.
// Offered to the CEO once the company operates; the operation (work/review.ts) decides who may.
import { reviewTask } from "../work/review.js";
import { reviewTaskSchema } from "../work/task-schema.js";
import { TASK_MODES } from "../work/tasks.js";
import { defineCompanyTool } from "./entry.js";

export const REVIEW_TASK_DESCRIPTION =
  "Review a task handed in to you (status in_review): accept it, and it is done; or request_changes with your reasons, and it goes back to its assignee, who is told them.";

export const reviewTaskTool = defineCompanyTool({
  name: "review_task",
  label: "Review task",
  description: REVIEW_TASK_DESCRIPTION,
  schema: reviewTaskSchema,
  run: reviewTask,
  roles: { ceo: { offeredIn: TASK_MODES, usableIn: TASK_MODES } },
  contract: { source: "packages/company/src/tools/review-task.ts" },
  frozenByEval: false,
  summarize: (d) =>
    `task ${d.taskId} ${d.status}${d.escalated ? `; past ${d.changeRounds} rounds of changes, the operator decides` : ""}${d.wakes?.length ? `; wakes ${d.wakes.join(", ")}` : ""}`,
});
