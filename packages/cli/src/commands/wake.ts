// `cadre wake AGENT_ID`, through the operator port: on SQLite the wake runs in this process; on
// PostgreSQL it goes through the shared queue (wake-queued.ts) unless --in-process, so that the
// installation's rules for wakes (one running wake per agent, coalescing, leases) hold for the
// operator's wakes too; with --server the server runs it. The wake renderer prints it as it goes.
import { isOneOf, WAKE_TRIGGERS } from "@cadre/model";
// `--faults` rehearses failures on the offline connector, whose fault injection is `@cadre/core/offline`.
import { FAULT_NAMES, parseFaultList } from "@cadre/core/offline";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import { parseProfile } from "../profiles/wake-profile.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { agentIdOf } from "../operator/agent-ref.js";
import { withOperator } from "../operator/open.js";
import type { WakeRequest } from "../operator/port.js";
import { wakeEndText, wakeJson, wakeWatcher } from "../operator/render/wake.js";
import { signalExitCode } from "../signals.js";

export const WAKE_HELP = `Usage: cadre wake AGENT_ID [--trigger ${WAKE_TRIGGERS.join("|")}] [--seed N] [--profile semantic|legacy] [--faults LIST] [--in-process] [--queue-schema NAME] [--data DIR] [--database URL] [--json]

Wakes one agent (AGENT_ID: its id, or its name as \`cadre agents list\` shows it, e.g. CEO) and
streams its run. The CEO's cue and instructions follow its mode; the trigger
defaults to approval_decided when the operator decided something since the agent's last run,
else routine. Team members can only be woken once the strategy is approved.
The wake continues the agent's session from its last wake (see cadre sessions --help) unless a
rollover or a model switch left a handoff, or the operator reset it; it ends with a session: line,
and --json carries session: { harness, id, resumed, rolledOver }.
--profile chooses the CEO's prompt profile for this wake (default: the company's): legacy is the old
hard-coded turn and a bash tool whose node -e fetch POSTs reach an API served for the wake.
--faults LIST rehearses failures on the offline connector (comma-separated: ${FAULT_NAMES.join(", ")});
the --json line then also carries replays and rollovers (see cadre demo --help).

One wake per agent runs at a time, across processes: waking an agent that is running is refused
(exit 2), naming the run and the process in the way. Ctrl-C (SIGINT) or SIGTERM cancels the wake
run here: its run ends cancelled with its usage recorded, and the command exits 130 / 143. Runs
whose process died (killed, crashed) are ended as interrupted before this wake starts.

Where the wake runs: with the embedded SQLite store, in this process. On PostgreSQL (--database or
CADRE_DATABASE_URL) it is queued like every wake of the installation and a worker runs it (cadre
worker, or cadre serve without --no-worker); this command follows the run until it ends, printing
its events. Stopping the command stops the following, not the wake. If the agent already has a
wake waiting, this one joins it. --in-process runs the wake here instead, outside the queue (no
worker needed; --faults and --profile legacy need it on PostgreSQL). --queue-schema NAME is the
queue's schema when the workers were started with it (default pgboss).

With --server the server runs the wake (queued to its workers on PostgreSQL) and this command
follows the run's events until it ends; --faults, --in-process and --queue-schema are local only.

${DATABASE_HELP}
${SERVER_HELP}`;

export async function wakeCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const options = {
    ...STORE_OPTIONS,
    trigger: { type: "string" },
    seed: { type: "string" },
    profile: { type: "string" },
    faults: { type: "string" },
    "in-process": { type: "boolean" },
    "queue-schema": { type: "string" },
  } as const;
  const { values, positionals } = parse("wake", args, options, 1);
  if (values.help) return (io.out(`${WAKE_HELP}\n`), 0);
  const agentId = positionals[0];
  if (!agentId) throw new UsageError("wake: AGENT_ID is required (see `cadre agents list`)");
  const trigger = values.trigger;
  if (trigger !== undefined && !isOneOf(WAKE_TRIGGERS, trigger))
    throw new UsageError(`wake: --trigger must be one of ${WAKE_TRIGGERS.join(", ")}`);
  if (values.seed !== undefined && !/^\d{1,15}$/.test(values.seed))
    throw new UsageError(`wake: --seed must be a whole number`);
  const profile = parseProfile("wake", values.profile);
  const faults = values.faults === undefined ? undefined : parseFaultList(values.faults);
  const request: WakeRequest = {
    agentId,
    ...(trigger ? { trigger } : {}),
    ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
    ...(profile ? { profile } : {}),
    ...(faults ? { faults } : {}),
    ...(values["in-process"] ? { inProcess: true } : {}),
    ...(values["queue-schema"] ? { queueSchema: values["queue-schema"] } : {}),
  };
  const outcome = await withOperator(values, io, server, async (port) =>
    port.wake({ ...request, agentId: await agentIdOf(port, agentId) }, wakeWatcher(io.out)),
  );
  io.out(wakeEndText(outcome));
  if (values.json) io.out(`${JSON.stringify(wakeJson(outcome, faults !== undefined))}\n`);
  if (outcome.kind === "queued") return 0;
  if (outcome.interrupted) return signalExitCode(outcome.interrupted);
  return outcome.terminal === "done" ? 0 : 1;
}
