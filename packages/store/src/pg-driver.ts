// The PostgreSQL driver (pg), loaded on first use: a store on SQLite never loads it.
import type pgModule from "pg";

export type Pg = typeof pgModule;

let loaded: Pg | undefined;

export async function loadPg(): Promise<Pg> {
  loaded ??= (await import("pg")).default;
  return loaded;
}

/** The driver, for code that only runs once a connection exists (so after loadPg). */
export function loadedPg(): Pg {
  if (!loaded) throw new Error("the PostgreSQL driver was used before it was loaded (loadPg)");
  return loaded;
}
