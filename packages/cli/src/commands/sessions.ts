// `cadre sessions inspect RUN_ID`: what a run's session looked like to its context controller
// (MC-8..MC-14) — occupancy, threshold, Pi's frozen reserve, the rollover latch and why, open
// continuation claims, the last compaction and how the one classifier classified it — read from the
// run's stored events, through the operator port. A report only: nothing here re-creates a latch
// (it lives in the live session).
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";
import { inspectionText } from "../operator/render/sessions.js";

export const SESSIONS_HELP = `Usage: cadre sessions inspect RUN_ID [--data DIR] [--database URL] [--json]

The context state of a run's session, as the run stored it (a snapshot at the end of each product
turn, and every compaction, recovery and rollover event):
  occupancy        tokens in the native window / the model's context window
  threshold        the compaction threshold (90% unless the connector overrides it) and, for Pi,
                   compaction.reserveTokens frozen at session start
  latch            needsRollover and why (live-session state: a restart never re-creates it)
  open claims      continuation claims still holding a product turn open
  last compaction  its result as the one failure classifier saw it (ok, deterministic, transient, …)
  history          compactions, recoveries (replay or fail closed, with the rule), compression
                   decisions (strip images, handoff rebuild, fail closed: MC-12) and rollovers
  ended            how a run ended that did not end its turn: interrupted (its process stopped —
                   killed or crashed; also said of a run still marked running whose process is
                   gone), cancelled (SIGINT, SIGTERM, the operator) with the reason, or still running
                   (--json: ending, endingReason)

Options:
  --json       one JSON line
  --data DIR   data directory (default ./.cadre)
${DATABASE_HELP}
${SERVER_HELP}
                   (a run still marked running is reported running there: the server itself ends
                   runs whose process is gone)`;

export async function sessionsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const { values, positionals } = parse("sessions", args, STORE_OPTIONS, 2);
  if (values.help) return (io.out(`${SESSIONS_HELP}\n`), 0);
  const [sub, runId] = positionals;
  if (sub !== "inspect")
    throw new UsageError(`sessions: unknown subcommand "${sub ?? ""}"; use: cadre sessions inspect RUN_ID`);
  if (!runId) throw new UsageError("sessions inspect: RUN_ID is required (see `cadre usage` for run ids)");
  const report = await withOperator(values, io, server, (port) => port.inspectRun(runId), "read");
  io.out(values.json ? `${JSON.stringify(report)}\n` : inspectionText(report));
  return 0;
}
