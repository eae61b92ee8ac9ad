// Setting and removing an agent's schedule (the operator's: CLI, API). One schedule per agent; a
// new one replaces the old. Every check before anything is written; the row and its activity are
// one transaction.
import { NotFoundError, UserInputError } from "@cadre/core";
import { isOneOf, SCHEDULE_CATCH_UPS, type ScheduleCatchUp } from "@cadre/model";
import type { ScheduleRow, Store } from "@cadre/store";
import { newId } from "../ids.js";
import { checkCron, checkTimezone, describeSchedule, parseDuration, tickAfter } from "./schedules.js";

/** How far in the past a schedule's first tick may be. */
const MAX_START_AGO_MS = 366 * 86_400_000;

export interface SetScheduleInput {
  agentId: string;
  /** A duration (15m, 1h, 1d), or… */
  every?: string;
  /** …a 5-field cron expression. */
  cron?: string;
  /** The cron expression's time zone (IANA); default UTC. */
  timezone?: string;
  catchUp?: string;
  /** When the first tick is due: "now", an ISO time, or (default) the first tick from now. */
  start?: string;
}

export async function setSchedule(
  store: Store,
  input: SetScheduleInput,
  now = new Date(),
): Promise<ScheduleRow> {
  if ((input.every === undefined) === (input.cron === undefined))
    throw new UserInputError("give exactly one of --every DURATION or --cron EXPR", { every: "or --cron" });
  const catchUp = input.catchUp ?? "one";
  if (!isOneOf(SCHEDULE_CATCH_UPS, catchUp))
    throw new UserInputError(
      `--catch-up must be one of ${SCHEDULE_CATCH_UPS.join(", ")} (got "${catchUp}")`,
      {
        catchUp: SCHEDULE_CATCH_UPS.join(" | "),
      },
    );
  const timezone = checkTimezone(input.timezone ?? "UTC");
  if (input.timezone !== undefined && input.every !== undefined)
    throw new UserInputError(
      "the time zone (--tz, timezone) applies to a cron expression only; an interval counts from its first tick",
      { timezone: "only with cron" },
    );
  const everySeconds = input.every !== undefined ? parseDuration(input.every) : null;
  if (input.cron !== undefined) checkCron(input.cron, timezone);
  const timing = { everySeconds, cron: input.cron ?? null, timezone };
  let first: Date;
  if (input.start === undefined) first = tickAfter(timing, now);
  else if (input.start === "now") first = now;
  else {
    first = new Date(input.start);
    if (Number.isNaN(first.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(input.start))
      throw new UserInputError(
        `--start must be "now" or an ISO time such as 2030-01-31T09:00:00Z (got "${input.start}")`,
        {
          start: "now | ISO time",
        },
      );
    // A first tick far in the past would be caught up tick by tick, on every due-work pass.
    if (now.getTime() - first.getTime() > MAX_START_AGO_MS)
      throw new UserInputError(
        `--start may be at most a year before now (${now.toISOString()}); got "${input.start}". Use "now" to start at once`,
        { start: "now, a later time, or at most a year ago" },
      );
  }
  return store.transaction(async (tx) => {
    const agent = await tx.getAgent(input.agentId);
    if (!agent) throw new NotFoundError(`agent ${input.agentId} not found`);
    if (agent.status !== "active")
      throw new UserInputError(
        `agent ${agent.name} (${agent.id}) is ${agent.status}; only active agents have schedules`,
      );
    const row = await tx.putSchedule({
      id: newId("sch"),
      companyId: agent.companyId,
      agentId: agent.id,
      ...timing,
      catchUp: catchUp as ScheduleCatchUp,
      nextDueAt: first.toISOString(),
    });
    await tx.insertActivity({
      companyId: agent.companyId,
      agentId: agent.id,
      runId: null,
      type: "schedule.set",
      data: {
        scheduleId: row.id,
        agentId: agent.id,
        schedule: describeSchedule(row),
        nextDueAt: row.nextDueAt,
      },
    });
    return row;
  });
}

export async function removeSchedule(store: Store, agentId: string): Promise<boolean> {
  return store.transaction(async (tx) => {
    const existing = await tx.getSchedule(agentId);
    if (!existing) return false;
    await tx.deleteSchedule(agentId);
    await tx.insertActivity({
      companyId: existing.companyId,
      agentId,
      runId: null,
      type: "schedule.removed",
      data: { scheduleId: existing.id, agentId },
    });
    return true;
  });
}
