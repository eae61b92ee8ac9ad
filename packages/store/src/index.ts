// @cadre/store: persistence behind one interface (types.ts). SQLite is the embedded default;
// another dialect only needs its own open function and DialectAdapter.
import { KyselyStore } from "./kysely-store.js";
import { migrate } from "./migrations.js";
import { openSqlite, sqliteAdapter, type SqliteLocation } from "./sqlite.js";
import type { Store } from "./types.js";

export * from "./types.js";
export { ConflictError, StoreError } from "./errors.js";

export type StoreOptions = SqliteLocation;

/** Opens (creating if needed) a store and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const db = openSqlite(options);
  try {
    await migrate(db, sqliteAdapter);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new KyselyStore(db, sqliteAdapter);
}
