// `cadre sessions`, through the operator port: an agent's session across wakes and what a run's
// session looked like. `inspect RUN_ID` reads the run's stored events: the context controller's
// state (MC-8..MC-14) — the native session it ran in, who owns compaction, occupancy, threshold,
// Pi's frozen reserve, the rollover latch and why, open continuation claims, the last compaction
// and its classification — the history of session, compaction, recovery, compression and rollover
// events, and how a run ended that did not end its turn (interrupted, cancelled). A report only:
// nothing here re-creates a latch (it lives in the live session). `show AGENT_ID` prints the
// agent's kept session; `reset AGENT_ID` makes its next wake start fresh.
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { agentIdOf } from "../operator/agent-ref.js";
import { withOperator } from "../operator/open.js";
import { agentSessionText, inspectionText, sessionResetText } from "../operator/render/sessions.js";

export const SESSIONS_HELP = `Usage: cadre sessions inspect RUN_ID [--data DIR] [--database URL] [--server URL] [--json]
       cadre sessions show AGENT_ID [--data DIR] [--database URL] [--server URL] [--json]
       cadre sessions reset AGENT_ID [--force] [--data DIR] [--database URL] [--server URL] [--json]

An agent's session lives across its wakes: a later wake continues it (a Pi session file under
DATA_DIR/agents/AGENT_ID/sessions, a Claude Code session id, a Codex thread id) unless a rollover,
a model switch with handoff, or the operator starts a fresh one.

inspect RUN_ID   the context state of a run's session, as the run stored it (a snapshot at the end
                 of each product turn, and every session, compaction, recovery and rollover event):
  session          the native session the run ran in; resumed, started, or healed after a resume failed
  compaction       who owns it (Pi compacts natively at contextWindow − reserveTokens; for Claude
                   Code the host injects /compact), the threshold (90% unless the connector
                   overrides it) and, for Pi, compaction.reserveTokens frozen at the session's start/resume
  occupancy        tokens in the native window / the model's context window
  latch            needsRollover and why (live-session state: a restart never re-creates it)
  open claims      continuation claims still holding a product turn open
  last compaction  its result as the one failure classifier saw it (ok, deterministic, transient, …)
  history          compactions, recoveries (replay or fail closed, with the rule), compression
                   decisions (strip images, handoff rebuild, fail closed), rollovers and
                   continuation claims (opened, settled, lost-handle)
  harness tools    Claude Code and Codex: the tools the harness offered the model, as it reported
                   them at the start of the run (Claude Code's init line; for Codex, what
                   \`cadre mcp\` gave it plus the built-ins its configuration leaves on), the MCP
                   servers' status, and whether that is what the company decided
  ended            how a run ended that did not end its turn: interrupted (its process stopped —
                   killed or crashed; also said of a run still marked running whose process is
                   gone), cancelled (SIGINT, SIGTERM, the operator) with the reason, or still running
                   (--json: ending, endingReason)
AGENT_ID is an agent id, or its name as \`cadre agents list\` shows it (e.g. CEO).
show AGENT_ID    the agent's kept session: harness, native id (and Pi file), model, reserve, a
                 pending handoff, whether it rolled over, the run holding it (--json: the API's
                 answer to GET /api/agents/AGENT_ID/session, the pending handoff's text included)
reset AGENT_ID   forget the kept session: the next wake starts a fresh one, with no handoff.
                 Refused while a run of the agent is running (exit 2). A run whose process died is
                 recovered first (as by demo, wake and serve; a server does it in its own sweep),
                 which releases its session; --force releases a session still held by a run
                 marked running all the same

Options:
  --json       one JSON line
  --data DIR   data directory (default ./.cadre)
${DATABASE_HELP}
${SERVER_HELP}
                   (a run still marked running is reported running there: the server itself ends
                   runs whose process is gone)`;

export async function sessionsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const { values, positionals } = parse(
    "sessions",
    args,
    { ...STORE_OPTIONS, force: { type: "boolean" } },
    2,
  );
  if (values.help) return (io.out(`${SESSIONS_HELP}\n`), 0);
  const [sub, id] = positionals;
  if (sub !== "inspect" && sub !== "show" && sub !== "reset")
    throw new UsageError(
      `sessions: unknown subcommand "${sub ?? ""}"; use: cadre sessions inspect RUN_ID | show AGENT_ID | reset AGENT_ID`,
    );
  if (!id)
    throw new UsageError(
      sub === "inspect"
        ? "sessions inspect: RUN_ID is required (see `cadre usage` for run ids)"
        : `sessions ${sub}: AGENT_ID is required (see \`cadre agents list\`)`,
    );
  if (values.force !== undefined && sub !== "reset")
    throw new UsageError(`sessions ${sub}: --force is for sessions reset only`);
  if (sub === "inspect") {
    const report = await withOperator(values, io, server, (port) => port.inspectRun(id), "read");
    io.out(values.json ? `${JSON.stringify(report)}\n` : inspectionText(report));
    return 0;
  }
  if (sub === "show") {
    const { agent, answer } = await withOperator(
      values,
      io,
      server,
      async (port) => {
        const agentId = await agentIdOf(port, id);
        return { agent: await port.agent(agentId), answer: await port.agentSession(agentId) };
      },
      "read",
    );
    io.out(
      values.json ? `${JSON.stringify(answer)}\n` : agentSessionText(`${agent.name} (${agent.id})`, answer),
    );
    return 0;
  }
  const { agent, reset } = await withOperator(values, io, server, async (port) => {
    const agentId = await agentIdOf(port, id);
    const reset = await port.resetSession(agentId, { force: values.force ?? false });
    return { agent: await port.agent(agentId), reset };
  });
  io.out(values.json ? `${JSON.stringify(reset)}\n` : sessionResetText(agent.name, reset));
  return 0;
}
