// `cadre schedules set|list|remove`: agents' check-ins. A tick with no open work for its agent is
// skipped in code — recorded, no model call, no tokens (OP-2).
// An operator port operation (local store or --server: GET …/schedules, PATCH/DELETE
// /api/agents/{id}/schedule), rendered once.
import { describeSchedule } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { isOneOf, SCHEDULE_CATCH_UPS } from "@cadre/model";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";
import { schedulesText } from "../operator/render/tasks.js";

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
--json prints the schedule as the API answers it (set), the list (list), { agentId, removed } (remove).
${DATABASE_HELP}
${SERVER_HELP}`;

export async function schedulesCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
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
  const catchUp = values["catch-up"];
  if (catchUp !== undefined && !isOneOf(SCHEDULE_CATCH_UPS, catchUp))
    throw new UserInputError(
      `--catch-up must be one of ${SCHEDULE_CATCH_UPS.join(", ")} (got "${catchUp}")`,
      { catchUp: SCHEDULE_CATCH_UPS.join(" | ") },
    );
  const agent = {
    ref: ref as string,
    ...(values.company !== undefined ? { companyId: values.company } : {}),
  };
  // `schedules list` opens the store read-only; set and remove write.
  return withOperator(
    values,
    io,
    server,
    async (port) => {
      if (sub === "list") {
        const { schedules, agents } = await port.listSchedules(values.company);
        io.out(values.json ? `${JSON.stringify(schedules)}\n` : schedulesText(schedules, agents));
        return 0;
      }
      if (sub === "remove") {
        const { agent: removedOf, removed } = await port.removeSchedule(agent);
        if (values.json) return (io.out(`${JSON.stringify({ agentId: removedOf.id, removed })}\n`), 0);
        io.out(
          removed
            ? `${removedOf.name}: schedule removed\n`
            : `${removedOf.name} had no schedule; nothing changed\n`,
        );
        return 0;
      }
      const set = await port.setSchedule(agent, {
        ...(values.every !== undefined ? { every: values.every } : {}),
        ...(values.cron !== undefined ? { cron: values.cron } : {}),
        ...(values.tz !== undefined ? { timezone: values.tz } : {}),
        ...(catchUp !== undefined ? { catchUp } : {}),
        ...(values.start !== undefined ? { start: values.start } : {}),
      });
      if (values.json) return (io.out(`${JSON.stringify(set.schedule)}\n`), 0);
      io.out(`${set.agent.name}: ${describeSchedule(set.schedule)}; next tick ${set.schedule.nextDueAt}\n`);
      return 0;
    },
    sub === "list" ? "read" : "write",
  );
}
