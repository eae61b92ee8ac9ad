// Opens the data directory's store and resolves which company a command is about.
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { resolve, join } from "node:path";
import { describeRecovery, recoverLostRuns } from "@cadre/company";
import { loadUserModels, NotFoundError } from "@cadre/core";
import {
  type CompanyRow,
  isPostgresUrl,
  openStore,
  redactUrl,
  type Store,
  StoreError,
  type StoreOptions,
} from "@cadre/store";
import { type CliIO, UsageError } from "./io.js";

export const DEFAULT_DATA_DIR = ".cadre";

export interface DataContext {
  dataDir: string;
  store: Store;
}

/** Where a command's store lives, as given on its command line (STORE_OPTIONS). */
export interface StoreArgs {
  data?: string | undefined;
  database?: string | undefined;
}

/** The PostgreSQL URL to use: `--database`, else CADRE_DATABASE_URL; undefined for the SQLite file. */
export function databaseUrl(args: StoreArgs, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = args.database ?? env["CADRE_DATABASE_URL"];
  if (url === undefined || url === "") return undefined;
  if (!isPostgresUrl(url))
    throw new UsageError(
      `the database (--database or CADRE_DATABASE_URL) must be a postgres:// URL, got "${redactUrl(url)}"`,
    );
  return url;
}

/**
 * How a command opens the store. "create": it makes Cadre data (demo, company create, serve), so a
 * new data directory and its store are created. "write": it changes existing data (decisions,
 * wakes, …) and refuses a directory that holds none — a typo'd --data creates nothing. "read": it
 * only reads (show, list, inspect, usage): the store is opened read-only, so it works on a
 * read-only data directory and can never change it.
 */
export type DataAccess = "create" | "write" | "read";

/** The hint for a directory with no store: the commands that make one. */
export function noDataMessage(dataDir: string, args: StoreArgs): string {
  const data = args.data !== undefined ? ` --data ${args.data}` : "";
  return `no Cadre data in ${dataDir} (run \`npx cadre demo${data}\` or \`cadre company create --name NAME${data}\` first)`;
}

const READ_ONLY_COMMANDS =
  "company show, agents list, approvals list|show, sessions inspect|show, usage, tasks list|show, schedules list, budgets show, connectors list";

/**
 * A command that writes needs to write the store and, for its journal, the directory: said before
 * anything starts (SQLite would open a file it may not write read-only, and fail at the first write).
 */
function refuseUnwritable(dataDir: string, path: string): void {
  for (const target of existsSync(path) ? [dataDir, path] : existsSync(dataDir) ? [dataDir] : []) {
    try {
      accessSync(target, constants.W_OK);
    } catch {
      throw new UsageError(
        `${target} is not writable, and this command writes to the store (read-only commands work there: ${READ_ONLY_COMMANDS})`,
      );
    }
  }
}

/**
 * The store is the data directory's SQLite file unless a PostgreSQL URL is given (`--database`, else
 * CADRE_DATABASE_URL): then every machine pointed at that URL shares one store. The data directory
 * still holds each agent's working folder. A data directory that is a file, a directory with no
 * store (unless the command creates data) and a store that cannot be opened or reached are bad
 * input: a UsageError saying which (exit 2).
 */
export async function openData(
  args: StoreArgs,
  env: NodeJS.ProcessEnv = process.env,
  access: DataAccess = "write",
): Promise<DataContext & { databaseUrl: string | undefined }> {
  const dataDir = resolve(args.data ?? DEFAULT_DATA_DIR);
  const url = databaseUrl(args, env);
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory())
    throw new UsageError(
      `the data directory ${dataDir} is a file, not a directory (--data DIR names the directory that holds Cadre's store, default ./${DEFAULT_DATA_DIR})`,
    );
  // Models for OpenAI-compatible endpoints: <dataDir>/cadre.config.json and CADRE_MODELS (MC-6).
  await loadUserModels({ dataDir, env });
  const path = join(dataDir, "cadre.db");
  if (url === undefined && access !== "create" && !existsSync(path))
    throw new UsageError(noDataMessage(dataDir, args));
  if (url === undefined && access !== "read") refuseUnwritable(dataDir, path);
  const options: StoreOptions = url ? { url } : access === "read" ? { path, readonly: true } : { path };
  let store: Store;
  try {
    store = await openStore(options);
  } catch (error) {
    // The location given cannot be opened (a PostgreSQL server that does not answer, a file that
    // is not a store, a directory this user may not write to): the input is at fault, not the job.
    if (error instanceof StoreError && /^(cannot open|the store at)/.test(error.message))
      throw new UsageError(error.message);
    throw error;
  }
  return { dataDir, store, databaseUrl: url };
}

/**
 * For the commands that run wakes (demo, wake, serve, worker): runs whose process is gone — killed,
 * crashed — end now as interrupted (failed, "the process running it stopped"), with their tokens
 * revoked and what they left running killed, before anything new starts. Each is said on stderr.
 */
export async function recoverInterruptedRuns(store: Store, io: Pick<CliIO, "err">): Promise<void> {
  for (const line of describeRecovery(await recoverLostRuns(store))) io.err(`cadre: ${line}\n`);
}

/**
 * The environment for what a command starts (wakes, and the `cadre mcp` a Codex session starts):
 * with the database URL in it, so that a child process opens the same store even when the URL
 * came from --database.
 */
export function storeEnv(env: NodeJS.ProcessEnv, url: string | undefined): NodeJS.ProcessEnv {
  return url === undefined ? env : { ...env, CADRE_DATABASE_URL: url };
}

/** The company named by --company, or the only/first one in the data dir. */
export async function pickCompany(
  store: Store,
  companyId: string | undefined,
  dataDir: string,
): Promise<CompanyRow> {
  if (companyId) {
    const company = await store.getCompany(companyId);
    if (!company) throw new NotFoundError(`company ${companyId} not found in ${dataDir}`);
    return company;
  }
  const companies = await store.listCompanies();
  if (companies.length === 0)
    throw new UsageError(
      `no company in ${dataDir} yet (run \`npx cadre demo --data ${dataDir}\` or \`cadre company create --name NAME --data ${dataDir}\` first)`,
    );
  if (companies.length > 1) {
    throw new UsageError(
      `${dataDir} holds ${companies.length} companies; pick one with --company ID: ${companies.map((c) => `${c.id} (${c.name})`).join(", ")}`,
    );
  }
  return companies[0] as CompanyRow;
}
