// SQL statements per wake: every statement better-sqlite3 runs (reads, writes, BEGIN and COMMIT)
// while one whole wake of a fresh company's CEO runs on the offline connector, its model answering
// with one text reply (no tool calls: what is counted is the wake's own work, not its tools'). The
// counter wraps the statement methods of better-sqlite3 itself, under the store, so nothing in the
// store or the wake knows it is counted. Reported beside the figures measured before the wake ran
// in stages (the same scenario on the earlier code), so the change stays visible.
import SqliteDatabase from "better-sqlite3";
import { createCompany, wakeAgent } from "@cadre/company";
import type { Store } from "@cadre/store";
import { type BenchFigure, figure } from "./registry.js";

/** Measured with this file's scenario on the code before the stages (one long wake()). */
export const BEFORE_STAGES = { statements: 71, transactions: 7 } as const;

export interface StatementCount {
  statements: number;
  /** Write transactions (BEGIN IMMEDIATE): each takes SQLite's write lock. */
  transactions: number;
}

type Method = "run" | "all" | "get" | "iterate";
const METHODS: readonly Method[] = ["run", "all", "get", "iterate"];

/** Counts every statement run in this process while `work` runs; the methods are restored after. */
export async function countStatements(work: () => Promise<void>): Promise<StatementCount> {
  const probe = new SqliteDatabase(":memory:");
  const proto = Object.getPrototypeOf(probe.prepare("select 1")) as Record<Method, unknown>;
  probe.close();
  const count: StatementCount = { statements: 0, transactions: 0 };
  const originals = METHODS.map((m) => [m, proto[m]] as const);
  for (const [m, original] of originals)
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      count.statements++;
      if (/^\s*begin/i.test(this.source)) count.transactions++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  try {
    await work();
  } finally {
    for (const [m, original] of originals) proto[m] = original;
  }
  return count;
}

/** One whole wake of a fresh company's CEO whose model answers once, in text. */
export async function wakeStatements(store: Store, dataDir: string, i: number): Promise<StatementCount> {
  const company = await createCompany(store, { name: `Statements ${i}`, goal: "Count a wake's statements." });
  const ceo = (await store.listAgents(company.id))[0]!;
  return countStatements(async () => {
    const result = await wakeAgent({
      store,
      agentId: ceo.id,
      trigger: "start_team_building",
      dataDir,
      env: {},
      script: () => ({ content: [{ type: "text", text: "Nothing to do yet." }] }),
    });
    if (result.terminal !== "done") throw new Error(`the counted wake ended ${result.terminal}`);
  });
}

export function statementFigures(count: StatementCount): BenchFigure[] {
  const before = "the same wake before its stages";
  return [
    figure("SQL statements per wake", count.statements, "statements", before, BEFORE_STAGES.statements),
    figure(
      "  of which: write transactions",
      count.transactions,
      "transactions",
      before,
      BEFORE_STAGES.transactions,
    ),
  ];
}
