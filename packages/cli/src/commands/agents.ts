// `cadre agents list|set-model|terminate|keys`, through the operator port (the store, or a server
// with --server).
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError, subcommandRequired } from "../io.js";
import { agentIdOf } from "../operator/agent-ref.js";
import { withOperator } from "../operator/open.js";
import { PAGE_HELP, PAGE_OPTIONS, pageFromFlags, printNextPage } from "../operator/pages.js";
import {
  agentsText,
  keysText,
  mintedKeyText,
  modelChangeText,
  revokedKeyText,
  terminatedText,
} from "../operator/render/agents.js";

export const AGENTS_HELP = `Usage: cadre agents list [--company ID] [--all] [--limit N] [--after CURSOR] [--data DIR] [--database URL] [--json]
       cadre agents set-model AGENT_ID MODEL [--connector ID] [--data DIR] [--database URL] [--json]
       cadre agents terminate AGENT_ID [--data DIR] [--database URL] [--json]
       cadre agents keys list|mint|revoke AGENT_ID [KEY_ID] [--label TEXT] [--json]

list       the company's agents (active ones; --all includes terminated), by hire time, with role,
           department, connector/model and the path that created each (tool, http or system); a page
           at a time (--limit), and when more follow, the command for the next page (--after)
set-model  the model the agent's sessions route to: an explicit id enabled on its connector, or
           with --connector ID on another ready connector the agent (the CEO too) moves to (a
           refusal says why and lists the allowed ones, and writes nothing). The agent's kept
           session is assessed against the new model's window: below 90% of it the next
           wake resumes the session on the new model; at or over 90% the session is closed and a
           handoff left, so the next wake starts fresh from it; while a run of the agent holds the
           session the switch is refused (exit 2). A wake running in a server is reached only
           through that server (--server URL, or PATCH /api/agents/ID/model), inside the live
           session's lock; a move to another connector waits until the agent's run has ended.
terminate  remove an agent from the team: terminated, its keys revoked, never woken again (the CEO
           cannot be removed). Its open tasks go back to the agent that created them (the CEO for
           the operator's), who is woken for them (\`cadre run\` runs that wake); the answer lists
           them (--json: tasksReturned). Its pending wake reasons are cancelled.
keys       the agent's API keys: list them (never their tokens), mint one (--label TEXT; the token is
           shown once), revoke one by KEY_ID (event streams opened with it end)

AGENT_ID is an agent id, or the agent's name as \`cadre agents list\` shows it (e.g. CEO).

Options:
  --connector ID  set-model: move the agent to this connector (it must be ready, the model enabled on it)
${PAGE_HELP}
  --json       one JSON line (list: the page's agents; the next page's cursor on stderr)
  --data DIR   data directory (default ./.cadre)
${DATABASE_HELP}
${SERVER_HELP}`;

export async function agentsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub) throw subcommandRequired("agents", ["list", "set-model", "terminate", "keys"]);
  if (sub === "--help" || sub === "-h") return (io.out(`${AGENTS_HELP}\n`), 0);
  if (sub === "set-model") return setModel(rest, io, server);
  if (sub === "terminate") return terminate(rest, io, server);
  if (sub === "keys") return keys(rest, io, server);
  if (sub !== "list")
    throw new UsageError(`agents: unknown subcommand "${sub}"; use list, set-model, terminate or keys`);
  const { values } = parse("agents list", rest, {
    ...STORE_OPTIONS,
    company: { type: "string" },
    all: { type: "boolean" },
    ...PAGE_OPTIONS,
  });
  if (values.help) return (io.out(`${AGENTS_HELP}\n`), 0);
  const page = pageFromFlags("agents list", values);
  const agents = await withOperator(
    values,
    io,
    server,
    (port) =>
      port.listAgents({
        ...(values.company ? { companyId: values.company } : {}),
        all: values.all ?? false,
        page,
      }),
    "read",
  );
  io.out(values.json ? `${JSON.stringify(agents.items)}\n` : agentsText(agents.items));
  printNextPage(io, values, agents.nextCursor, "agents list", rest);
  return 0;
}

async function setModel(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values, positionals } = parse(
    "agents set-model",
    args,
    { ...STORE_OPTIONS, connector: { type: "string" } },
    2,
  );
  if (values.help) return (io.out(`${AGENTS_HELP}\n`), 0);
  const [agentId, model] = positionals;
  if (!agentId || !model)
    throw new UsageError(
      "agents set-model: AGENT_ID and MODEL are required (see `cadre agents list` and `cadre models list`)",
    );
  const change = await withOperator(values, io, server, (port) =>
    agentIdOf(port, agentId).then((id) => port.setAgentModel(id, model, values.connector)),
  );
  io.out(values.json ? `${JSON.stringify(change)}\n` : modelChangeText(change));
  return 0;
}

async function terminate(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values, positionals } = parse("agents terminate", args, STORE_OPTIONS, 1);
  if (values.help) return (io.out(`${AGENTS_HELP}\n`), 0);
  const agentId = positionals[0];
  if (!agentId) throw new UsageError("agents terminate: AGENT_ID is required (see `cadre agents list`)");
  const done = await withOperator(values, io, server, async (port) =>
    port.terminateAgent(await agentIdOf(port, agentId)),
  );
  io.out(values.json ? `${JSON.stringify(done)}\n` : terminatedText(done));
  return 0;
}

async function keys(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values, positionals } = parse(
    "agents keys",
    args,
    { ...STORE_OPTIONS, label: { type: "string" } },
    3,
  );
  if (values.help) return (io.out(`${AGENTS_HELP}\n`), 0);
  const [action, agentRef, keyId] = positionals;
  if (action !== "list" && action !== "mint" && action !== "revoke")
    throw new UsageError(`agents keys: use list, mint or revoke (got "${action ?? ""}")`);
  if (!agentRef)
    throw new UsageError(`agents keys ${action}: AGENT_ID is required (see \`cadre agents list\`)`);
  if (action === "revoke" && !keyId)
    throw new UsageError(
      `agents keys revoke: KEY_ID is required (see \`cadre agents keys list ${agentRef}\`)`,
    );
  if (action !== "revoke" && keyId !== undefined)
    throw new UsageError(`agents keys ${action}: unexpected argument "${keyId}"`);
  if (action !== "mint" && values.label !== undefined)
    throw new UsageError(`agents keys ${action}: --label applies to mint only`);
  await withOperator(
    values,
    io,
    server,
    async (port) => {
      const agentId = await agentIdOf(port, agentRef);
      if (action === "list") {
        const list = await port.listKeys(agentId);
        io.out(values.json ? `${JSON.stringify(list)}\n` : keysText(agentId, list));
      } else if (action === "mint") {
        const key = await port.mintKey(agentId, values.label);
        io.out(values.json ? `${JSON.stringify(key)}\n` : mintedKeyText(key));
      } else {
        const key = await port.revokeKey(agentId, keyId as string);
        io.out(values.json ? `${JSON.stringify(key)}\n` : revokedKeyText(key));
      }
    },
    action === "list" ? "read" : "write",
  );
  return 0;
}
