// `cadre run [--until-idle] [--max-wakes N] [--json]`: processes the company's due wakes in this
// process (with --server: has the server do it, and follows its runs) — ticks the schedules, then
// wakes each agent with work waiting (an assignment, an operator's comment, finished work it
// delegated, a task to resume), printing each run. Who is
// woken, when and why is decided in code (work/wake-rules.ts, work/due.ts); a wake whose reason went
// away, or a schedule with no open work, costs nothing.
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";
import { RunOwnedError } from "@cadre/company";
import { dueExitCode, dueJson, dueSummaryText, dueWatcher, RUN_OWNED_EXIT } from "../operator/render/run.js";

export const RUN_HELP = `Usage: cadre run [--until-idle] [--max-wakes N] [--company ID] [--seed N] [--quiet] [--data DIR] [--database URL] [--json]
       cadre run … --server URL [--token TOKEN]

Runs the wakes that are due, here and now, one agent at a time, oldest reason first:
  - an agent a task was assigned to (trigger task_assigned), or whose task the operator commented
    on (task_commented), or whose task's last blocker is done (task_unblocked);
  - the agent that created a task that is now done (task_done: all of them in one wake);
  - the agent that filed an approval the operator decided (approval_decided);
  - a run that did not finish (its process was killed, or a budget stopped it): every reason it had
    taken is due again, and a task it had started is resumed (task_resumed);
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

One \`cadre run\` per company at a time: while one runs a company's due work, another one started
on the same store does nothing — it says which process is running it, since when, and exits 3
(--json: { busy: { companyId, pid, host, since }, idle: false }). A run whose process died holds
nothing: the next one takes over. "nothing is due" (idle: true) means nothing is due and nothing
runs; a run under way in another process (\`cadre wake\`, a server) is listed with the summary
(--json: running) and leaves idle false.

Options:
  --company ID   only this company's wakes (default: every company in the store)
  --seed N       seed of the offline model's variation
  --quiet        one line per run instead of its events
  --json         stdout holds one JSON object: { wakes: [{ runId, agentId, agent, trigger, terminal,
                 requests, tasks, usage }], ticks, problems, stillDue, running, idle, runs, usage }
${DATABASE_HELP}
${SERVER_HELP}

With --server the server runs the work, not this process: each pass is the server's own due-work
pass for the company (POST /api/companies/{id}/due-work, operator token) — it ticks the schedules
and starts each due agent's wake in the server (on PostgreSQL: on its workers), as its background
loop does every few seconds — and this command follows each run it started (or found under way)
from the run's stored events, one after the other, printing the same lines; with --until-idle it
asks for another pass once they have ended. The server's runs may overlap (it runs due agents side
by side); the background loop may take some due work first (its runs are not shown here). A wake
no worker started within the wait stays due (listed at the end). Ctrl-C stops following; the runs
go on in the server. --max-wakes is at most 1000 there.`;

export async function runCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
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
  if (server && maxWakes > 1000)
    throw new UsageError(`run: with --server, --max-wakes is at most 1000 (got ${maxWakes})`);
  if (server && values.seed !== undefined && Number(values.seed) > 2 ** 31 - 1)
    throw new UsageError(`run: with --server, --seed is at most ${2 ** 31 - 1} (got ${values.seed})`);
  // With --json, stdout holds the JSON only: what a person reads goes to stderr.
  const say = values.json ? io.err : io.out;
  const report = await withOperator(values, io, server, (port) =>
    port
      .runDue(
        {
          ...(values.company !== undefined ? { companyId: values.company } : {}),
          untilIdle: values["until-idle"] ?? false,
          maxWakes,
          ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
        },
        dueWatcher(say, io.err, { quiet: values.quiet ?? false }),
      )
      .catch((error: unknown) => {
        if (error instanceof RunOwnedError) return error;
        throw error;
      }),
  );
  if (report instanceof RunOwnedError) {
    // Not "nothing is due": another process is working it, and this one did nothing.
    io.err(`cadre run: ${report.message}\n`);
    if (values.json)
      io.out(
        `${JSON.stringify({
          busy: {
            companyId: report.companyId,
            pid: report.holder.owner.pid,
            host: report.holder.owner.host,
            since: report.holder.since,
          },
          idle: false,
        })}\n`,
      );
    return RUN_OWNED_EXIT;
  }
  say(dueSummaryText(report));
  if (values.json) io.out(`${JSON.stringify(dueJson(report))}\n`);
  return dueExitCode(report);
}
