// What the operator does to one open task, on its card: comment (it wakes the assignee), give it
// to someone else, mark it blocked with the reason, or cancel it (asked once more: a cancelled
// task wakes nobody). Each goes through the task routes, whose refusals are shown as they are.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent, Task } from "../../api/types.js";
import { ActionError } from "../../ui/action-error.js";
import { ConfirmButton } from "../../ui/confirm-button.js";
import { useAction } from "../../ui/use-action.js";

const OPEN = new Set(["todo", "in_progress", "blocked", "in_review"]);

export function TaskActions({
  api,
  task,
  agents,
  onDone,
}: {
  api: Api;
  task: Task;
  agents: Agent[];
  onDone(): void;
}) {
  const [comment, setComment] = useState("");
  const [assignee, setAssignee] = useState(task.assigneeAgentId ?? "");
  const action = useAction();
  if (!OPEN.has(task.status)) return null;
  const id = task.id;
  const act = async (call: () => Promise<unknown>, after?: () => void) => {
    if (await action.run(call)) {
      after?.();
      onDone();
    }
  };
  const params = { id };
  return (
    <details class="task-actions" data-testid="task-actions">
      <summary>Act on this task</summary>
      <form
        aria-label={`Comment on ${task.title}`}
        onSubmit={(e) => {
          e.preventDefault();
          void act(
            () => api.call("POST /api/tasks/{id}/comments", { params, body: { body: comment } }),
            () => setComment(""),
          );
        }}
      >
        <label for={`comment-${id}`}>Comment (wakes the assignee)</label>
        <textarea
          id={`comment-${id}`}
          rows={2}
          value={comment}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
        <div class="actions">
          <button type="submit" aria-disabled={action.busy}>
            Comment
          </button>
          <button
            type="button"
            aria-disabled={action.busy}
            onClick={() =>
              void act(
                () =>
                  api.call("PATCH /api/tasks/{id}", {
                    params,
                    body: { status: "blocked", ...(comment.trim() ? { comment } : {}) },
                  }),
                () => setComment(""),
              )
            }
          >
            Mark blocked
          </button>
        </div>
      </form>
      <form
        aria-label={`Assign ${task.title}`}
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => api.call("POST /api/tasks/{id}/assign", { params, body: { assignee } }));
        }}
      >
        <label for={`assign-${id}`}>Assignee</label>
        <select id={`assign-${id}`} value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
          <option value="">Choose a member</option>
          {agents
            .filter((a) => a.status === "active")
            .map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.role})
              </option>
            ))}
        </select>
        <div class="actions">
          <button type="submit" aria-disabled={action.busy}>
            Assign
          </button>
          <ConfirmButton
            label="Cancel task"
            question={`Cancel "${task.title}"? Nobody works on it any more.`}
            confirmLabel="Cancel the task"
            busy={action.busy}
            onConfirm={() =>
              void act(() =>
                api.call("POST /api/tasks/{id}/close", { params, body: { status: "cancelled" } }),
              )
            }
          />
        </div>
      </form>
      <ActionError error={action.error} />
    </details>
  );
}
