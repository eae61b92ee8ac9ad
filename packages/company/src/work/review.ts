// review_task: done means accepted. A task its assignee handed in (in_review) is
// accepted — done, which wakes its creator and what it unblocks — or sent back with reasons (a
// comment, and a wake of its assignee), all in one transaction. Its reviewer is decided in code
// (reviewer.ts); the operator may always decide. Rounds are bounded in code: past the company's
// bound an agent's request for changes goes to the operator to decide instead.
import { DEFAULT_REVIEW_ROUNDS, isFinishedTask, type TaskStatus } from "@cadre/model";
import type { Store, TaskRow } from "@cadre/store";
import { newId } from "../ids.js";
import type { ActionResult, Actor } from "../actions/actor.js";
import type { ToolCallRef } from "../actions/once.js";
import { changeRounds, ESCALATED_ACTIVITY, REVIEW_ACTIVITY, reviewerOf } from "./reviewer.js";
import type { ReviewTaskInput } from "./task-schema.js";
import {
  actingAgent,
  fail,
  openBlockers,
  operate,
  recordChange,
  requireOperating,
  result,
  type TaskResult,
  taskOf,
} from "./tasks.js";

export interface ReviewResult extends TaskResult {
  /** Requests for changes so far, this one included. */
  changeRounds?: number;
  /** True when this request for changes went past the bound: the operator decides now. */
  escalated?: boolean;
}

export function reviewTask(
  store: Store,
  actor: Actor,
  input: ReviewTaskInput,
  call: ToolCallRef = {},
): Promise<ActionResult<ReviewResult>> {
  const op = "review_task";
  return operate(store, actor, op, input, call, async (tx, state) => {
    const agent = actingAgent(op, state, actor);
    requireOperating(op, state);
    const task = await taskOf(op, tx, state, input.taskId);
    if (task.status !== "in_review")
      fail(op, "taskId", `task ${task.id} is ${task.status}; only a task handed in (in_review) is reviewed`);
    const reviewer = await reviewerOf(tx, state, task);
    if (agent && reviewer.agentId !== agent.id)
      fail(
        op,
        "taskId",
        agent.id === task.assigneeAgentId
          ? `task ${task.id} is yours; a task is never accepted by its own assignee: ${reviewer.name} reviews it`
          : `task ${task.id} is reviewed by ${reviewer.name}; you review the tasks you created`,
      );
    const reasons = input.reasons?.trim() ?? "";
    if (input.decision === "request_changes" && reasons === "")
      fail(op, "reasons", "a request for changes says what is to change: give the reasons");
    if (reasons !== "")
      await tx.insertTaskComment({
        id: newId("tcm"),
        taskId: task.id,
        companyId: state.company.id,
        authorAgentId: actor.agentId,
        authorName: actor.agentId === null ? (actor.operator ?? null) : null,
        body: reasons,
        runId: actor.runId,
        via: actor.via,
      });
    if (input.decision === "accept") {
      const updated = await tx.updateTask(task.id, { status: "done" });
      const unblocked: TaskRow[] = [];
      for (const t of await tx.listTasksBlockedBy(task.id))
        if (!isFinishedTask(t.status) && (await openBlockers(tx, t)).length === 0) unblocked.push(t);
      const wakes = await recordChange(
        tx,
        state,
        actor,
        { kind: "finished", task: updated, unblocked },
        { type: REVIEW_ACTIVITY, data: { decision: "accept", from: task.status, status: "done" } },
      );
      return await result(tx, state, updated, wakes);
    }
    const bound = state.company.settings.reviewRounds ?? DEFAULT_REVIEW_ROUNDS;
    const rounds = (await changeRounds(tx, state, task.id)) + 1;
    if (agent && rounds > bound) {
      // Past the bound the task stays handed in and the operator decides (reviewer.ts reads this).
      await tx.insertActivity({
        companyId: state.company.id,
        agentId: actor.agentId,
        runId: actor.runId,
        type: ESCALATED_ACTIVITY,
        data: { taskId: task.id, by: agent.id, rounds: rounds - 1, bound },
      });
      const answer = await result(tx, state, task, []);
      return answer.ok
        ? { ok: true, value: { ...answer.value, changeRounds: rounds - 1, escalated: true } }
        : answer;
    }
    const back: TaskStatus = "in_progress";
    const updated = await tx.updateTask(task.id, { status: back });
    const wakes = await recordChange(
      tx,
      state,
      actor,
      { kind: "changes_requested", task: updated },
      {
        type: REVIEW_ACTIVITY,
        data: { decision: "request_changes", from: task.status, status: back, round: rounds },
      },
    );
    const answer = await result(tx, state, updated, wakes);
    return answer.ok ? { ok: true, value: { ...answer.value, changeRounds: rounds } } : answer;
  });
}
