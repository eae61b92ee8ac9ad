// The operator's review of a task handed in (in_review): accept it (done), or request changes
// with the reasons (it goes back to its assignee, who is woken with them). The operator may
// always decide; when the task's review rounds ran out, it is the operator's decision alone.
// Both go through POST /api/tasks/{id}/review, whose refusals are shown as they are.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Task } from "../../api/types.js";
import { ActionError } from "../../ui/action-error.js";
import { useAction } from "../../ui/use-action.js";

export function TaskReview({
  api,
  task,
  reviewer,
  onDone,
}: {
  api: Api;
  task: Task;
  /** Who reviews it, as the review list says (undefined: not known here). */
  reviewer?: string | undefined;
  onDone(): void;
}) {
  const [reasons, setReasons] = useState("");
  const action = useAction();
  if (task.status !== "in_review") return null;
  const review = (decision: "accept" | "request_changes") =>
    void action
      .run(() =>
        api.call("POST /api/tasks/{id}/review", {
          params: { id: task.id },
          body: { decision, ...(decision === "request_changes" ? { reasons } : {}) },
        }),
      )
      .then((ok) => {
        if (!ok) return;
        setReasons("");
        onDone();
      });
  return (
    <form
      class="task-review"
      aria-label={`Review ${task.title}`}
      data-testid="task-review"
      onSubmit={(e) => {
        e.preventDefault();
        review("request_changes");
      }}
    >
      <p class="muted small">
        Handed in{reviewer ? `; reviewed by ${reviewer}` : ""}. You may accept it or ask for changes.
      </p>
      <label for={`reasons-${task.id}`}>What is to change, and why</label>
      <textarea
        id={`reasons-${task.id}`}
        rows={2}
        value={reasons}
        onInput={(e) => setReasons(e.currentTarget.value)}
      />
      <div class="actions">
        <button type="button" aria-disabled={action.busy} onClick={() => review("accept")}>
          Accept
        </button>
        <button type="submit" aria-disabled={action.busy}>
          Request changes
        </button>
      </div>
      <ActionError error={action.error} />
    </form>
  );
}
