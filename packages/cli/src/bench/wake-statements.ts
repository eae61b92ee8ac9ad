// SQL statements per wake: every statement better-sqlite3 runs (reads, writes, BEGIN and COMMIT)
// while one whole wake of a fresh company's CEO runs on the offline connector, its model answering
// with one text reply (no tool calls: what is counted is the wake's own work, not its tools'), and
// while a due-work pass (runDue, as `cadre run` makes it) wakes that CEO for one pending request. The
// counter wraps the statement methods of better-sqlite3 itself, under the store, so nothing in the
// store or the wake knows it is counted. Reported beside the figures measured before the wake ran
// in stages (the same scenario on the earlier code), so the change stays visible.
import SqliteDatabase from "better-sqlite3";
import { createCompany, runDue, wakeAgent, wakeIfDue } from "@cadre/company";
import type { Store } from "@cadre/store";
import { type BenchFigure, figure } from "./registry.js";

/** Measured with this file's scenarios on the code before the stages (one long wake()). */
export const BEFORE_STAGES = {
  wake: { statements: 71, transactions: 7 },
  duePass: { statements: 86, transactions: 8 },
} as const;

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

const answerOnce = () => ({ content: [{ type: "text" as const, text: "Nothing to do yet." }] });

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
      script: answerOnce,
    });
    if (result.terminal !== "done") throw new Error(`the counted wake ended ${result.terminal}`);
  });
}

/** A due-work pass over a fresh company whose CEO has one pending request: one wake, as above. */
export async function duePassStatements(store: Store, dataDir: string, i: number): Promise<StatementCount> {
  const company = await createCompany(store, { name: `Due ${i}`, goal: "Count a due wake's statements." });
  const ceo = (await store.listAgents(company.id))[0]!;
  await store.insertWakeRequest({
    id: `wrq_bench_${i}_${company.id}`,
    companyId: company.id,
    agentId: ceo.id,
    trigger: "routine",
    taskId: null,
    causedBy: "operator",
    cause: "benchmark",
  });
  return countStatements(async () => {
    const report = await runDue({
      store,
      companyId: company.id,
      maxWakes: 1,
      wake: (agentId, checked) =>
        wakeIfDue({ store, agentId, checked, dataDir, env: {}, script: answerOnce }),
    });
    if (report.wakes.length !== 1) throw new Error(`the counted pass woke ${report.wakes.length} agents`);
  });
}

export function statementFigures(wake: StatementCount, duePass: StatementCount): BenchFigure[] {
  const before = "the same wake before its stages";
  const passBefore = "the same pass before the wake's stages";
  const b = BEFORE_STAGES;
  return [
    figure("SQL statements per wake", wake.statements, "statements", before, b.wake.statements),
    figure("  of which: write transactions", wake.transactions, "transactions", before, b.wake.transactions),
    figure(
      "SQL statements per due-work pass (one wake)",
      duePass.statements,
      "statements",
      passBefore,
      b.duePass.statements,
    ),
    figure(
      "  of which: write transactions",
      duePass.transactions,
      "transactions",
      passBefore,
      b.duePass.transactions,
    ),
  ];
}
