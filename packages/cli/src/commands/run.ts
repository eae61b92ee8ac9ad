// `cadre run [--until-idle] [--max-wakes N] [--json]`: processes the company's due wakes in this
// process — ticks the schedules, then wakes each agent with work waiting (an assignment, an
// operator's comment, finished work it delegated, a task to resume), printing each run. Who is
// woken, when and why is decided in code (work/wake-rules.ts, work/due.ts); a wake whose reason went
// away, or a schedule with no open work, costs nothing.
import { usageSummaryJson } from "@cadre/model";
import { addUsage, emptyUsage } from "@cadre/core";
import { type DueWake, runDue, type ScheduleTick, wakeIfDue } from "@cadre/company";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, recoverInterruptedRuns, storeEnv } from "../context.js";
import { cancelOnSignals } from "../signals.js";
import { type CliIO, UsageError } from "../io.js";
import { createRenderer } from "../render.js";

export const RUN_HELP = `Usage: cadre run [--until-idle] [--max-wakes N] [--company ID] [--seed N] [--quiet] [--data DIR] [--database URL] [--json]

Runs the wakes that are due, here and now, one agent at a time, oldest reason first:
  - an agent a task was assigned to (trigger task_assigned), or whose task the operator commented
    on (task_commented), or whose task's last blocker is done (task_unblocked);
  - the agent that created a task that is now done (task_done: all of them in one wake);
  - the agent that filed an approval the operator decided (approval_decided);
  - a task whose run was interrupted (a killed process): its agent resumes it once (task_resumed);
  - schedules whose tick has come (scheduled), unless the agent has no open work: then the tick is
    skipped before any model call and recorded as skipped.
An agent's own actions never wake it; a finished or cancelled task wakes nobody; each agent's due
reasons are taken by one wake together; one run works a task at a time.

Without --until-idle it runs what is due when it starts (each due agent once); with it, it goes on
while the wakes it ran make more due, until nothing is. --max-wakes N stops after N wakes (default
100); what is still due is listed. Runs whose process died are ended first (interrupted), and the
tasks they held are resumed. Ctrl-C (SIGINT) or SIGTERM cancels the running wake and stops: its
run ends cancelled once, with its usage recorded, said on stderr; exit 130 / 143. The tasks it held
are released, not resumed (a stop is the operator's): a comment on one wakes its assignee again.

Options:
  --company ID   only this company's wakes (default: every company in the store)
  --seed N       seed of the offline model's variation
  --quiet        one line per run instead of its events
  --json         stdout holds one JSON object: { wakes: [{ runId, agentId, agent, trigger, terminal,
                 requests, tasks, usage }], ticks, problems, stillDue, idle, runs, usage }
${DATABASE_HELP}`;

