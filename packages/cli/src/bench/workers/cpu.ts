// CPU time of the processes a worker round uses, from /proc (Linux): the worker processes', and
// the PostgreSQL backends' serving the bench database when the server runs on this machine. Both
// share the machine's cores, so the two together say whether the cores bound the rate.
import { readFile } from "node:fs/promises";
import type { WakeQueue } from "@cadre/server";

const TICKS_PER_SECOND = 100;

/** User + system CPU ms of a process so far; undefined where there is no such /proc entry. */
export async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU ms so far of every backend connected to the bench database, by pid; empty when the server
 * is elsewhere (its pids are not this machine's: none of them is found, or is a postgres process).
 */
export async function backendCpu(queue: WakeQueue): Promise<Map<number, number>> {
  const { rows } = await queue.boss
    .getDb()
    .executeSql("select pid from pg_stat_activity where datname = current_database()", []);
  const out = new Map<number, number>();
  for (const { pid } of rows as Array<{ pid: number }>) {
    const comm = await readFile(`/proc/${pid}/comm`, "utf8").catch(() => "");
    if (!comm.startsWith("postgres")) continue;
    const ms = await cpuMs(pid);
    if (ms !== undefined) out.set(pid, ms);
  }
  return out;
}

/** CPU the backends used between two readings (a backend opened in between counts from zero). */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** The machine's busy and total CPU ms so far (every core, every process), from /proc/stat. */
export async function machineCpu(): Promise<{ busy: number; total: number } | undefined> {
  try {
    const line = (await readFile("/proc/stat", "utf8")).split("\n")[0]!;
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((s, v) => s + v, 0);
    const idle = ticks[3]! + ticks[4]!; // idle + iowait
    const ms = (t: number) => (t * 1000) / TICKS_PER_SECOND;
    return { busy: ms(total - idle), total: ms(total) };
  } catch {
    return undefined;
  }
}
