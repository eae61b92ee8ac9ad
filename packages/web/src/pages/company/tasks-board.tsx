// The Tasks view: the company's work as a board, one column per status — who does each task, who
// asked for it, what it waits for, the run holding it now, and its deliverable once handed in.
// It follows the company's task events live (use-company re-reads the tasks on each).
import type { Agent, Task } from "../../api/types.js";
import { taskBoard } from "../../model/task-board.js";
import { href } from "../../route.js";

export function TasksBoard({
  companyId,
  tasks,
  agents,
}: {
  companyId: string;
  tasks: Task[];
  agents: Agent[];
}) {
  if (tasks.length === 0)
    return (
      <p class="muted" data-testid="no-tasks">
        No task yet. Once the strategy is approved, the CEO turns its first milestones into tasks for the
        leads (or create one: <code>cadre tasks create</code>).
      </p>
    );
  return (
    <section class="board" aria-label="Tasks by status" data-testid="tasks-board">
      {taskBoard(tasks, agents).map((column) => (
        <div class="board-column card" key={column.status} data-testid={`column-${column.status}`}>
          <h2>
            {column.title} <span class="count">{column.cards.length}</span>
          </h2>
          {column.cards.map(({ task, assignee, creator, deliverableBy, waitingFor }) => (
            <article class="task-card" key={task.id} data-testid="task-card">
              <h3>{task.title}</h3>
              <p class="muted">
                {assignee} · asked by {creator} · <code>{task.id}</code>
              </p>
              {waitingFor.length > 0 && <p class="badge warn">waits for {waitingFor.join(", ")}</p>}
              {task.checkedOutBy && (
                <p>
                  <a href={href({ page: "run", companyId, runId: task.checkedOutBy })}>
                    working now: {task.checkedOutBy}
                  </a>
                </p>
              )}
              {task.deliverable && (
                <details>
                  <summary>Deliverable{deliverableBy ? ` by ${deliverableBy}` : ""}</summary>
                  <pre class="deliverable">{task.deliverable}</pre>
                </details>
              )}
            </article>
          ))}
        </div>
      ))}
    </section>
  );
}
