// Opens the data directory's store and resolves which company a command is about.
import { resolve, join } from "node:path";
import { NotFoundError } from "@cadre/core";
import { type CompanyRow, openStore, type Store } from "@cadre/store";
import { UsageError } from "./io.js";

export const DEFAULT_DATA_DIR = ".cadre";

export interface DataContext {
  dataDir: string;
  store: Store;
}

export async function openData(data: string | undefined): Promise<DataContext> {
  const dataDir = resolve(data ?? DEFAULT_DATA_DIR);
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
