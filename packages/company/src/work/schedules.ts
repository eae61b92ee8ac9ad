// Schedules (OP-2): an agent's interval or 5-field cron expression, its next tick, and
// the tick itself. A tick is taken by exactly one process (the store's compare-and-set on the tick
// it was due at), in one transaction with what it decides: a wake request when the agent has open
// work, else a `schedule.skipped` activity — before any model call, so an idle schedule costs no
// tokens. Ticks missed while nothing was running collapse to one: catch-up `one` wakes once for
// all of them, `skip` drops them (only a tick noticed on time wakes).
//
// Cron: croner (no dependencies; IANA time zones and DST handled), held to the 5-field syntax
// (minute hour day-of-month month day-of-week; day-of-month and day-of-week OR-ed as in Vixie
// cron). A parser of our own would have to get time zones and DST right, which is where cron
// implementations go wrong.
import { createRequire } from "node:module";
import { UserInputError } from "@cadre/core";
import type { ScheduleCatchUp } from "@cadre/model";
import type { ScheduleRow, Store } from "@cadre/store";
import type { Cron } from "croner";
import { openWorkOf } from "./my-tasks.js";
import { requestWakes } from "./requests.js";

/** A tick noticed later than this after its time is a missed one. */
export const ON_TIME_MS = 60_000;
/** The shortest interval: schedules are check-ins, not a loop. */
export const MIN_EVERY_SECONDS = 60;
const MAX_COUNTED_TICKS = 10_000;

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "90s", "15m", "1h", "1d", "1h30m" → seconds; refused with what is allowed. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  const parts = [...trimmed.matchAll(/(\d+)\s*([smhd])/g)];
  const whole = parts.map((p) => p[0]).join("");
  if (parts.length === 0 || whole.replace(/\s/g, "") !== trimmed.replace(/\s/g, ""))
    throw new UserInputError(
      `--every "${text}" is not a duration; use a number with s, m, h or d, e.g. 15m, 1h, 1h30m, 1d`,
      { every: "a duration such as 15m, 1h, 1d" },
    );
  const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * (UNITS[p[2] as string] as number), 0);
  if (seconds < MIN_EVERY_SECONDS)
    throw new UserInputError(`--every "${text}" is shorter than the shortest interval, 1m`, {
      every: "at least 1m",
    });
  if (seconds > 366 * 86_400)
    throw new UserInputError(`--every "${text}" is longer than a year`, { every: "at most 366d" });
  return seconds;
}

const CRON_FIELDS = ["minute", "hour", "day-of-month", "month", "day-of-week"] as const;
const MONTHS = "JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC";
const DAYS = "SUN|MON|TUE|WED|THU|FRI|SAT";
/** One field of the 5-field syntax: numbers, *, ranges, lists and steps (names in month and day-of-week). */
function cronFieldPattern(field: (typeof CRON_FIELDS)[number]): RegExp {
  const names = field === "month" ? `|${MONTHS}` : field === "day-of-week" ? `|${DAYS}` : "";
  const atom = `(?:\\d{1,2}${names})`;
  const item = `(?:\\*|${atom}(?:-${atom})?)(?:/\\d{1,2})?`;
  return new RegExp(`^${item}(?:,${item})*$`, "i");
}

/**
 * The documented syntax only: croner also takes nicknames (@daily), L, W, # and ?, which the docs
 * never promised and another cron would read differently — refused here, saying what is allowed.
 */
function checkCronSyntax(expr: string): void {
  const fields = expr.trim().split(/\s+/);
  const refuse = (why: string) => {
    throw new UserInputError(
      `--cron "${expr}" is not a 5-field cron expression (minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"): ${why}`,
      { cron: "minute hour day-of-month month day-of-week" },
    );
  };
  if (fields.length !== 5)
    refuse(
      `it has ${fields.length} field(s), not 5${/^@/.test(expr.trim()) ? ' (nicknames such as @daily are not supported: write the five fields, e.g. "0 0 * * *")' : ""}`,
    );
  fields.forEach((f, i) => {
    const name = CRON_FIELDS[i] as (typeof CRON_FIELDS)[number];
    if (!cronFieldPattern(name).test(f))
      refuse(
        `the ${name} field "${f}" is not numbers, *, ranges (a-b), lists (a,b) and steps (/n)${name === "month" || name === "day-of-week" ? " or names" : ""}; L, W, # and ? are not supported`,
      );
  });
}

/**
 * croner, loaded on the first cron read: a command that only reaches the schedules' module (a
 * read-only one, through the shared chunks) would otherwise load its ~40 kB of code for nothing.
 */
let cronClass: typeof Cron | undefined;
function loadCron(): typeof Cron {
  cronClass ??= (createRequire(import.meta.url)("croner") as { Cron: typeof Cron }).Cron;
  return cronClass;
}

function cronOf(expr: string, timezone: string): Cron {
  checkCronSyntax(expr);
  const CronClass = loadCron();
  try {
    return new CronClass(expr, { paused: true, timezone, mode: "5-part" });
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^CronPattern: /, "") : String(error);
    throw new UserInputError(
      `--cron "${expr}" is not a 5-field cron expression (minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"): ${why}`,
      { cron: "minute hour day-of-month month day-of-week" },
    );
  }
}

