// The tasks handed in (in_review), each with who is to review it — decided in code (reviewer.ts) —
// and why: the operator's inbox lists those that wait for the operator, first among them the
// ones whose review rounds ran out (escalated past the company's bound).
import { DEFAULT_REVIEW_ROUNDS, Nullable, type Static } from "@cadre/model";
import type { Page, StoreQueries, TaskRow } from "@cadre/store";
import { Type } from "typebox";
import { loadTaskState } from "./task-state.js";
import { changeRounds, isEscalated, reviewerOf } from "./reviewer.js";
import { taskView, TaskViewSchema } from "./task-view.js";

export const WaitingReviewViewSchema = Type.Object(
  {
    task: TaskViewSchema,
    reviewerAgentId: Nullable(Type.String({ description: "The agent that reviews it; null: the operator." })),
    reviewer: Type.String({ description: "Its reviewer's name, or “the operator”." }),
    escalated: Type.Boolean({
      description: "Its review rounds ran out: the operator decides (accept, or request changes).",
    }),
    changeRounds: Type.Integer({ description: "Times it was sent back with changes so far." }),
    bound: Type.Integer({ description: "The company's bound on rounds of changes." }),
  },
  { additionalProperties: false },
);
export type WaitingReviewView = Static<typeof WaitingReviewViewSchema>;

/** The company's tasks handed in (a page of them, oldest first), each with its reviewer. */
export async function waitingReviews(
  q: StoreQueries,
  companyId: string,
  page?: Page,
): Promise<{ rows: TaskRow[]; view(t: TaskRow): Promise<WaitingReviewView> }> {
  const state = await loadTaskState(q, companyId, null);
  const rows = await q.listTasks(companyId, { statuses: ["in_review"], ...(page ? { page } : {}) });
  const bound = state.company.settings.reviewRounds ?? DEFAULT_REVIEW_ROUNDS;
  return {
    rows,
    async view(t) {
      const reviewer = await reviewerOf(q, state, t);
      return {
        task: taskView(t),
        reviewerAgentId: reviewer.agentId,
        reviewer: reviewer.name,
        escalated: await isEscalated(q, state, t.id),
        changeRounds: await changeRounds(q, state, t.id),
        bound,
      };
    },
  };
}
