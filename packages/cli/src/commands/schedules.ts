// `cadre schedules set|list|remove`: agents' check-ins. A tick with no open work for its agent is
// skipped in code — recorded, no model call, no tokens (OP-2).
import { describeSchedule, removeSchedule, setSchedule } from "@cadre/company";
import type { AgentRow, ScheduleRow, Store } from "@cadre/store";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const SCHEDULES_HELP = `Usage:
  cadre schedules set AGENT (--every DURATION | --cron EXPR) [--tz ZONE] [--catch-up one|skip] [--start now|ISO] [--json]
  cadre schedules list [--company ID] [--json]
  cadre schedules remove AGENT [--json]

An agent's schedule wakes it to look at its work: every DURATION (15m, 1h, 1h30m, 1d; at least 1m),
or at the times of a 5-field cron expression (minute hour day-of-month month day-of-week, e.g.
"0 9 * * 1-5"), read in --tz (an IANA zone, default UTC). One schedule per agent: set replaces it.
A tick whose agent has no open work (no task of its to do or in progress that is not waiting for
another) is skipped before any model call — recorded as skipped, zero tokens. Ticks missed while
nothing ran collapse into one: --catch-up one (default) wakes once for all of them, skip drops them
(only a tick noticed within a minute of its time wakes). The first tick is the next one from now,
or --start now / an ISO time. Schedules run in \`cadre serve\`, \`cadre worker\` (PostgreSQL: one tick
per schedule across machines) and \`cadre run\`. AGENT is an agent id or name.
${DATABASE_HELP}`;

async function agentOf(
  store: Store,
  ref: string,
  company: string | undefined,
  dataDir: string,
): Promise<AgentRow> {
  const byId = await store.getAgent(ref);
  if (byId) return byId;
  const c = await pickCompany(store, company, dataDir);
  const byName = (await store.listAgents(c.id, { status: "active" })).find((a) => a.name === ref);
  if (!byName)
    throw new UsageError(
      `schedules: "${ref}" is not an agent id or the name of an active agent; see cadre agents list`,
    );
  return byName;
}

function line(s: ScheduleRow, agents: readonly AgentRow[]): string {
  const name = agents.find((a) => a.id === s.agentId)?.name ?? s.agentId;
  return `${name.padEnd(16)} ${describeSchedule(s).padEnd(40)} next ${s.nextDueAt}${s.lastTickAt ? `, last ${s.lastTickAt}` : ""}`;
}

export async function schedulesCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${SCHEDULES_HELP}\n`), sub ? 0 : 2);
  const options = {
    ...STORE_OPTIONS,
    company: { type: "string" },
    every: { type: "string" },
    cron: { type: "string" },
    tz: { type: "string" },
    "catch-up": { type: "string" },
    start: { type: "string" },
  } as const;
  if (sub !== "set" && sub !== "list" && sub !== "remove")
    throw new UsageError(`schedules: unknown subcommand "${sub}"; use set, list or remove`);
  const { values, positionals } = parse(`schedules ${sub}`, rest, options, sub === "list" ? 0 : 1);
  if (values.help) return (io.out(`${SCHEDULES_HELP}\n`), 0);
  if (sub !== "set" && (values.every || values.cron || values.tz || values["catch-up"] || values.start))
    throw new UsageError(
      `schedules ${sub}: --every, --cron, --tz, --catch-up and --start belong to schedules set`,
    );
  const ref = positionals[0];
  if (sub !== "list" && !ref)
    throw new UsageError(`schedules ${sub}: AGENT is required (see cadre agents list)`);
  // `schedules list` opens the store read-only; set and remove write.
  const { dataDir, store } = await openData(values, io.env, sub === "list" ? "read" : "write");
  try {
    if (sub === "list") {
      const company = await pickCompany(store, values.company, dataDir);
      const schedules = await store.listSchedules(company.id);
      if (values.json) return (io.out(`${JSON.stringify(schedules)}\n`), 0);
      const agents = await store.listAgents(company.id);
      if (schedules.length === 0) io.out("no schedules\n");
      for (const s of schedules) io.out(`${line(s, agents)}\n`);
      return 0;
    }
    const agent = await agentOf(store, ref as string, values.company, dataDir);
    if (sub === "remove") {
      const removed = await removeSchedule(store, agent.id);
      if (values.json) return (io.out(`${JSON.stringify({ agentId: agent.id, removed })}\n`), 0);
      io.out(
        removed ? `${agent.name}: schedule removed\n` : `${agent.name} had no schedule; nothing changed\n`,
      );
      return 0;
    }
    const row = await setSchedule(store, {
      agentId: agent.id,
      ...(values.every !== undefined ? { every: values.every } : {}),
      ...(values.cron !== undefined ? { cron: values.cron } : {}),
      ...(values.tz !== undefined ? { timezone: values.tz } : {}),
      ...(values["catch-up"] !== undefined ? { catchUp: values["catch-up"] } : {}),
      ...(values.start !== undefined ? { start: values.start } : {}),
    });
    if (values.json) return (io.out(`${JSON.stringify(row)}\n`), 0);
    io.out(`${agent.name}: ${describeSchedule(row)}; next tick ${row.nextDueAt}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
