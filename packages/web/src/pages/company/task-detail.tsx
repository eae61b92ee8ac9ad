// A task as an operator reads it, opened on its card: the description, the deliverable rendered
// as sanitised markdown, the files handed in (opened or downloaded), the comments (who, when), the history (what changed, who, when) and a link
// to every run that worked it. Read when opened (GET /api/tasks/{id}) and again when the task changes.
import { useEffect, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent, Task } from "../../api/types.js";
import { useResource } from "../../hooks/use-resource.js";
import { formatTime } from "../../model/format.js";
import { historyLine } from "../../model/task-history.js";
import { href } from "../../route.js";
import { renderMarkdown } from "../../ui/markdown.js";
import { TaskFiles } from "./task-files.js";

export function TaskDetail({
  api,
  task,
  agents,
  deliverableBy,
  open: initiallyOpen = false,
}: {
  api: Api;
  task: Task;
  agents: Agent[];
  /** Who wrote the deliverable, as recorded with it (the board's words); null: not recorded. */
  deliverableBy: string | null;
  /** Opened from the start: the task a link pointed at. */
  open?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details class="task-detail" open={initiallyOpen} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Details</summary>
      {open && <Loaded api={api} task={task} agents={agents} deliverableBy={deliverableBy} />}
    </details>
  );
}

function Loaded({
  api,
  task,
  agents,
  deliverableBy,
}: {
  api: Api;
  task: Task;
  agents: Agent[];
  deliverableBy: string | null;
}) {
  const detail = useResource(api, "GET /api/tasks/{id}", { params: { id: task.id } });
  const { reload } = detail;
  useEffect(() => reload(), [task.updatedAt, reload]);
  const who = (id: string | null) =>
    id === null || id === "operator" ? "the operator" : (agents.find((a) => a.id === id)?.name ?? id);
  const d = detail.data;
  if (!d) return <p aria-busy="true">{detail.error ?? "Loading…"}</p>;
  // Every run that touched the task, with the agent whose run it was (the wake it took, the
  // history row or comment it wrote), in the order first seen.
  const runs = new Map<string, string | null>();
  const note = (runId: string | null, agentId: string | null) => {
    if (runId === null) return;
    if (!runs.has(runId) || runs.get(runId) === null) runs.set(runId, agentId);
  };
  for (const w of d.wakes) note(w.runId, w.agentId);
  for (const h of d.history) note(h.runId, h.agentId);
  for (const c of d.comments) note(c.runId, c.author === "operator" ? null : c.author);
  return (
    <div class="task-detail-body" data-testid="task-detail">
      {d.description && (
        <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(d.description) }} />
      )}
      {d.deliverable && (
        <>
          <h4>Deliverable{deliverableBy ? ` by ${deliverableBy}` : ""}</h4>
          <div
            class="markdown deliverable"
            dangerouslySetInnerHTML={{ __html: renderMarkdown(d.deliverable) }}
          />
        </>
      )}
      <TaskFiles api={api} taskId={task.id} files={d.files} who={(id) => who(id)} />
      <h4>Comments</h4>
      {d.comments.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="task-comments">
          {d.comments.map((c) => (
            <li key={c.id} data-testid="task-comment">
              <span class="muted small">
                {who(c.author)} · {formatTime(c.createdAt)}
              </span>
              <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(c.body) }} />
            </li>
          ))}
        </ul>
      )}
      <h4>History</h4>
      <ul class="task-history">
        {d.history.map((h) => (
          <li key={h.id} data-testid="task-history">
            {historyLine(h, who)} · <span class="muted">{formatTime(h.at)}</span>
          </li>
        ))}
      </ul>
      {runs.size > 0 && (
        <>
          <h4>Runs that worked it</h4>
          <ul>
            {[...runs].map(([r, agentId]) => (
              <li key={r} data-testid="task-run">
                <a href={href({ page: "run", companyId: task.companyId, runId: r })}>
                  {agentId ? `${who(agentId)}'s run` : "run"}
                </a>{" "}
                <code class="muted small">{r}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
