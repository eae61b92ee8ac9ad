// `cadre wake AGENT_ID`: on SQLite the wake runs in this process; on PostgreSQL it goes through the
// shared queue (wake-queued.ts) unless --in-process, so that the installation's rules for wakes
// (one running wake per agent, coalescing, leases) hold for the operator's wakes too.
import { usageSummaryJson, WAKE_TRIGGERS, type WakeTrigger } from "@cadre/model";
import { wakeAgent } from "@cadre/company";
// `--faults` rehearses failures on the offline connector, whose fault injection is `@cadre/core/testing`.
import { FAULT_NAMES, parseFaultList } from "@cadre/core/testing";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, recoverInterruptedRuns, storeEnv } from "../context.js";
import { cancelOnSignals } from "../signals.js";
import { type CliIO, UsageError } from "../io.js";
import { createRenderer } from "../render.js";
import { parseProfile, withProfile } from "../client/legacy-server.js";
import { queuedWake } from "./wake-queued.js";
import { sessionLine } from "./sessions.js";

export const WAKE_HELP = `Usage: cadre wake AGENT_ID [--trigger ${WAKE_TRIGGERS.join("|")}] [--seed N] [--profile semantic|legacy] [--faults LIST] [--in-process] [--queue-schema NAME] [--data DIR] [--database URL] [--json]

Wakes one agent and streams its run. The CEO's cue and instructions follow its mode; the trigger
defaults to approval_decided when the operator decided something since the agent's last run,
else routine. Team members can only be woken once the strategy is approved.
The wake continues the agent's session from its last wake (see cadre sessions --help) unless a
rollover or a model switch left a handoff, or the operator reset it; --json ends with
session: { harness, id, resumed, rolledOver }.
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

${DATABASE_HELP}`;

export async function wakeCommand(args: string[], io: CliIO): Promise<number> {
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
  const trigger = values.trigger as WakeTrigger | undefined;
  if (trigger && !WAKE_TRIGGERS.includes(trigger))
    throw new UsageError(`wake: --trigger must be one of ${WAKE_TRIGGERS.join(", ")}`);
  if (values.seed !== undefined && !/^\d{1,15}$/.test(values.seed))
    throw new UsageError(`wake: --seed must be a whole number`);
  const profile = parseProfile("wake", values.profile);
  const faults = values.faults === undefined ? undefined : parseFaultList(values.faults);
  const { dataDir, store, databaseUrl } = await openData(values, io.env);
  try {
    if (databaseUrl !== undefined && !values["in-process"]) {
      // What only this process can do is refused rather than silently run elsewhere without it.
      if (faults)
        throw new UsageError(
          "wake: --faults rehearses failures in this process; on PostgreSQL add --in-process (queued wakes run on the workers)",
        );
      if (profile === "legacy")
        throw new UsageError(
          "wake: --profile legacy serves the API for the wake from this process; on PostgreSQL add --in-process",
        );
      const seed = values.seed !== undefined ? Number(values.seed) : undefined;
      return await queuedWake(
        {
          store,
          url: databaseUrl,
          agentId,
          ...(values["queue-schema"] ? { queueSchema: values["queue-schema"] } : {}),
          json: values.json ?? false,
          ...(trigger ? { trigger } : {}),
          ...(seed !== undefined ? { seed } : {}),
          ...(profile ? { profile } : {}),
        },
        io,
      );
    }
    await recoverInterruptedRuns(store, io);
    const agent = await store.getAgent(agentId);
    const render = createRenderer(io.out, agent?.name ?? "agent");
    const signals = cancelOnSignals(io);
    const result = await withProfile({ store, dataDir, io, agentId, profile }, (byProfile) =>
      wakeAgent({
        ...byProfile,
        store,
        agentId,
        dataDir,
        env: storeEnv(io.env, databaseUrl),
        ...(trigger ? { trigger } : {}),
        ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
        ...(faults ? { faults } : {}),
        signal: signals.signal,
        onStart: ({ run, cue, cueTokens, mode }) =>
          io.out(
            `run ${run.id} — mode ${mode}, trigger ${run.trigger}\ncue "${cue}" (${cueTokens} tokens)\n`,
          ),
        onEvent: render,
      }),
    ).finally(() => signals.dispose());
    const interrupted = signals.received();
    if (interrupted && result.terminal === "cancelled")
      io.err(`run ${result.run.id} cancelled by ${interrupted}; usage recorded\n`);
    io.out(`mode: ${result.modeBefore} → ${result.modeAfter}\n`);
    io.out(`session: ${sessionLine(result.session)}\n`);
    if (values.json) {
      io.out(
        `${JSON.stringify({ runId: result.run.id, agentId, terminal: result.terminal, modeBefore: result.modeBefore, modeAfter: result.modeAfter, initialCue: { text: result.cue, tokens: result.cueTokens }, usage: usageSummaryJson(result.usage), session: result.session, ...(faults ? { replays: result.replays, rollovers: result.rollovers } : {}) })}\n`,
      );
    }
    return signals.exitCode() ?? (result.terminal === "done" ? 0 : 1);
  } finally {
    await store.close();
  }
}
