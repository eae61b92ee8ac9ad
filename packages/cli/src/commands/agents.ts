// `cadre agents list` and `cadre agents set-model` (MC-13).
import { type ModelChange, setAgentModel } from "@cadre/company";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const AGENTS_HELP = `Usage: cadre agents list [--company ID] [--all] [--data DIR] [--database URL] [--json]
       cadre agents set-model AGENT_ID MODEL [--data DIR] [--database URL] [--json]

list       the company's agents (active ones; --all includes terminated), with role, department,
           connector/model and the path that created each (tool, http or system)
set-model  the model the agent's sessions route to: an explicit id enabled on its connector (a
           refusal lists the allowed ones and writes nothing). The agent's kept session is assessed
           against the new model's window (MC-13): below 90% of it the next wake resumes the
           session on the new model; at or over 90% the session is closed and a handoff left, so
           the next wake starts fresh from it; while a run of the agent holds the session the switch
           is refused (exit 2). A wake running in a server is reached only through that server
           (--server URL, or PATCH /api/agents/ID/model), inside the live session's lock.

Options:
  --json       one JSON line
  --data DIR   data directory (default ./.cadre)
${DATABASE_HELP}`;

export async function agentsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${AGENTS_HELP}\n`), sub ? 0 : 2);
  if (sub === "set-model") return setModel(rest, io);
  if (sub !== "list") throw new UsageError(`agents: unknown subcommand "${sub}"; use list or set-model`);
  const { values } = parse("agents list", rest, {
    ...STORE_OPTIONS,
    company: { type: "string" },
    all: { type: "boolean" },
  });
  if (values.help) return (io.out(`${AGENTS_HELP}\n`), 0);
  const { dataDir, store } = await openData(values, io.env);
  try {
    const company = await pickCompany(store, values.company, dataDir);
    const agents = await store.listAgents(company.id, values.all ? {} : { status: "active" });
    if (values.json) {
      io.out(`${JSON.stringify(agents)}\n`);
      return 0;
    }
    for (const a of agents) {
      io.out(
        `${a.id}  ${a.name.padEnd(20)} ${a.role}${a.department ? ` [${a.department}]` : ""}  ${a.connectorId}/${a.model}  via ${a.via}${a.status === "active" ? "" : ` (${a.status})`}\n`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** One line saying what a model change did (local and --server). */
export function modelChangeLine(
  change: Pick<ModelChange, "changed" | "from" | "live" | "session"> & {
    agent: Pick<ModelChange["agent"], "id" | "name" | "model" | "connectorId">;
  },
): string {
  const who = `${change.agent.name} (${change.agent.id})`;
  if (!change.changed) return `${who} already runs ${change.agent.model}; nothing changed\n`;
  const session = change.session;
  const live =
    change.live !== "no live session"
      ? `its running session switched too (${change.live})`
      : session.action === "handoff-then-switch"
        ? `its session ${session.fromSession ?? ""} was closed and a ${session.handoffBytes ?? 0}-byte handoff left: the next wake starts fresh from it on the new model (${session.reason})`
        : session.action === "switch"
          ? `its next wake resumes its session on it (${session.reason})`
          : "its next wake starts on it";
  return `${who}: ${change.from} → ${change.agent.model} on connector ${change.agent.connectorId}; ${live}\n`;
}

async function setModel(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse("agents set-model", args, STORE_OPTIONS, 2);
  if (values.help) return (io.out(`${AGENTS_HELP}\n`), 0);
  const [agentId, model] = positionals;
  if (!agentId || !model)
    throw new UsageError(
      "agents set-model: AGENT_ID and MODEL are required (see `cadre agents list` and `cadre models list`)",
    );
  const { store } = await openData(values, io.env);
  try {
    // No live session in this process: the row changes, and the agent's next session routes to it.
    const change = await setAgentModel(store, { agentId, model });
    io.out(values.json ? `${JSON.stringify(change)}\n` : modelChangeLine(change));
    return 0;
  } finally {
    await store.close();
  }
}
