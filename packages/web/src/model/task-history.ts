// A task's history as an operator reads it: each activity row in words — what changed and who did
// it (the row's `by`: the operator or an agent), the woken agent for a wake — never the raw event
// type. Agent ids become names through `name`.

export interface HistoryRow {
  type: string;
  agentId: string | null;
  data: unknown;
}

const STATUS: Record<string, string> = {
  todo: "to do",
  in_progress: "in progress",
  blocked: "blocked",
  done: "done",
  cancelled: "cancelled",
  in_review: "in review",
};

export function historyLine(row: HistoryRow, name: (id: string | null) => string): string {
  const d = (row.data ?? {}) as Record<string, unknown>;
  const by = typeof d["by"] === "string" ? ` by ${name(d["by"] as string)}` : "";
  const status = (s: unknown) => (typeof s === "string" ? (STATUS[s] ?? s) : "?");
  switch (row.type) {
    case "task.created":
      return `created${by}`;
    case "task.assigned":
      return `assigned to ${name((d["to"] as string | undefined) ?? null)}${by}`;
    case "task.commented":
      return `commented${by}`;
    case "task.updated":
      return d["from"] !== d["status"]
        ? `${status(d["from"])} → ${status(d["status"])}${by}`
        : `updated${d["deliverable"] ? " (deliverable)" : ""}${by}`;
    case "task.checked_out":
      return `taken up by ${name(row.agentId)}'s run`;
    case "task.released":
      return "released by its run";
    case "wake.requested":
      return `woke ${name((d["agentId"] as string | undefined) ?? row.agentId)}`;
    case "wake.dropped":
      return `a wake of ${name((d["agentId"] as string | undefined) ?? row.agentId)} was dropped`;
    default:
      return `${row.type.replace(/^task\./, "").replace(/[._]/g, " ")}${by}`;
  }
}
