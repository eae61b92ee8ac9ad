// Opens the data directory's store and resolves which company a command is about.
import { resolve, join } from "node:path";
import { loadUserModels, NotFoundError } from "@cadre/core";
import { type CompanyRow, isPostgresUrl, openStore, redactUrl, type Store } from "@cadre/store";
import { UsageError } from "./io.js";

export const DEFAULT_DATA_DIR = ".cadre";

export interface DataContext {
  dataDir: string;
  store: Store;
}

/**
 * The store is the data directory's SQLite file unless a PostgreSQL URL is given (`--database`, else
 * CADRE_DATABASE_URL): then every machine pointed at that URL shares one store. The data directory
 * still holds each agent's working folder.
 */
export async function openData(data: string | undefined, database: string | undefined = process.env["CADRE_DATABASE_URL"]): Promise<DataContext> {
  const dataDir = resolve(data ?? DEFAULT_DATA_DIR);
  // Models for OpenAI-compatible endpoints: <dataDir>/cadre.config.json and CADRE_MODELS (MC-6).
  await loadUserModels({ dataDir, env: process.env });
  if (database) {
    if (!isPostgresUrl(database)) throw new UsageError(`the database (--database or CADRE_DATABASE_URL) must be a postgres:// URL, got "${redactUrl(database)}"`);
    return { dataDir, store: await openStore({ url: database }) };
  }
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  return { dataDir, store };
}

/** The company named by --company, or the only/first one in the data dir. */
export async function pickCompany(store: Store, companyId: string | undefined, dataDir: string): Promise<CompanyRow> {
  if (companyId) {
    const company = await store.getCompany(companyId);
    if (!company) throw new NotFoundError(`company ${companyId} not found in ${dataDir}`);
    return company;
  }
  const companies = await store.listCompanies();
  if (companies.length === 0) throw new UsageError(`no company in ${dataDir} yet; run \`cadre demo --data ${dataDir}\` first`);
  if (companies.length > 1) {
    throw new UsageError(`${dataDir} holds ${companies.length} companies; pick one with --company ID: ${companies.map((c) => `${c.id} (${c.name})`).join(", ")}`);
  }
  return companies[0] as CompanyRow;
}
