// Several machines, on one: PostgreSQL, 2 API instances (`cadre serve --no-worker`), 3 workers
// (`cadre worker`), all real processes of the built CLI. 200 wakes across 20 companies; one worker
// is SIGKILLed mid-run. Every wake ends exactly once, nothing is duplicated, and every SSE
// subscriber of either instance sees every event of its company exactly once, in order.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createCompany } from "@cadre/company";
import { WakeQueue } from "@cadre/server";
import { openStore, type Store } from "@cadre/store";
import { afterAll, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import type { CliIO } from "../io.js";
import { main } from "../main.js";

afterAll(dropTestSchemas);

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const TOKEN = "cluster-test-operator-token";
const COMPANIES = 20;
const WAKES = 200;

/** Starts a CLI process; `ready` resolves with the first line matching `pattern` on the given stream. */
function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  stream: "stdout" | "stderr",
  pattern: RegExp,
): { child: ChildProcess; ready: Promise<RegExpMatchArray> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  // Keep what the process said, so a failed start explains itself.
  const said: string[] = [];
  createInterface({ input: (stream === "stdout" ? child.stderr : child.stdout)! }).on("line", (line) =>
    said.push(line),
  );
  const ready = new Promise<RegExpMatchArray>((resolve, reject) => {
    createInterface({ input: child[stream]! }).on("line", (line) => {
      said.push(line);
      const match = pattern.exec(line);
      if (match) resolve(match);
    });
    child.once("exit", (code) =>
      reject(
        new Error(`cadre ${args[0]} exited (${code}) before it was ready:\n${said.slice(-20).join("\n")}`),
      ),
    );
  });
  return { child, ready };
}

