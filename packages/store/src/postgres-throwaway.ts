// A throwaway PostgreSQL server for tests and benchmarks, from the locally installed binaries
// (Debian's `postgresql` package): a fresh data directory, a free loopback port, trust auth on
// loopback only, durability off for speed. `stop()` shuts it down and deletes everything.
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPg } from "./pg-driver.js";

export interface ThrowawayPostgres {
  /** `postgres://cadre@127.0.0.1:PORT/DATABASE` */
  url: string;
  stop(): Promise<void>;
}

export const INSTALL_HINT =
  "PostgreSQL's server binaries (initdb, pg_ctl) were not found: install them (Debian/Ubuntu: `apt-get install postgresql`) " +
  "or point CADRE_TEST_DATABASE_URL at a database you may create schemas in (see README, PostgreSQL).";

/** The directory holding initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql/N/bin. */
export function findPostgresBin(): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((dir) => existsSync(join(dir, "initdb")));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** initdb refuses to run as root: as root, run the server as the package's `postgres` user. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { prefix: ["runuser", "-u", "postgres", "--"], uid: id("-u"), gid: id("-g") };
  } catch {
    throw new Error(
      "running as root, and there is no `postgres` user to run a throwaway PostgreSQL server as",
    );
  }
}

/**
 * A detached shell that stops the server and deletes its directory once process `pid` is gone: a
 * test run killed before its teardown (a timeout, ^C) leaves no server behind.
 */
function watchdog(pid: number, stop: string[], dir: string): void {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 2; done; ${stop.map(quote).join(" ")} >/dev/null 2>&1; rm -rf ${quote(dir)}`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

export async function startThrowawayPostgres(
  options: { database?: string; stopWhenGone?: number } = {},
): Promise<ThrowawayPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(INSTALL_HINT);
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), "cadre-pg-"));
  if (user.uid !== undefined && user.gid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  const run = (tool: string, args: string[]) => {
    const [cmd, ...rest] = [...user.prefix, join(bin, tool), ...args];
    execFileSync(cmd as string, rest, { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  };
  const pgCtl = (...args: string[]) => run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), ...args]);
  let started = false;
  try {
    // C.UTF-8 collation sorts text by code point, as SQLite does.
    run("initdb", ["-D", data, "-U", "cadre", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    const port = await freePort();
    const settings = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    pgCtl("-w", "-t", "60", "-o", settings, "start");
    started = true;
    if (options.stopWhenGone !== undefined)
      watchdog(
        options.stopWhenGone,
        [...user.prefix, join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
        dir,
      );
    const database = options.database ?? "cadre_test";
    const { Client } = await loadPg();
    const admin = new Client({ connectionString: `postgres://cadre@127.0.0.1:${port}/postgres` });
    await admin.connect();
    try {
      await admin.query(`create database "${database.replace(/"/g, '""')}"`);
    } finally {
      await admin.end();
    }
    return {
      url: `postgres://cadre@127.0.0.1:${port}/${encodeURIComponent(database)}`,
      async stop() {
        try {
          pgCtl("-w", "-m", "fast", "stop");
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    if (started) {
      try {
        pgCtl("-w", "-m", "immediate", "stop");
      } catch {
        // Already down; the directory goes anyway.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`could not start a throwaway PostgreSQL server: ${stderr || (error as Error).message}`, {
      cause: error,
    });
  }
}
