// A task: the store's record. Its API view (company work/task-view.ts) names two fields for the
// operator: `creator` (an agent id, or "operator") and `checkedOutBy`.
import type { Static } from "typebox";
import { Type } from "typebox";
import { Nullable, OneOf } from "../schema.js";
import { TASK_STATUSES, VIAS } from "../vocabulary.js";
import { Closed } from "./fields.js";

export const TaskRowSchema = Closed({
  id: Type.String(),
  companyId: Type.String(),
  title: Type.String(),
  description: Type.String(),
  status: OneOf(TASK_STATUSES),
  assigneeAgentId: Nullable(Type.String({ description: "The agent working it; null: nobody yet." })),
  creatorAgentId: Nullable(Type.String({ description: "The agent that created it; null: the operator." })),
  deliverable: Nullable(Type.String()),
  deliverableBy: Nullable(
    Type.String({
      description:
        'Who handed the deliverable in: an agent id, or "operator" — whoever it is assigned to now. Null: no deliverable, or one from before authorship was recorded.',
    }),
  ),
  blockers: Type.Array(Type.String(), { description: "Tasks that must be done before this one starts." }),
  parentTaskId: Nullable(Type.String()),
  strategyId: Nullable(Type.String({ description: "The approved strategy it was created under." })),
  checkoutRunId: Nullable(
    Type.String({ description: "The run working it now (its checkout), one at a time; null: none." }),
  ),
  via: OneOf(VIAS),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type TaskRow = Static<typeof TaskRowSchema>;
