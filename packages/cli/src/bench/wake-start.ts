// Wake start to first model call: `wakeAgent` on a fresh company (a file store and a
// data directory, as `cadre wake` has), timed from the call to the model's first request, against
// a bare Pi loop (pi-agent-core's Agent) sent the same system prompt, model and tools on the same
// kind of stream function. Alternating rounds, medians. Also reported: the part before the run row
// exists (state reads, trigger, prompt, the run and its lease), so what bounds the rest is visible,
// and the SQL statements one whole wake runs (wake-statements.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createCompany, offlineCeoScript, wakeAgent } from "@cadre/company";
import type { StreamFn } from "@cadre/core";
import { bareLoopToFirstCall } from "@cadre/core/bench";
import { createScriptedStreamFn } from "@cadre/core/offline";
import { openStore, type Store } from "@cadre/store";
import { type Benchmark, figure, overBy } from "./registry.js";
import { median } from "./stats.js";
import { duePassStatements, statementFigures, wakeStatements } from "./wake-statements.js";

const ROUNDS = 15;

type FirstCall = Parameters<StreamFn>;

interface WakeSample {
  toFirstCallMs: number;
  toRunRowMs: number;
  first: FirstCall;
}

async function wakeToFirstCall(store: Store, dataDir: string, i: number): Promise<WakeSample> {
  const company = await createCompany(store, { name: `Wake bench ${i}`, goal: "Measure wake starts." });
  const ceo = (await store.listAgents(company.id))[0]!;
  const abort = new AbortController();
  let first: { at: number; args: FirstCall } | undefined;
  let runRowAt = 0;
  const start = performance.now();
  await wakeAgent({
    store,
    agentId: ceo.id,
    trigger: "start_team_building",
    dataDir,
    env: {},
    signal: abort.signal,
    onStart: () => {
      runRowAt = performance.now();
    },
    wrapStreamFn:
      (inner) =>
      (...args) => {
        if (!first) {
          first = { at: performance.now(), args };
          abort.abort("benchmark: first model call reached");
        }
        return inner(...args);
      },
  });
  if (!first) throw new Error("the wake ended before its first model call");
  return { toFirstCallMs: first.at - start, toRunRowMs: runRowAt - start, first: first.args };
}

export const wakeStartBench: Benchmark = {
  name: "wake-start",
  description: "wake start to first model call (offline connector) vs a bare Pi loop on the same stream",
  async run() {
    const dir = await mkdtemp(join(tmpdir(), "cadre-bench-wake-"));
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const cadre: WakeSample[] = [];
      const bare: number[] = [];
      // One warm-up each (module loading, JIT), then alternating rounds.
      const warm = await wakeToFirstCall(store, dir, -1);
      const [model, context] = warm.first;
      const bareOnce = () =>
        bareLoopToFirstCall({
          model,
          systemPrompt: context.systemPrompt ?? "",
          tools: context.tools ?? [],
          prompt: "Start building your team.",
          streamFn: createScriptedStreamFn({ script: offlineCeoScript, seed: 1 }) as StreamFn,
        });
      await bareOnce();
      for (let i = 0; i < ROUNDS; i++) {
        if (i % 2 === 0) {
          cadre.push(await wakeToFirstCall(store, dir, i));
          bare.push(await bareOnce());
        } else {
          bare.push(await bareOnce());
          cadre.push(await wakeToFirstCall(store, dir, i));
        }
      }
      const toFirst = median(cadre.map((s) => s.toFirstCallMs));
      const toRun = median(cadre.map((s) => s.toRunRowMs));
      const bareMs = median(bare);
      const statements = await wakeStatements(store, dir, ROUNDS);
      const duePass = await duePassStatements(store, dir, ROUNDS);
      return {
        figures: [
          figure(
            "wake start → first model call",
            toFirst,
            "ms",
            "bare Pi loop, same stream",
            bareMs,
            overBy(5),
          ),
          figure("  of which: wake start → run row", toRun, "ms", "bare Pi loop, same stream", bareMs),
          ...statementFigures(statements, duePass),
        ],
      };
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
