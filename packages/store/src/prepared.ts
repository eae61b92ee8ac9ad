// Hot statements as fixed SQL text, run without Kysely's builder: building and compiling a query
// costs more than SQLite takes to run a small one. The text is written once, with `?` placeholders
// (PostgreSQL's `$n` are numbered from them once per text); the driver then prepares each text
// once per connection (sqlite.ts `cachingStatements`, postgres.ts `preparingStatements`); on SQLite a
// statement runs at once when it may (direct.ts).
import { CompiledQuery, type Kysely } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { directRunner } from "./direct.js";

const numbered = new Map<string, string>();

function textFor(text: string, adapter: DialectAdapter): string {
  if (adapter.name === "sqlite") return text;
  let pg = numbered.get(text);
  if (pg === undefined) {
    let n = 0;
    pg = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, pg);
  }
  return pg;
}

/** Runs one fixed statement with its parameters; returns its rows (a `returning` clause's, for writes). */
export async function run<R>(
  db: Kysely<any>,
  adapter: DialectAdapter,
  text: string,
  params: readonly unknown[],
): Promise<R[]> {
  // SQLite, connection free (or this transaction's own): run at once (direct.ts).
  const rows = directRunner(db)?.run(text, params);
  if (rows !== undefined) return rows as R[];
  const result = await db.executeQuery<R>(CompiledQuery.raw(textFor(text, adapter), [...params]));
  return result.rows;
}

/**
 * A statement written with named parameters (`$name`), turned once into `?` text and the order of
 * its parameters: `bindNamed(s, values)` gives the parameter list for `run`.
 */
export interface NamedStatement {
  text: string;
  names: readonly string[];
}

export function named(text: string): NamedStatement {
  const names: string[] = [];
  return { text: text.replace(/\$(\w+)/g, (_, name: string) => (names.push(name), "?")), names };
}

export function bindNamed(statement: NamedStatement, values: Record<string, unknown>): unknown[] {
  return statement.names.map((name) => values[name]);
}
