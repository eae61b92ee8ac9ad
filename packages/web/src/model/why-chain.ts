// A run's why (GET /api/runs/{id}/why) as the panel shows it: each reason on a line, the run it
// came from under it, indented, each run once — down to an operator's action or a schedule.
import type { AnswerOf } from "@cadre/server/client";

export type RunWhy = AnswerOf<"GET /api/runs/{id}/why">;

export interface WhyLine {
  depth: number;
  /** The run this line explains (links to it), or null for a reason. */
  runId: string | null;
  text: string;
}

const TRIGGER_WORDS: Record<string, string> = {
  start_team_building: "start team building",
  approval_decided: "an approval decided",
  task_assigned: "a task assigned",
  task_commented: "a comment",
  task_unblocked: "a task unblocked",
  task_done: "a task done",
  task_resumed: "a task resumed",
  scheduled: "its schedule",
  routine: "a routine wake",
};

function byWords(by: RunWhy["runs"][number]["reasons"][number]["by"]): string {
  // The operator token of `cadre serve` is named "operator": "by the operator", not "by operator operator".
  if (by.type === "operator") return by.name === "operator" ? "the operator" : `operator ${by.name}`;
  return by.type === "system" ? "the system" : by.name;
}

export function whyLines(why: RunWhy): WhyLine[] {
  const byId = new Map(why.runs.map((r) => [r.runId, r]));
  const shown = new Set<string>();
  const out: WhyLine[] = [];
  const visit = (runId: string, depth: number) => {
    const run = byId.get(runId);
    if (!run || shown.has(runId)) return;
    shown.add(runId);
    out.push({
      depth,
      runId,
      text: `${run.agentName} woke for ${TRIGGER_WORDS[run.trigger] ?? run.trigger} (${run.status})`,
    });
    for (const r of run.reasons) {
      const refs = [r.taskId && `task ${r.taskId}`, r.approvalId && `approval ${r.approvalId}`].filter(
        Boolean,
      );
      out.push({
        depth: depth + 1,
        runId: null,
        text: `← ${r.cause}${refs.length ? ` [${refs.join(", ")}]` : ""} — by ${byWords(r.by)}${r.fromRunId ? `, in run ${r.fromRunId}` : ""}`,
      });
      if (r.fromRunId) visit(r.fromRunId, depth + 2);
    }
  };
  visit(why.runId, 0);
  return out;
}

/** Audit rows as JSON Lines: one object a line, as `cadre audit --jsonl` writes them. */
export function jsonLines(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
}
