// The task inputs: one schema per operation, behind the model-facing tools, the HTTP
// routes, the CLI and validation alike, under the text policy of every other entry point.
import { OneOf, type Static, Text } from "@cadre/model";
import { Type } from "typebox";
import { MAX_FILE_BYTES, MAX_FILES } from "./workspace-files.js";

export const TaskId = Text({ maxLength: 64, description: "A task id, as list_my_tasks shows it." });
export const TaskTitle = Text({ maxLength: 200, description: "A short title, one line." });
export const TaskDescription = Text({
  maxLength: 8000,
  multiline: true,
  description: "What is to be done and what done looks like.",
});
export const TaskCommentBody = Text({
  maxLength: 4000,
  multiline: true,
  description: "A comment on the task.",
});
export const TaskDeliverable = Text({
  maxLength: 20_000,
  multiline: true,
  description: "What the work produced: the result itself, or where it is and what it says.",
});
export const AssigneeRef = Text({
  maxLength: 100,
  description:
    "The team member who does the work: their name as the company directory shows it, or their agent id.",
});

export const createTaskSchema = Type.Object(
  {
    title: TaskTitle,
    description: Type.Optional(TaskDescription),
    assignee: Type.Optional(AssigneeRef),
    blockedBy: Type.Optional(
      Type.Array(TaskId, {
        maxItems: 20,
        description: "Tasks that must be done before this one can start.",
      }),
    ),
    parentTaskId: Type.Optional(TaskId),
  },
  { additionalProperties: false },
);
export type CreateTaskInput = Static<typeof createTaskSchema>;

export const assignTaskSchema = Type.Object(
  { taskId: TaskId, assignee: AssigneeRef },
  { additionalProperties: false },
);
export type AssignTaskInput = Static<typeof assignTaskSchema>;

/** The statuses an assignee sets; cancelling is the creator's or the operator's. */
export const ASSIGNEE_STATUSES = ["todo", "in_progress", "blocked", "done"] as const;

export const updateTaskSchema = Type.Object(
  {
    taskId: TaskId,
    status: Type.Optional(
      OneOf(ASSIGNEE_STATUSES, {
        description: "in_progress when you start, blocked when you cannot go on, done with a deliverable.",
      }),
    ),
    comment: Type.Optional(TaskCommentBody),
    deliverable: Type.Optional(TaskDeliverable),
    files: Type.Optional(
      Type.Array(
        Text({
          maxLength: 300,
          description: "A file in your workspace, by its path relative to the workspace.",
        }),
        {
          minItems: 1,
          maxItems: MAX_FILES,
          description: `Files from your workspace to hand in with the task (paths relative to it): at most ${MAX_FILES}, each a regular file of at most ${MAX_FILE_BYTES / (1024 * 1024)} MiB. A copy is kept with the task; later edits of the file do not change it.`,
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTaskInput = Static<typeof updateTaskSchema>;

export const listMyTasksSchema = Type.Object({}, { additionalProperties: false });

/** The operator closes a task: done (with a deliverable, given now or already there) or cancelled. */
export const closeTaskSchema = Type.Object(
  {
    taskId: TaskId,
    status: OneOf(["done", "cancelled"] as const),
    deliverable: Type.Optional(TaskDeliverable),
  },
  { additionalProperties: false },
);
export type CloseTaskInput = Static<typeof closeTaskSchema>;

export const commentTaskSchema = Type.Object(
  { taskId: TaskId, body: TaskCommentBody },
  { additionalProperties: false },
);
export type CommentTaskInput = Static<typeof commentTaskSchema>;

export const REVIEW_DECISIONS = ["accept", "request_changes"] as const;

export const reviewTaskSchema = Type.Object(
  {
    taskId: TaskId,
    decision: OneOf(REVIEW_DECISIONS, {
      description:
        "accept: the task is done. request_changes: it goes back to its assignee with your reasons.",
    }),
    reasons: Type.Optional(
      Text({
        maxLength: 4000,
        multiline: true,
        description: "What is to change and why; required with request_changes.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewTaskInput = Static<typeof reviewTaskSchema>;
