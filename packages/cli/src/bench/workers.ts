// Worker scaling (issue 19): wakes/s with 1, 2 and 4 workers on one PostgreSQL server (a throwaway
// local one unless CADRE_BENCH_DATABASE_URL names a database to make scratch schemas in), against
// the offline connector with a simulated 300 ms model latency per call — I/O-bound, as real wakes
// are. Each count is reported beside perfect scaling of the one-worker rate (its bare ideal). The
// measurement itself is benchWorkers (@cadre/server).
import { fileURLToPath } from "node:url";
import { benchWorkers } from "@cadre/server";
import { type Benchmark, figure } from "./registry.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const LATENCY_MS = 300;
const WAKES = 16;

export const workersBench: Benchmark = {
  name: "workers",
  description: `wakes/s with 1, 2, 4 workers on PostgreSQL, ${LATENCY_MS} ms simulated model latency per call, vs perfect scaling`,
  async run() {
    const url = process.env["CADRE_BENCH_DATABASE_URL"];
    const result = await benchWorkers({
      workerCommand: [process.execPath, BIN, "worker"],
      latencyMs: LATENCY_MS,
      wakes: WAKES,
      ...(url ? { url } : {}),
      log: (line) => process.stderr.write(`  ${line}\n`),
    });
    const one = result.rounds[0]!;
    const failed = result.rounds.reduce((n, r) => n + r.failed, 0);
    if (failed > 0) process.stderr.write(`  workers: ${failed} wake(s) failed\n`);
    const last = result.rounds.at(-1)!;
    for (const r of result.rounds)
      process.stderr.write(
        `  workers: ${r.workers} worker(s): ${r.cpuMsPerWake.toFixed(0)} ms of this process's CPU and ${r.modelCallsPerWake.toFixed(1)} model calls per wake, ${r.seconds.toFixed(1)} s\n`,
      );
    return {
      figures: [
        ...result.rounds.map((r) =>
          figure(
            `${r.workers} worker(s): ${r.wakes} wakes`,
            r.wakesPerSecond,
            "wakes/s",
            `${r.workers} × the 1-worker rate`,
            one.wakesPerSecond * (r.workers / one.workers),
          ),
        ),
        figure(
          `scaling ${one.workers} → ${last.workers} workers (${result.cpus} CPUs)`,
          result.scaling,
          "×",
          "perfect scaling",
          last.workers / one.workers,
          ({ value }) => ({ description: "≥ 3.5× from 1 to 4 workers", met: value >= 3.5 }),
        ),
      ],
    };
  },
};
