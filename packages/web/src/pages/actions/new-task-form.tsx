// Creating a task from the Tasks view (POST /api/companies/{id}/tasks, the create_task input):
// title, description and, optionally, who does it — assigning it wakes the assignee. A refusal is
// the API's one line, and the form keeps what was typed.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent } from "../../api/types.js";
import { ActionError } from "../../ui/action-error.js";
import { useAction } from "../../ui/use-action.js";

export function NewTaskForm({
  api,
  companyId,
  agents,
  onDone,
}: {
  api: Api;
  companyId: string;
  agents: Agent[];
  onDone(): void;
}) {
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [assignee, setAssignee] = useState("");
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await action.run(() =>
      api.call("POST /api/companies/{id}/tasks", {
        params: { id: companyId },
        body: {
          title,
          ...(description.trim() ? { description } : {}),
          ...(assignee ? { assignee } : {}),
        },
      }),
    );
    if (!ok) return;
    setTitle("");
    setDescription("");
    setAssignee("");
    onDone();
  };
  return (
    <form class="card wide action-form" aria-label="New task" onSubmit={(e) => void submit(e)}>
      <h2>New task</h2>
      <label for="new-task-title">Title</label>
      <input id="new-task-title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      <label for="new-task-description">Description (optional)</label>
      <textarea
        id="new-task-description"
        rows={2}
        value={description}
        onInput={(e) => setDescription(e.currentTarget.value)}
      />
      <label for="new-task-assignee">Assignee</label>
      <select id="new-task-assignee" value={assignee} onChange={(e) => setAssignee(e.currentTarget.value)}>
        <option value="">Nobody yet</option>
        {agents
          .filter((a) => a.status === "active")
          .map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.role})
            </option>
          ))}
      </select>
      <div class="actions">
        <button type="submit" class="primary" aria-disabled={action.busy}>
          Create task
        </button>
      </div>
      <ActionError error={action.error} />
    </form>
  );
}
