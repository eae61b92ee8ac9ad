// `cadre mcp --agent ID [--data DIR] [--run RUN_ID]`: the company tools of one agent as an MCP server
// over stdio (SPEC §4). Codex reaches the tools this way, and so can any MCP client. The tools are
// the ones a wake gives the agent — `companyTools(store, actor)`: the same JSON Schemas, the same
// strict validation, the same handlers and rows, recorded `via: "tool"`.
import { CEO_MODES, type CeoMode, isOneOf } from "@cadre/model";
import {
  capServedToolCalls,
  companyTools,
  loadCompanyState,
  modeOffer,
  offeredTools,
  usableTools,
  refreshReadiness,
  workspaceOf,
  agentWorkspace,
} from "@cadre/company";
import { actingStore, type Store } from "@cadre/store";
import { NotFoundError, serveToolsOverStdio, TOOL_SERVER_NAME, UserInputError } from "@cadre/core";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const MCP_HELP = `Usage: cadre mcp --agent ID [--data DIR] [--database URL] [--run RUN_ID]

Serves the company tools the agent's role and mode offer (the CEO: hire_agent, file_approval, and
the task tools in the operating company; a member: update_task, list_my_tasks) to one agent as an
MCP server over stdio (tools/list, tools/call), for Codex or any other MCP client. Every call is validated and handled
exactly as in a wake, and what it creates is recorded as made through the tool. --run records the
calls against that run of the agent. Stdout carries only the protocol; the server ends when the
client closes its stdin. With CADRE_MCP_HANDSHAKE_FILE set (the Codex harness sets it), every
tools/list answer is also appended there as one JSON line (client, tools), before it is sent.

The list is fixed when the server starts (the --run's mode, else the current one: an agent's tool
list never changes within a session); each tool's _meta says whether the CEO's current mode lets a
call succeed ("cadre/usableInMode", "cadre/mode") — the same decision \`cadre company show\` prints
as "tools in this mode". A call the mode refuses returns an isError result saying why.

${DATABASE_HELP}`;

export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("mcp", args, {
    data: STORE_OPTIONS.data,
    database: STORE_OPTIONS.database,
    help: STORE_OPTIONS.help,
    agent: { type: "string" },
    run: { type: "string" },
  });
  if (values.help) return (io.out(`${MCP_HELP}\n`), 0);
  if (!values.agent) throw new UsageError("mcp: --agent ID is required (see `cadre agents list`)");
  const { dataDir, store } = await openData(values, io.env);
  try {
    const agent = await store.getAgent(values.agent);
    if (!agent) throw new NotFoundError(`mcp: agent ${values.agent} not found in ${dataDir}`);
    if (agent.status !== "active")
      throw new UserInputError(
        `mcp: agent ${agent.name} (${agent.id}) is ${agent.status}; only active agents get the company tools`,
      );
    let mode: CeoMode | undefined;
    if (values.run !== undefined) {
      const run = await store.getRun(values.run);
      if (!run || run.agentId !== agent.id)
        throw new NotFoundError(`mcp: run ${values.run} is not a run of agent ${agent.id}`);
      // The run's tools were fixed when it started (MC-3): they follow its mode, not today's.
      if (isOneOf(CEO_MODES, run.mode)) mode = run.mode;
    }
    const company = await store.getCompany(agent.companyId);
    if (!company) throw new NotFoundError(`mcp: company ${agent.companyId} not found in ${dataDir}`);
    // hire_agent reads readiness from the probes' outcomes inside its transaction: measure them now.
    await refreshReadiness(await store.listConnectors(agent.companyId), io.env);
    mode ??= (await loadCompanyState(store, agent.companyId)).mode;
    // The tools' writes are this agent's in the audit log.
    const offered = companyTools(
      actingStore(store, { type: "agent", agentId: agent.id, runId: values.run ?? null }),
      {
        companyId: agent.companyId,
        agentId: agent.id,
        via: "tool",
        runId: values.run ?? null,
        // Agents it hires get their workspaces under the data directory.
        ...(dataDir !== undefined ? { dataDir } : {}),
        // Files the agent attaches are read from its workspace only.
        workspace: workspaceOf(agentWorkspace(company, agent, dataDir)),
      },
      offeredTools(agent, mode),
    );
    // Serving a run, a call past its tool-call cap is refused here: the wake learns of it too late.
    const tools = values.run !== undefined ? await capServedToolCalls(store, agent, offered) : offered;
    const usable = await usableNow(store, agent.companyId, agent.id);
    io.err(
      `cadre mcp: serving ${tools.map((t) => t.name).join(", ")} to ${agent.name} (${agent.id}) over stdio; ${usable.mode}: ${usable.why}\n`,
    );
    await serveToolsOverStdio(tools, {
      name: TOOL_SERVER_NAME,
      // Every tool is listed in every mode (MC-3: the agent's tool list never changes); whether a
      // call can succeed now is the mode's decision, the one `company show` and the API print.
      listMeta: async () => {
        const now = await usableNow(store, agent.companyId, agent.id);
        return Object.fromEntries(
          tools.map((t) => [
            t.name,
            { "cadre/mode": now.mode, "cadre/usableInMode": now.tools.includes(t.name) },
          ]),
        );
      },
    });
    return 0;
  } finally {
    await store.close();
  }
}

/** The tools whose calls can succeed for this agent now: the CEO's mode decides (modeOffer); other agents file no strategy and hire no one. */
async function usableNow(
  store: Store,
  companyId: string,
  agentId: string,
): Promise<{ mode: string; tools: readonly string[]; why: string }> {
  const state = await loadCompanyState(store, companyId);
  // A member works its own tasks, in the operating company only (members run only there).
  if (state.ceo.id !== agentId) {
    const tools = usableTools({ isCeo: false }, state.mode);
    return {
      mode: state.mode,
      tools,
      why: `a member works its own tasks (usable: ${tools.join(", ") || "none"}); only the CEO hires and files the strategy`,
    };
  }
  const tools = modeOffer(state.mode).tools;
  return { mode: state.mode, tools, why: `usable in this mode: ${tools.join(", ") || "none"}` };
}