/** One SSE subscriber: the feed ids of the frames it received, in order. */
function subscribe(
  api: string,
  companyId: string,
  signal: AbortSignal,
): { ids: number[]; done: Promise<void> } {
  const ids: number[] = [];
  const done = (async () => {
    const response = await fetch(`${api}/api/companies/${companyId}/events`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      signal,
    });
    if (!response.ok || !response.body) throw new Error(`SSE ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(frame);
          if (id) ids.push(Number(id[1]));
        }
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  })();
  return { ids, done };
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectNothingDuplicated(store: Store, companyId: string): Promise<void> {
  const agents = await store.listAgents(companyId);
  expect(new Set(agents.map((a) => a.name.toLowerCase())).size, `agent names of ${companyId}`).toBe(
    agents.length,
  );
  expect(agents.filter((a) => a.isCeo)).toHaveLength(1);
  const approvals = await store.listApprovals(companyId, { type: "approve_ceo_strategy" });
  expect(approvals.length, `strategies of ${companyId}`).toBeLessThanOrEqual(1);
  for (const a of approvals)
    expect((await store.listApprovalEvents(a.id)).map((e) => e.toStatus)).toEqual(["pending"]);
}

it("refuses to start without a PostgreSQL database, or with a bad option, with exit 2", async () => {
  const err: string[] = [];
  const io: CliIO = {
    out: () => {},
    err: (t) => void err.push(t),
    env: { CADRE_DATABASE_URL: "" },
    stdin: (async function* () {})(),
  };
  expect(await main(["worker"], io)).toBe(2);
  expect(err.join("")).toMatch(/--database postgres:\/\/…/);
  expect(await main(["worker", "--database", "sqlite:x"], io)).toBe(2);
  expect(await main(["worker", "--database", testDatabaseUrl(), "--concurrency", "0"], io)).toBe(2);
  expect(await main(["worker", "--database", testDatabaseUrl(), "--api-url", "localhost:7420"], io)).toBe(2);
  expect(err.join("")).toMatch(/--api-url must be an http\(s\) URL of a running `cadre serve`/);
});

it("runs 200 wakes of 20 companies on 3 workers behind 2 API instances, surviving a worker SIGKILLed mid-run", async () => {
  const schema = freshSchema();
  const queueSchema = freshSchema();
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = await openStore({ url: testDatabaseUrl(), schema });
  const queue = await WakeQueue.open({
    url: testDatabaseUrl(),
    schema: queueSchema,
    supervise: false,
    log: () => {},
  });
  const data = await mkdtemp(join(tmpdir(), "cadre-cluster-"));
  const env = {
    ...process.env,
    ANTHROPIC_API_KEY: "",
    OPENAI_API_KEY: "",
    CADRE_OPERATOR_TOKEN: TOKEN,
    CADRE_DATABASE_URL: "",
  };
  const children: ChildProcess[] = [];
  const stop = new AbortController();
  try {
    const companies: Array<{ id: string; ceo: string }> = [];
    for (let i = 0; i < COMPANIES; i++) {
      const company = await createCompany(store, { name: `Cluster ${i}` });
      companies.push({ id: company.id, ceo: (await store.listAgents(company.id))[0]!.id });
    }
    // The API instances start one after the other: a simultaneous first start on an empty schema
    // once failed in CI (under full-suite load) with no output kept; startCli now keeps it.
    const serveArgs = ["serve", "--database", url, "--no-worker", "--port", "0", "--data", data];
    const first = startCli(serveArgs, env, "stdout", /^listening on (\S+)$/);
    await first.ready;
    const serving = [first, startCli(serveArgs, env, "stdout", /^listening on (\S+)$/)];
    const workerArgs = [
      "worker",
      "--database",
      url,
      "--queue-schema",
      queueSchema,
      "--concurrency",
      "2",
      "--lease-seconds",
      "2",
      "--data",
      data,
    ];
    const working = [0, 1, 2].map(() => startCli(workerArgs, env, "stderr", /^worker (\S+) ready: /));
    children.push(...[...serving, ...working].map((p) => p.child));
    const apis = (await Promise.all(serving.map((p) => p.ready))).map((match) => match[1]!);
    const workers = await Promise.all(
      working.map(async ({ child, ready }) => ({ child, id: (await ready)[1]! })),
    );
    const subscribers = companies.flatMap((c) =>
      apis.map((api) => ({ companyId: c.id, ...subscribe(api, c.id, stop.signal) })),
    );

    // 200 wakes in ten waves of one per company: some run, some join a wake still waiting.
    const sent: Array<{ wakeId: string; queued: boolean }> = [];
    let killed: string | undefined;
    for (let wave = 0; wave < WAKES / COMPANIES; wave++) {
      for (const c of companies) sent.push(await queue.enqueue({ agentId: c.ceo }));
      if (wave === 2) {
        // SIGKILL a worker while it holds a running wake.
        await until(
          "a worker holds a running wake",
          async () => {
            const running = (await Promise.all(sent.map((s) => store.getWake(s.wakeId)))).find(
              (w) => w?.status === "running" && w.runId,
            );
            const victim = running && workers.find((w) => w.id === running.workerId);
            if (victim) {
              killed = running.id;
              victim.child.kill("SIGKILL");
            }
            return victim !== undefined;
          },
          30_000,
        );
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(sent).toHaveLength(WAKES);
    const queued = sent.filter((s) => s.queued);

    await until(
      "every queued wake ended",
      async () => {
        const wakes = await Promise.all(queued.map((s) => store.getWake(s.wakeId)));
        return wakes.every((w) => w?.status === "done" || w?.status === "failed");
      },
      150_000,
    );

    // Every wake ended exactly once: one wake row, a final status, at most one run per attempt.
    const wakes = (await Promise.all(queued.map((s) => store.getWake(s.wakeId)))).map((w) => w!);
    const runs = await store.listRuns();
    for (const wake of wakes) {
      const ownRuns = runs.filter((r) => r.id === wake.runId);
      expect(ownRuns, `run of ${wake.id}`).toHaveLength(wake.runId ? 1 : 0);
    }
    expect(runs.length).toBe(wakes.reduce((n, w) => n + w.attempts, 0));
    for (const run of runs) {
      const events = await store.listRunEvents(run.id);
      expect(
        events.filter((e) => e.type === "terminal"),
        `terminal events of ${run.id}`,
      ).toHaveLength(1);
      expect(run.status).not.toBe("running");
    }
    expect(killed).toBeDefined();
    const lost = wakes.find((w) => w.id === killed)!;
    expect(lost.status).toBe("failed");
    // Killed on this host: its process is seen gone at once, without waiting for its lease.
    expect(lost.error).toMatch(/which held wake .*, is gone/);
    expect(wakes.filter((w) => w.status === "done").length).toBeGreaterThan(COMPANIES);
    for (const c of companies) await expectNothingDuplicated(store, c.id);

    // Every subscriber of either instance saw its company's whole feed, each event once, in order.
    for (const s of subscribers) {
      const feed = (await store.listFeed(s.companyId)).map((f) => f.id);
      await until(`subscriber of ${s.companyId} caught up`, () => s.ids.length >= feed.length, 30_000);
      expect(s.ids).toEqual(feed);
    }
  } finally {
    stop.abort();
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(
      children.map((c) =>
        c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once("exit", r)),
      ),
    );
    await queue.stop();
    await store.close();
    await rm(data, { recursive: true, force: true });
  }
}, 240_000);
