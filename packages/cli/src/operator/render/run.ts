// `cadre run`, rendered once for both adapters: each tick, each run as it starts, its events and its
// end, the refusals, the summary, and the --json object.
import type { ScheduleTick } from "@cadre/company";
import { addUsage, emptyUsage } from "@cadre/core";
import { usageSummaryJson } from "@cadre/model";
import { createRenderer } from "../../render.js";
import { signalExitCode } from "../../signals.js";
import type { DueRunReport, DueWatcher } from "../port.js";

/** Writes each step to `say` (stdout, or stderr with --json); `problem` lines go to `err`. */
export function dueWatcher(
  say: (text: string) => void,
  err: (text: string) => void,
  options: { quiet: boolean },
): DueWatcher {
  let render: ReturnType<typeof createRenderer> | undefined;
  return {
    tick: (t: ScheduleTick, who) =>
      say(
        `⏱ schedule of ${who}: ${t.outcome === "woken" ? "woken" : `skipped (${t.reason}) — no model call`}${t.ticks > 1 ? `, ${t.ticks} ticks collapsed into one` : ""}\n`,
      ),
    started(s) {
      say(
        `\n▶ run ${s.runId} — ${s.agentName}, trigger ${s.trigger}, mode ${s.mode}\n  cue "${s.cue}" (${s.cueTokens} tokens)\n`,
      );
      render = options.quiet ? undefined : createRenderer(say, s.agentName);
    },
    event: (event) => render?.(event),
    ended: (w) =>
      say(
        `■ run ${w.runId} — ${w.terminal}; took ${w.requests.length} due reason(s)${w.tasks.length ? ` about ${w.tasks.join(", ")}` : ""}\n`,
      ),
    problem: (p) => err(`cadre run: ${p.agent} (${p.agentId}) was not woken: ${p.message}\n`),
  };
}

export function dueSummaryText(report: DueRunReport): string {
  const failed = report.wakes.filter((w) => w.terminal !== "done").length;
  const skipped = report.ticks.filter((t) => t.outcome === "skipped").length;
  const running = report.running ?? [];
  const state =
    report.stillDue.length > 0
      ? `still due: ${report.stillDueNames.join(", ")}`
      : running.length > 0
        ? "nothing is due here"
        : "nothing is due";
  const elsewhere =
    running.length > 0
      ? `; still running in another process: ${running.map((r) => `${r.agent} (run ${r.runId})`).join(", ")}: its end may make more work due`
      : "";
  return `\n${report.wakes.length} run(s)${failed ? `, ${failed} not done` : ""}; ${skipped} schedule tick(s) skipped; ${state}${elsewhere}\n`;
}

/** Nothing due and nothing running: only then is the company idle. */
export function isIdle(report: DueRunReport): boolean {
  return report.stillDue.length === 0 && (report.running ?? []).length === 0;
}

/** What `cadre run` says (and exits with) when another one runs the company's due work. */
export const RUN_OWNED_EXIT = 3;

export function dueJson(report: DueRunReport): Record<string, unknown> {
  const usage = emptyUsage();
  for (const w of report.wakes) addUsage(usage, w.usage);
  const wakes = report.wakes.map((w) => ({
    runId: w.runId,
    agentId: w.agentId,
    agent: w.agent,
    trigger: w.trigger,
    terminal: w.terminal,
    requests: w.requests,
    tasks: w.tasks,
    usage: usageSummaryJson(w.usage),
  }));
  return {
    wakes,
    ticks: report.ticks,
    problems: report.problems,
    stillDue: report.stillDue,
    running: report.running ?? [],
    idle: isIdle(report),
    runs: wakes.length,
    usage: usageSummaryJson(usage),
  };
}

/** 130 / 143 after a signal; 1 when a run did not end done or an agent could not be woken. */
export function dueExitCode(report: DueRunReport): number {
  if (report.interrupted) return signalExitCode(report.interrupted);
  const failed = report.wakes.some((w) => w.terminal !== "done");
  return failed || report.problems.length > 0 ? 1 : 0;
}
