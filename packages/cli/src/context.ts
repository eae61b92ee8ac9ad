// Opens the data directory's store and resolves which company a command is about.
import { resolve, join } from "node:path";
import { describeRecovery, recoverLostRuns } from "@cadre/company";
import { loadUserModels, NotFoundError } from "@cadre/core";
import { type CompanyRow, isPostgresUrl, openStore, redactUrl, type Store } from "@cadre/store";
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
 * The store is the data directory's SQLite file unless a PostgreSQL URL is given (`--database`, else
 * CADRE_DATABASE_URL): then every machine pointed at that URL shares one store. The data directory
 * still holds each agent's working folder.
 */
export async function openData(
  args: StoreArgs,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DataContext & { databaseUrl: string | undefined }> {
  const dataDir = resolve(args.data ?? DEFAULT_DATA_DIR);
  const url = databaseUrl(args, env);
  // Models for OpenAI-compatible endpoints: <dataDir>/cadre.config.json and CADRE_MODELS (MC-6).
  await loadUserModels({ dataDir, env });
  const store = await openStore(url ? { url } : { path: join(dataDir, "cadre.db") });
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
    throw new UsageError(`no company in ${dataDir} yet; run \`cadre demo --data ${dataDir}\` first`);
  if (companies.length > 1) {
    throw new UsageError(
      `${dataDir} holds ${companies.length} companies; pick one with --company ID: ${companies.map((c) => `${c.id} (${c.name})`).join(", ")}`,
    );
  }
  return companies[0] as CompanyRow;
}
