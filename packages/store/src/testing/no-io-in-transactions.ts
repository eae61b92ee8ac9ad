// Vitest setup for every test file (vitest.config.ts `setupFiles`): a test fails when, inside a
// store transaction, any synchronous fs call ran (statSync along PATH, existsSync on a credential
// file, …) or a connector probe started (`forbidInsideTransaction`). Every `fs.*Sync` function is
// wrapped once per process, and the ESM bindings are re-synced so `import { statSync } from
// "node:fs"` sees the wrapper too; calls reached through any depth of helpers are caught, because
// the transaction scope is carried by AsyncLocalStorage, not by the call site.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { afterEach } from "vitest";
import {
  insideTransaction,
  onTransactionViolation,
  type TransactionViolation,
} from "../transaction-scope.js";

interface Guard {
  /** The current test file's scope check (modules are evaluated again for each test file). */
  inside: () => boolean;
  seen: TransactionViolation[];
}

const KEY = Symbol.for("cadre.noIoInTransactions");
const holder = globalThis as unknown as Record<symbol, Guard | undefined>;

function installOnce(): Guard {
  const existing = holder[KEY];
  if (existing) return existing;
  const guard: Guard = { inside: () => false, seen: [] };
  holder[KEY] = guard;
  const table = fs as unknown as Record<string, unknown>;
  for (const name of Object.keys(fs)) {
    const original = table[name];
    if (!name.endsWith("Sync") || typeof original !== "function") continue;
    table[name] = function guarded(this: unknown, ...args: unknown[]) {
      if (guard.inside()) guard.seen.push({ what: `fs.${name}`, stack: new Error(`fs.${name}`).stack ?? "" });
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  syncBuiltinESMExports();
  return guard;
}

const guard = installOnce();
guard.inside = insideTransaction;
onTransactionViolation((violation) => guard.seen.push(violation));

/** What was reported since the last call (the guard's own test reads it, so its cases do not fail). */
export function takeTransactionViolations(): TransactionViolation[] {
  return guard.seen.splice(0);
}

function frames(stack: string): string {
  return stack
    .split("\n")
    .slice(1)
    .filter((line) => !line.includes("no-io-in-transactions"))
    .slice(0, 8)
    .join("\n");
}

afterEach(() => {
  const found = takeTransactionViolations();
  if (found.length === 0) return;
  const first = found[0] as TransactionViolation;
  throw new Error(
    `${found.length} filesystem/network call(s) inside a store transaction (${[...new Set(found.map((v) => v.what))].join(", ")}); ` +
      `move them before or after the transaction. First:\n${frames(first.stack)}`,
  );
});
