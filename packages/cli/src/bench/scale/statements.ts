// Counts SQL statements the SQLite store runs, for the scale benchmark's "statements per wake":
// every Cadre SQLite store executes through better-sqlite3 statements (all, get, run, iterate), so
// counting their calls counts the statements, whatever built them. Bench-only instrumentation.
import Database from "better-sqlite3";

let count = 0;
let installed = false;

export function installStatementCounter(): void {
  if (installed) return;
  installed = true;
  const probe = new Database(":memory:");
  const proto = Object.getPrototypeOf(probe.prepare("select 1")) as Record<string, unknown>;
  probe.close();
  for (const method of ["all", "get", "run", "iterate"]) {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
  }
}

export const statementsSoFar = (): number => count;
