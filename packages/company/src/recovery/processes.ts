// Operating-system processes as a run's lease sees them: which process this is (host, pid, start
// time), whether a recorded process is still that process, and killing a process group a dead run
// left behind. The start time is what tells a live owner from a later process that got the same pid.
import { spawnSync } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type { ProcessOwner } from "@cadre/store";

/** Linux: boot id + start time in clock ticks since boot (field 22 of /proc/PID/stat); undefined when it has exited. */
function linuxStart(pid: number): string | undefined | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    // No such process; or no /proc at all (null: ask another way).
    return (error as NodeJS.ErrnoException).code === "ENOENT" && procAvailable() ? undefined : null;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // A zombie (Z) or dying (X) process has exited: it holds nothing, whether or not it is reaped yet.
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  const ticks = fields[19];
  return ticks === undefined ? null : `${bootId()}:${ticks}`;
}

let procChecked: boolean | undefined;
function procAvailable(): boolean {
  if (procChecked === undefined) {
    try {
      readFileSync("/proc/self/stat", "utf8");
      procChecked = true;
    } catch {
      procChecked = false;
    }
  }
  return procChecked;
}

let boot: string | undefined;
function bootId(): string {
  if (boot === undefined) {
    try {
      boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      boot = "";
    }
  }
  return boot;
}

/** Elsewhere (macOS, BSD): the start time `ps` reports. */
function psStart(pid: number): string | undefined {
  const result = spawnSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", timeout: 5000 });
  const text = result.status === 0 ? result.stdout.trim() : "";
  return text === "" ? undefined : text;
}

/** The start token of a live process; undefined when there is no such process. */
export function processStart(pid: number): string | undefined {
  const linux = linuxStart(pid);
  if (linux !== null) return linux;
  return psStart(pid);
}

/**
 * Where a pid means something: the host name and, on Linux, the pid namespace (containers on one
 * machine may share a host name, never a pid namespace), so a pid is only ever checked where it is
 * this process's own kind of pid.
 */
function pidSpace(): string {
  let namespace = "";
  try {
    namespace = /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1] ?? "";
  } catch {
    // not Linux, or not readable: the host name alone
  }
  return namespace ? `${hostname()}/pidns:${namespace}` : hostname();
}

let self: ProcessOwner | undefined;

/** This process, as a wake records its holder. */
export function thisProcess(): ProcessOwner {
  self ??= { host: pidSpace(), pid: process.pid, started: processStart(process.pid) ?? "" };
  return self;
}

/**
 * What can be known of a recorded process from here: `alive` (it is still that process), `gone`
 * (no process with that pid, or another one that got the pid later), `elsewhere` (on another host:
 * only its lease can tell).
 */
export function processState(owner: ProcessOwner): "alive" | "gone" | "elsewhere" {
  if (owner.host !== thisProcess().host) return "elsewhere";
  if (owner.pid === process.pid) return owner.started === thisProcess().started ? "alive" : "gone";
  const started = processStart(owner.pid);
  if (started === undefined) return "gone";
  // A token recorded empty (start time unknown) can only be checked by the pid.
  return owner.started === "" || started === owner.started ? "alive" : "gone";
}

/**
 * Kills the process group a run recorded (its leader's pid is the group's id) with everything in
 * it. Only when the leader is still the process recorded, or no longer exists while members of its
 * group remain: a pid that now leads an unrelated group is left alone. Returns whether it signalled.
 */
export function killProcessGroup(recorded: ProcessOwner): boolean {
  const state = processState(recorded);
  if (state === "elsewhere") return false;
  if (state === "gone" && processStart(recorded.pid) !== undefined) return false; // the pid was reused
  try {
    process.kill(-recorded.pid, "SIGKILL");
    return true;
  } catch {
    return false; // the group is gone too
  }
}
