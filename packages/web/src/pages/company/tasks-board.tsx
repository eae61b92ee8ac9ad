// The Tasks view: the company's work as a board, one column per status — who does each task, who
// asked for it, what it waits for, the run holding it now, and, opened, the task in full (task-detail.tsx).
// It follows the company's task events live (use-company re-reads the tasks on each).
import { useEffect } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent, Task } from "../../api/types.js";
import { taskBoard } from "../../model/task-board.js";
import { href } from "../../route.js";
import { NewTaskForm } from "../actions/new-task-form.js";
import { TaskActions } from "../actions/task-actions.js";
import { TaskReview } from "../actions/task-review.js";
import { TaskDetail } from "./task-detail.js";
import { notAllowed, useMe } from "../../session/permissions.js";

export function TasksBoard({
  api,
  companyId,
  tasks,
  agents,
  focusTask,
  onChanged,
}: {
  api: Api;
  companyId: string;
  tasks: Task[];
  agents: Agent[];
  /** The task a link opened (#/companies/ID/tasks/TASK): shown opened and scrolled to. */
  focusTask?: string;
  /** After the operator changed a task here: re-read the tasks. */
  onChanged(): void;
}) {
  // Creating and acting on tasks is an operator's: a viewer reads the board without the forms.
  const me = useMe();
  const focusLoaded = focusTask !== undefined && tasks.some((t) => t.id === focusTask);
  useEffect(() => {
    if (focusLoaded) document.getElementById(`task-${focusTask}`)?.scrollIntoView({ block: "start" });
  }, [focusTask, focusLoaded]);
  const form = me.may.act ? (
    <NewTaskForm api={api} companyId={companyId} agents={agents} onDone={onChanged} />
  ) : (
    <p class="muted">{notAllowed(me, "act")}</p>
  );
  if (tasks.length === 0)
    return (
      <>
        <p class="muted" data-testid="no-tasks">
          No task yet. Once the strategy is approved, the CEO turns its first milestones into tasks for the
          leads{me.may.act ? "; or create one here" : ""}.
        </p>
        {form}
      </>
    );
  return (
    <>
      {form}
      <section class="board" aria-label="Tasks by status" data-testid="tasks-board">
        {taskBoard(tasks, agents).map((column) => (
          <div class="board-column card" key={column.status} data-testid={`column-${column.status}`}>
            <h2>
              {column.title} <span class="count">{column.cards.length}</span>
            </h2>
            {column.cards.map(({ task, assignee, creator, deliverableBy, waitingFor }) => (
              <article
                class={`task-card${task.id === focusTask ? " focused" : ""}`}
                key={task.id}
                id={`task-${task.id}`}
                data-testid="task-card"
                data-task={task.id}
              >
                <h3>{task.title}</h3>
                <p class="muted">
                  {assignee} · asked by {creator} · <code>{task.id}</code>
                </p>
                {waitingFor.length > 0 && (
                  <p class="waits">
                    <span class="badge warn">waits for</span>{" "}
                    {waitingFor.map((b, i) => (
                      <span key={b.id}>
                        {i > 0 && ", "}
                        {/* A route, not a bare #fragment: the address bar holds the dashboard's place. */}
                        <a href={href({ page: "task", companyId, taskId: b.id })} data-testid="task-blocker">
                          {b.title}
                        </a>
                      </span>
                    ))}
                  </p>
                )}
                {task.checkedOutBy && (
                  <p>
                    <a href={href({ page: "run", companyId, runId: task.checkedOutBy })}>
                      working now: {task.checkedOutBy}
                    </a>
                  </p>
                )}
                <TaskDetail
                  key={`${task.id}:${task.id === focusTask}`}
                  api={api}
                  task={task}
                  agents={agents}
                  deliverableBy={deliverableBy}
                  open={task.id === focusTask}
                />
                {me.may.act && <TaskReview api={api} task={task} onDone={onChanged} />}
                {me.may.act && <TaskActions api={api} task={task} agents={agents} onDone={onChanged} />}
              </article>
            ))}
          </div>
        ))}
      </section>
    </>
  );
}
