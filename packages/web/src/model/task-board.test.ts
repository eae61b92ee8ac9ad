import { describe, expect, it } from "vitest";
import type { Agent, Task } from "../api/types.js";
import { taskBoard, taskToolSummary } from "./task-board.js";

const task = (id: string, over: Partial<Task> = {}): Task => ({
  id,
  companyId: "c",
  title: `Task ${id}`,
  description: "",
  status: "todo",
  assigneeAgentId: "a1",
  creator: "ceo",
  deliverable: null,
  deliverableBy: null,
  blockers: [],
  parentTaskId: null,
  strategyId: null,
  checkedOutBy: null,
  via: "tool",
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
  ...over,
});
const agent = (id: string, name: string) => ({ id, name }) as Agent;

describe("the Tasks board", () => {
  it("one column per status, with names, and the blockers still open by title; a task waiting for open work is blocked", () => {
    const board = taskBoard(
      [
        task("t1", { status: "done", deliverable: "x" }),
        task("t2", { blockers: ["t1", "t3"] }),
        task("t3", { creator: "operator", assigneeAgentId: null }),
      ],
      [agent("a1", "CTO"), agent("ceo", "CEO")],
    );
    expect(board.map((c) => [c.title, c.cards.map((x) => x.task.id)])).toEqual([
      ["To do", ["t3"]],
      ["In progress", []],
      ["Blocked", ["t2"]],
      ["In review", []],
      ["Done", ["t1"]],
      ["Cancelled", []],
    ]);
    const [t3] = board[0]!.cards;
    const [t2] = board[2]!.cards;
    expect(t2).toMatchObject({
      assignee: "CTO",
      creator: "CEO",
      waitingFor: [{ id: "t3", title: "Task t3" }],
    });
    expect(t3).toMatchObject({ assignee: "nobody", creator: "the operator" });
  });

  it("a deliverable is shown as its writer's, whoever the task is assigned to now", () => {
    const [todo] = taskBoard(
      [task("t1", { assigneeAgentId: "a2", deliverable: "Draft.", deliverableBy: "a1" })],
      [agent("a1", "CTO"), agent("a2", "CRO")],
    );
    expect(todo!.cards[0]).toMatchObject({ assignee: "CRO", deliverableBy: "CTO" });
    const [, , , , done] = taskBoard(
      [task("t2", { status: "done", deliverable: "Final.", deliverableBy: "operator" })],
      [agent("a1", "CTO")],
    );
    expect(done!.cards[0]).toMatchObject({ deliverableBy: "the operator" });
  });

  it("a task tool call's result reads as what it did", () => {
    expect(
      taskToolSummary(
        JSON.stringify({ taskId: "task_1", status: "in_progress", assignee: "CTO", wakes: [] }),
      ),
    ).toBe("task_1 → in progress, CTO");
    expect(
      taskToolSummary(JSON.stringify({ taskId: "task_2", status: "todo", assignee: "CRO", wakes: ["CRO"] })),
    ).toBe("task_2 → todo, CRO; wakes CRO");
    expect(taskToolSummary(JSON.stringify({ assigned: [1], created: [] }))).toBe(
      "1 task(s) assigned, 0 created",
    );
    expect(taskToolSummary("update_task was not run, nothing was written.")).toBeUndefined();
    // A hire's result is no task change.
    expect(taskToolSummary(JSON.stringify({ agentId: "agt_1", name: "CTO", role: "CTO" }))).toBeUndefined();
  });
});