export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("run", args, {
    ...STORE_OPTIONS,
    "until-idle": { type: "boolean" },
    "max-wakes": { type: "string" },
    company: { type: "string" },
    seed: { type: "string" },
    quiet: { type: "boolean" },
  });
  if (values.help) return (io.out(`${RUN_HELP}\n`), 0);
  const maxWakes = values["max-wakes"] === undefined ? 100 : Number(values["max-wakes"]);
  if (!/^\d{1,6}$/.test(values["max-wakes"] ?? "100") || maxWakes < 1)
    throw new UsageError(
      `run: --max-wakes must be a whole number of at least 1 (got "${values["max-wakes"]}")`,
    );
  if (values.seed !== undefined && !/^\d{1,15}$/.test(values.seed))
    throw new UsageError(`run: --seed must be a whole number (got "${values.seed}")`);
  // With --json, stdout holds the JSON only: what a person reads goes to stderr.
  const say = values.json ? io.err : io.out;
  const { dataDir, store, databaseUrl } = await openData(values, io.env);
  const signals = cancelOnSignals(io);
  try {
    if (values.company !== undefined && !(await store.getCompany(values.company)))
      throw new UsageError(`run: company ${values.company} not found in ${dataDir}`);
    await recoverInterruptedRuns(store, io);
    const agents = new Map<string, string>();
    const name = async (agentId: string) => {
      if (!agents.has(agentId)) agents.set(agentId, (await store.getAgent(agentId))?.name ?? agentId);
      return agents.get(agentId) as string;
    };
    const report = await runDue({
      store,
      ...(values.company ? { companyId: values.company } : {}),
      untilIdle: values["until-idle"] ?? false,
      maxWakes,
      signal: signals.signal,
      wake: async (agentId) => {
        const who = await name(agentId);
        const render = createRenderer(say, who);
        return wakeIfDue({
          store,
          agentId,
          dataDir,
          env: storeEnv(io.env, databaseUrl),
          signal: signals.signal,
          ...(values.seed !== undefined ? { seed: `${values.seed}:${agentId}` } : {}),
          onStart: ({ run, cue, cueTokens }) =>
            say(
              `\n▶ run ${run.id} — ${who}, trigger ${run.trigger}, mode ${run.mode}\n  cue "${cue}" (${cueTokens} tokens)\n`,
            ),
          ...(values.quiet ? {} : { onEvent: render }),
        });
      },
      onWake: (w: DueWake) => {
        say(
          `■ run ${w.result.run.id} — ${w.result.terminal}; took ${w.result.requests.length} due reason(s)${tasksOf(w).length ? ` about ${tasksOf(w).join(", ")}` : ""}\n`,
        );
        // A signal cancelled it (issue 18): said on stderr, as `cadre wake` and `cadre demo` say it.
        const received = signals.received();
        if (received && w.result.terminal === "cancelled")
          io.err(`run ${w.result.run.id} cancelled by ${received}; usage recorded\n`);
      },
      onTick: (t: ScheduleTick) =>
        void name(t.agentId).then((who) =>
          say(
            `⏱ schedule of ${who}: ${t.outcome === "woken" ? "woken" : `skipped (${t.reason}) — no model call`}${t.ticks > 1 ? `, ${t.ticks} ticks collapsed into one` : ""}\n`,
          ),
        ),
      onProblem: (p) =>
        void name(p.agentId).then((who) =>
          io.err(`cadre run: ${who} (${p.agentId}) was not woken: ${p.message}\n`),
        ),
    });
    const usage = emptyUsage();
    for (const w of report.wakes) addUsage(usage, w.result.usage);
    const idle = report.stillDue.length === 0;
    const failed = report.wakes.filter((w) => w.result.terminal !== "done").length;
    say(
      `\n${report.wakes.length} run(s)${failed ? `, ${failed} not done` : ""}; ${report.ticks.filter((t) => t.outcome === "skipped").length} schedule tick(s) skipped; ${idle ? "nothing is due" : `still due: ${(await Promise.all(report.stillDue.map(name))).join(", ")}`}\n`,
    );
    if (values.json) {
      const wakes = await Promise.all(
        report.wakes.map(async (w) => ({
          runId: w.result.run.id,
          agentId: w.agentId,
          agent: await name(w.agentId),
          trigger: w.result.run.trigger,
          terminal: w.result.terminal,
          requests: w.result.requests.map((r) => ({ id: r.id, trigger: r.trigger, taskId: r.taskId })),
          tasks: tasksOf(w),
          usage: usageSummaryJson(w.result.usage),
        })),
      );
      io.out(
        `${JSON.stringify({ wakes, ticks: report.ticks, problems: report.problems, stillDue: report.stillDue, idle, runs: wakes.length, usage: usageSummaryJson(usage) })}\n`,
      );
    }
    return signals.exitCode() ?? (failed > 0 || report.problems.length > 0 ? 1 : 0);
  } finally {
    signals.dispose();
    await store.close();
  }
}

function tasksOf(w: DueWake): string[] {
  return [...new Set(w.result.requests.map((r) => r.taskId).filter((t): t is string => t !== null))];
}
