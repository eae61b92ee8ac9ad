// A run as an operator reads it, from the fold: why it woke in words, how it ended in one line
// (a budget or run-cap stop named as such), and which rows are the operator's and which are the
// harness's own bookkeeping (model-call headers, usage, context policy, the spend control's
// repeats of the stop), shown only when asked for.
import type { Run } from "../api/types.js";
import type { RunItem, RunState } from "./run-fold.js";

const TRIGGER_WORDS: Record<string, string> = {
  start_team_building: "the operator started team building",
  approval_decided: "an approval was decided",
  operator_message: "the operator wrote to the CEO",
  task_resumed: "a task was resumed",
  task_unassigned: "a task was taken off it",
  task_assigned: "a task was assigned to it",
  task_commented: "a task was commented on",
  task_changes_requested: "changes were asked for on a task",
  task_unblocked: "a task was unblocked",
  task_in_review: "a task was handed in for review",
  task_done: "a task was done",
  scheduled: "its schedule came due",
  routine: "a routine wake",
};

/** Why the agent woke, in words (an unknown trigger of a newer server: its name, spaced). */
export function triggerWords(trigger: string): string {
  return TRIGGER_WORDS[trigger] ?? trigger.replace(/_/g, " ");
}

export type StopKind = "budget" | "run_cap";

export interface Outcome {
  state: RunState;
  /** The one line: "Done", "Stopped by the budget: …", "Failed: …". */
  text: string;
  tone: "ok" | "info" | "warn";
  /** Set when spend control stopped the run. */
  stop?: StopKind;
}

const STOP_NAMES: Record<StopKind, string> = {
  budget: "Stopped by the budget",
  run_cap: "Stopped by the run's cap",
};

/** The stop's prefix core puts on the terminal reason ("run_cap: …"), and the CLI hint it ends with. */
const STOP_PREFIX = /^(budget|run_cap):\s*/;
const CLI_HINT = /;\s*raise it with `[^`]*`\.?$/;

/** The stop spend control recorded (the run row's, else the terminal reason's prefix), or undefined. */
export function stopOf(run: Run | undefined, items: readonly RunItem[]): StopKind | undefined {
  if (run?.stopReason === "budget" || run?.stopReason === "run_cap") return run.stopReason;
  const end = terminalOf(items);
  const m = end?.reason ? STOP_PREFIX.exec(end.reason) : null;
  return m ? (m[1] as StopKind) : undefined;
}

function terminalOf(items: readonly RunItem[]): Extract<RunItem, { kind: "terminal" }> | undefined {
  const last = items[items.length - 1];
  return last?.kind === "terminal" ? last : undefined;
}

/** How the run ended (or that it goes on), in one line. */
export function runOutcome(run: Run | undefined, items: readonly RunItem[], state: RunState): Outcome {
  const end = terminalOf(items);
  const reason = (end?.reason ?? run?.error ?? "").replace(STOP_PREFIX, "").replace(CLI_HINT, "");
  const stop = stopOf(run, items);
  if (stop) return { state, stop, tone: "warn", text: `${STOP_NAMES[stop]}${reason ? `: ${reason}` : ""}` };
  if (state === "running") return { state, tone: "info", text: "Running" };
  if (state === "done") return { state, tone: "ok", text: "Done" };
  if (state === "cancelled") return { state, tone: "warn", text: `Stopped${reason ? `: ${reason}` : ""}` };
  return { state, tone: "warn", text: `Failed${reason ? `: ${reason}` : ""}` };
}

/** Rows that are the harness's bookkeeping rather than what the agent did. */
const INTERNAL_KINDS = new Set<RunItem["kind"]>([
  "turn",
  "usage",
  "policy",
  "harness",
  "compaction",
  "unknown",
]);

/**
 * The rows an operator reads: what the agent said and did, errors, the end. With `internal`, every
 * row. A spend-control stop is told once (in the header and the end row): the model call it refused
 * and its errors after the last model call that ran are the same stop, so they are internal too.
 */
export function operatorItems(
  items: readonly RunItem[],
  stop: StopKind | undefined,
  internal: boolean,
): RunItem[] {
  if (internal) return [...items];
  let stopFrom = items.length;
  if (stop) {
    // The refused call is the last turn header; everything from it on repeats the stop.
    for (let i = items.length - 1; i >= 0; i--)
      if (items[i]!.kind === "turn") {
        stopFrom = i;
        break;
      }
  }
  return items.filter(
    (item, i) => !INTERNAL_KINDS.has(item.kind) && !(item.kind === "error" && i >= stopFrom),
  );
}

/** How many rows the operator's view leaves out: the fold's count on the toggle. */
export function hiddenCount(items: readonly RunItem[], shown: readonly RunItem[]): number {
  return items.length - shown.length;
}
