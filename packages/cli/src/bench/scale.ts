// The scale section: what one operation costs as the company grows — a member's wake at 10, 100
// and 1,000 agents; a task operation at 10k and 100k tasks; a wake with 100k model calls in the
// budget's ledger — each printed as cost per operation (wall ms, CPU ms, SQL statements; medians
// over several operations) beside the same operation at the smallest size. A figure that grows
// with the company shows as a ratio above 1; from 100 to 1,000 agents the promise is ≤ 1.5×.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTask, setBudget, wakeAgent } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { atMost, type Benchmark, type BenchFigure, figure } from "./registry.js";
import { assign, bulkModelCalls, bulkTasks, operatingCompany } from "./scale/company.js";
import { costOf, type OpCost } from "./scale/measure-op.js";
import { installStatementCounter } from "./scale/statements.js";

const WAKES = 5;
const TASK_OPS = 20;
const log = (line: string) => process.stderr.write(`  scale: ${line}\n`);

async function withStore<T>(fn: (store: Store, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "cadre-bench-scale-"));
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    return await fn(store, dir);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Member wakes (offline model, each with a task to do) in a company of `agents` agents. */
function wakeCost(agents: number, modelCalls = 0): Promise<OpCost> {
  return withStore(async (store, dir) => {
    const c = await operatingCompany(store, agents, `a${agents}m${modelCalls}`);
    if (modelCalls > 0) {
      await bulkModelCalls(store, c, modelCalls);
      // A budget, so every call of the wake checks the ledger's spend.
      await setBudget(store, { companyId: c.companyId }, { tokens: 2_000_000_000, usd: 100_000 });
    }
    const woken = c.members.slice(0, WAKES + 1);
    for (const [i, agentId] of woken.entries()) await assign(store, c, agentId, i);
    return costOf(WAKES, (i) => wakeAgent({ store, agentId: woken[i]!, dataDir: dir, seed: i + 1 }));
  });
}

/** create_task by the operator in a company holding `tasks` tasks. */
function taskCost(tasks: number): Promise<OpCost> {
  return withStore(async (store) => {
    const c = await operatingCompany(store, 10, `t${tasks}`);
    await bulkTasks(store, c, tasks);
    const operator = { companyId: c.companyId, agentId: null, via: "http" as const, runId: null };
    return costOf(TASK_OPS, async (i) => {
      const r = await createTask(store, operator, { title: `Measured ${i}`, assignee: c.lead });
      if (!r.ok) throw new Error(`scale bench: create_task failed: ${r.message}`);
    });
  });
}

function costFigures(
  what: string,
  size: string,
  cost: OpCost,
  baseSize: string,
  base: OpCost,
  target?: number,
) {
  return [
    figure(`${what} at ${size}: wall`, cost.ms, "ms/op", `at ${baseSize}`, base.ms),
    figure(
      `${what} at ${size}: CPU`,
      cost.cpuMs,
      "ms/op",
      `at ${baseSize}`,
      base.cpuMs,
      target ? atMost(target) : undefined,
    ),
    figure(`${what} at ${size}: statements`, cost.statements, "stmts/op", `at ${baseSize}`, base.statements),
  ];
}

export const scaleBench: Benchmark = {
  name: "scale",
  description:
    "cost per operation as the company grows: wake at 10/100/1,000 agents, task op at 10k/100k tasks, wake with 100k model calls",
  async run() {
    installStatementCounter();
    const figures: BenchFigure[] = [];
    const wakes: Record<number, OpCost> = {};
    // The process's first wakes load and compile what every wake runs: done once, not reported.
    await wakeCost(10);
    for (const agents of [10, 100, 1000]) {
      log(`member wake, ${agents} agents`);
      wakes[agents] = await wakeCost(agents);
      log(
        `  ${agents} agents: ${wakes[agents].ms.toFixed(0)} ms, ${wakes[agents].cpuMs.toFixed(0)} ms CPU, ${wakes[agents].statements} statements per wake`,
      );
    }
    for (const agents of [10, 100, 1000])
      figures.push(
        ...costFigures("member wake", `${agents} agents`, wakes[agents]!, "10 agents", wakes[10]!),
      );
    figures.push(
      ...costFigures("member wake", "1,000 agents (vs 100)", wakes[1000]!, "100 agents", wakes[100]!, 1.5),
    );
    const tasks: Record<number, OpCost> = {};
    for (const n of [1_000, 10_000, 100_000]) {
      log(`create_task, ${n} tasks`);
      tasks[n] = await taskCost(n);
    }
    for (const n of [10_000, 100_000])
      figures.push(
        ...costFigures(
          "create_task",
          `${n.toLocaleString("en-US")} tasks`,
          tasks[n]!,
          "1,000 tasks",
          tasks[1_000]!,
        ),
      );
    log("member wake, 100k model calls in the ledger");
    const ledgerSmall = await wakeCost(10, 1_000);
    const ledgerLarge = await wakeCost(10, 100_000);
    figures.push(
      ...costFigures(
        "member wake, budget set",
        "100,000 model calls",
        ledgerLarge,
        "1,000 calls",
        ledgerSmall,
      ),
    );
    return { figures };
  },
};
