// The scale section: what one operation costs as the company grows — a member's wake and the
// CEO's at 10, 100 and 1,000 agents; a task operation and a task list page at 1k, 10k and 100k
// tasks; a wake and a budget's spend read with 1k and 100k model calls in the ledger — each printed
// as cost per operation (wall ms, CPU ms, SQL statements; medians over several operations, the
// range of the paired runs' ratios) beside the same operation at the smallest size. A figure that
// grows with the company shows as a ratio above 1; from 100 to 1,000 agents the promise is ≤ 1.5×.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTask, periodStart, setBudget, wakeAgent } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import type { Benchmark, BenchFigure } from "./registry.js";
import { assign, bulkModelCalls, bulkTasks, operatingCompany } from "./scale/company.js";
import { costFigures } from "./scale/figures.js";
import { costOf, type OpCost } from "./scale/measure-op.js";
import { installStatementCounter } from "./scale/statements.js";

const WAKES = 5;
const TASK_OPS = 20;
const PAGE = 50;
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

/** The CEO's wakes (offline model, the operating company) in a company of `agents` agents. */
function ceoWakeCost(agents: number): Promise<OpCost> {
  return withStore(async (store, dir) => {
    const c = await operatingCompany(store, agents, `ceo${agents}`);
    return costOf(WAKES, (i) => wakeAgent({ store, agentId: c.ceo, dataDir: dir, seed: i + 1 }));
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

/** A page of 50 tasks (what GET tasks reads), from well inside a company's `tasks` tasks. */
function taskPageCost(tasks: number): Promise<OpCost> {
  return withStore(async (store) => {
    const c = await operatingCompany(store, 10, `p${tasks}`);
    await bulkTasks(store, c, tasks);
    const cursors: { at: string; id: string }[] = [];
    for (let i = 0; i <= TASK_OPS; i++) {
      const t = await store.getTask(`tsk_bulk_${c.companyId}_${(tasks >> 2) + ((i * PAGE) % (tasks >> 2))}`);
      if (!t) throw new Error("scale bench: a bulk task is missing");
      cursors.push({ at: t.createdAt, id: t.id });
    }
    return costOf(TASK_OPS, async (i) => {
      const page = await store.listTasks(c.companyId, { page: { after: cursors[i]!, limit: PAGE } });
      if (page.length === 0) throw new Error("scale bench: an empty page of tasks");
    });
  });
}

/** A monthly budget's spend read, the company's and an agent's, with `calls` model calls in the ledger. */
function spendReadCost(calls: number): Promise<OpCost> {
  return withStore(async (store) => {
    const c = await operatingCompany(store, 10, `s${calls}`);
    await bulkModelCalls(store, c, calls);
    const since = periodStart("month");
    return costOf(TASK_OPS, async () => {
      const company = await store.spendOf({ companyId: c.companyId, ...(since ? { since } : {}) });
      await store.spendOf({ companyId: c.companyId, agentId: c.lead, ...(since ? { since } : {}) });
      if (company.calls !== calls) throw new Error(`scale bench: spend counted ${company.calls} calls`);
    });
  });
}

const sized = (n: number) => n.toLocaleString("en-US");

async function bySize(sizes: number[], what: string, measure: (n: number) => Promise<OpCost>) {
  const out: Record<number, OpCost> = {};
  for (const n of sizes) {
    log(`${what}, ${sized(n)}`);
    out[n] = await measure(n);
    log(
      `  ${out[n].ms.toFixed(1)} ms, ${out[n].cpuMs.toFixed(1)} ms CPU, ${out[n].statements} statements per operation`,
    );
  }
  return out;
}

export const scaleBench: Benchmark = {
  name: "scale",
  description:
    "cost per operation as the company grows: member and CEO wakes at 10/100/1,000 agents, task op and task page at 1k/10k/100k tasks, wake and spend read at 100k model calls",
  async run() {
    installStatementCounter();
    const figures: BenchFigure[] = [];
    // The process's first wakes load and compile what every wake runs: done once, not reported.
    await wakeCost(10);
    const wakes = await bySize([10, 100, 1000], "member wake, agents", (n) => wakeCost(n));
    for (const agents of [100, 1000])
      figures.push(
        ...costFigures("member wake", `${sized(agents)} agents`, wakes[agents]!, "10 agents", wakes[10]!),
      );
    figures.push(
      ...costFigures("member wake", "1,000 agents (vs 100)", wakes[1000]!, "100 agents", wakes[100]!, 1.5),
    );
    const ceo = await bySize([100, 1000], "CEO wake, agents", ceoWakeCost);
    figures.push(
      ...costFigures("CEO wake", "1,000 agents (vs 100)", ceo[1000]!, "100 agents", ceo[100]!, 1.5),
    );
    const tasks = await bySize([1_000, 10_000, 100_000], "create_task, tasks", taskCost);
    const pages = await bySize([1_000, 10_000, 100_000], "task list page, tasks", taskPageCost);
    for (const n of [10_000, 100_000]) {
      figures.push(
        ...costFigures("create_task", `${sized(n)} tasks`, tasks[n]!, "1,000 tasks", tasks[1_000]!),
      );
      figures.push(
        ...costFigures(
          `task list page (${PAGE})`,
          `${sized(n)} tasks`,
          pages[n]!,
          "1,000 tasks",
          pages[1_000]!,
        ),
      );
    }
    const ledger = await bySize([1_000, 100_000], "member wake with a budget, model calls", (n) =>
      wakeCost(10, n),
    );
    figures.push(
      ...costFigures(
        "member wake, budget set",
        "100,000 model calls",
        ledger[100_000]!,
        "1,000 calls",
        ledger[1_000]!,
      ),
    );
    const spend = await bySize([1_000, 100_000], "monthly spend read, model calls", spendReadCost);
    figures.push(
      ...costFigures(
        "spend read (company + agent)",
        "100,000 model calls",
        spend[100_000]!,
        "1,000 calls",
        spend[1_000]!,
      ),
    );
    return { figures };
  },
};