/** Refuses a time zone Intl does not know. */
export function checkTimezone(timezone: string): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return timezone;
  } catch {
    throw new UserInputError(
      `the time zone (--tz, timezone) "${timezone}" is not an IANA time zone, e.g. UTC, Europe/Berlin, America/New_York`,
      { timezone: "an IANA time zone" },
    );
  }
}

/** Checks a cron expression (throws a readable UserInputError) and that it ever fires. */
export function checkCron(expr: string, timezone: string): void {
  if (cronOf(expr, timezone).nextRun(new Date()) === null)
    throw new UserInputError(`--cron "${expr}" never fires`, { cron: "an expression that fires" });
}

type Timing = Pick<ScheduleRow, "everySeconds" | "cron" | "timezone">;

/** The first tick strictly after `after`. */
export function tickAfter(s: Timing, after: Date): Date {
  if (s.everySeconds !== null) return new Date(after.getTime() + s.everySeconds * 1000);
  const next = cronOf(s.cron as string, s.timezone).nextRun(after);
  if (!next) throw new UserInputError(`cron "${s.cron}" has no tick after ${after.toISOString()}`);
  return next;
}

/** The ticks due at `now`, from the one the schedule is due at: how many, the latest, and the next. */
export function dueTicks(
  s: Timing & { nextDueAt: string },
  now: Date,
): { count: number; latest: Date; next: Date } | undefined {
  let tick = new Date(s.nextDueAt);
  if (tick > now) return undefined;
  let count = 0;
  let latest = tick;
  // Intervals are counted arithmetically; cron ticks by stepping (capped: the count is information).
  if (s.everySeconds !== null) {
    const step = s.everySeconds * 1000;
    count = Math.floor((now.getTime() - tick.getTime()) / step) + 1;
    latest = new Date(tick.getTime() + (count - 1) * step);
    return { count, latest, next: new Date(latest.getTime() + step) };
  }
  // One parsed expression for the whole count (parsing it per tick made a pass slow).
  const cron = cronOf(s.cron as string, s.timezone);
  const after = (t: Date) => {
    const next = cron.nextRun(t);
    if (!next) throw new UserInputError(`cron "${s.cron}" has no tick after ${t.toISOString()}`);
    return next;
  };
  while (tick <= now && count < MAX_COUNTED_TICKS) {
    latest = tick;
    count++;
    tick = after(tick);
  }
  if (tick <= now) tick = after(now);
  return { count, latest, next: tick };
}

export interface ScheduleTick {
  scheduleId: string;
  agentId: string;
  companyId: string;
  /** Ticks due when it was taken (missed ones included), collapsed into this one. */
  ticks: number;
  outcome: "woken" | "skipped";
  /** Why it was skipped. */
  reason?: string;
  nextDueAt: string;
}

/**
 * Takes every due tick (of one company, or all): each in one transaction, won by one process only.
 * What each decided is returned (and recorded as activity).
 */
export async function tickSchedules(store: Store, now: Date, companyId?: string): Promise<ScheduleTick[]> {
  const out: ScheduleTick[] = [];
  for (const s of await store.listSchedules(companyId)) {
    const due = dueTicks(s, now);
    if (!due) continue;
    const late = now.getTime() - due.latest.getTime() > ON_TIME_MS;
    const tick = await store.transaction(async (tx): Promise<ScheduleTick | undefined> => {
      const next = { nextDueAt: due.next.toISOString(), lastTickAt: now.toISOString() };
      if (!(await tx.advanceSchedule(s.id, s.nextDueAt, next))) return undefined;
      const base = {
        scheduleId: s.id,
        agentId: s.agentId,
        companyId: s.companyId,
        ticks: due.count,
        nextDueAt: next.nextDueAt,
      };
      const agent = await tx.getAgent(s.agentId);
      let reason: string | undefined;
      if (agent?.status !== "active") reason = "the agent is not active";
      else if (late && s.catchUp === "skip") reason = "missed ticks are dropped (catch-up skip)";
      else if ((await tx.listWakeRequests({ agentId: s.agentId, status: "pending" })).length > 0)
        reason = "a wake is already due";
      else if ((await openWorkOf(tx, s.companyId, s.agentId)).length === 0) reason = "no open work";
      if (reason !== undefined) {
        await tx.insertActivity({
          companyId: s.companyId,
          agentId: s.agentId,
          runId: null,
          type: "schedule.skipped",
          data: { scheduleId: s.id, agentId: s.agentId, ticks: due.count, reason, nextDueAt: next.nextDueAt },
        });
        return { ...base, outcome: "skipped", reason };
      }
      await requestWakes(
        tx,
        s.companyId,
        [
          {
            agentId: s.agentId,
            trigger: "scheduled",
            taskId: null,
            cause: `its schedule ticked (${describeSchedule(s)})`,
          },
        ],
        "system",
        null,
      );
      return { ...base, outcome: "woken" };
    });
    if (tick) out.push(tick);
  }
  return out;
}

export function describeSchedule(s: Timing & { catchUp?: ScheduleCatchUp }): string {
  const when =
    s.everySeconds !== null ? `every ${formatSeconds(s.everySeconds)}` : `cron "${s.cron}" ${s.timezone}`;
  return s.catchUp ? `${when}, catch-up ${s.catchUp}` : when;
}

function formatSeconds(n: number): string {
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3600],
    ["m", 60],
  ] as const)
    if (n % size === 0) return `${n / size}${unit}`;
  return `${n}s`;
}
