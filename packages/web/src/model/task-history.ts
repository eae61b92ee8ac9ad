// A task's history as an operator reads it: each activity row in words — what changed and who did
// it (the row's `by`: the operator or an agent), the woken agent for a wake — never the raw event
// type. Agent ids become names through `name`.
import type { DomainEvent, TaskStatus } from "@cadre/model";

/** A task's activity: a domain event (its `type` narrows its `data`) and the agent of its row. */
export type HistoryRow = { agentId: string | null } & DomainEvent;

const STATUS: Record<TaskStatus, string> = {
  todo: "to do",
  in_progress: "in progress",
  blocked: "blocked",
  done: "done",
  cancelled: "cancelled",
  in_review: "in review",
};

export function historyLine(row: HistoryRow, name: (id: string | null) => string): string {
  const by = (actor: string) => ` by ${name(actor)}`;
  switch (row.type) {
    case "task.created":
      return `created${by(row.data.by)}`;
    case "task.assigned":
      return `assigned to ${name(row.data.to)}${by(row.data.by)}`;
    case "task.commented":
      return `commented${by(row.data.by)}`;
    case "task.updated": {
      const d = row.data;
      return d.from !== d.status
        ? `${STATUS[d.from]} → ${STATUS[d.status]}${by(d.by)}`
        : `updated${d.deliverable ? " (deliverable)" : ""}${by(d.by)}`;
    }
    case "task.checked_out":
      return `taken up by ${name(row.agentId)}'s run`;
    case "task.released":
      return "released by its run";
    // The woken agent, not who caused it.
    case "wake.requested":
      return `woke ${name(row.data.agentId)}`;
    case "wake.dropped":
      return `a wake of ${name(row.data.agentId)} was dropped`;
    default: {
      // Any other event of the task, in words from its type, with who did it when it says.
      const actor = "by" in row.data && typeof row.data.by === "string" ? by(row.data.by) : "";
      return `${row.type.replace(/^task\./, "").replace(/[._]/g, " ")}${actor}`;
    }
  }
}
