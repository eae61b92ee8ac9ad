// `cadre agents list`.
import { COMMON_OPTIONS, parse } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const AGENTS_HELP = `Usage: cadre agents list [--company ID] [--all] [--data DIR] [--json]

Lists the company's agents (active ones; --all includes terminated), with role, department,
connector/model and the path that created each (tool, http or system).`;

export async function agentsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return io.out(`${AGENTS_HELP}\n`), sub ? 0 : 2;
  if (sub !== "list") throw new UsageError(`agents: unknown subcommand "${sub}"; use list`);
  const { values } = parse("agents list", rest, { ...COMMON_OPTIONS, company: { type: "string" }, all: { type: "boolean" } });
  if (values.help) return io.out(`${AGENTS_HELP}\n`), 0;
  const { dataDir, store } = await openData(values.data);
  try {
    const company = await pickCompany(store, values.company, dataDir);
    const agents = await store.listAgents(company.id, values.all ? {} : { status: "active" });
    if (values.json) {
      io.out(`${JSON.stringify(agents)}\n`);
      return 0;
    }
    for (const a of agents) {
      io.out(`${a.id}  ${a.name.padEnd(20)} ${a.role}${a.department ? ` [${a.department}]` : ""}  ${a.connectorId}/${a.model}  via ${a.via}${a.status === "active" ? "" : ` (${a.status})`}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
