// Worker scaling: wakes/s with 4 real `cadre worker` processes beside 1, on PostgreSQL
// (CADRE_BENCH_DATABASE_URL or CADRE_TEST_DATABASE_URL, else a throwaway local server, else
// "skipped: no PostgreSQL"), every wake waiting LATENCY_MS on a stand-in model per call. The
// 4-worker rate stands beside the 1-worker rate measured in the round paired with it. The CPU a
// wake costs (the worker's, and PostgreSQL's when the server runs on this machine) is shown with
// the cores it kept busy at the 4-worker rate: the workers share the machine's cores with the
// database (and whatever else runs there), which bound the rate once they are busy.
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { type Benchmark, pairedFigure } from "./registry.js";
import { paired } from "./stats.js";
import { benchWorkerProcesses, type WorkerRound } from "./workers/run.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const LATENCY_MS = 300;
const WAKES = 24;
const PAIRS = 3;

export const workersBench: Benchmark = {
  name: "workers",
  description: `wakes/s with 4 \`cadre worker\` processes vs 1 on PostgreSQL, stand-in model answering after ${LATENCY_MS} ms`,
  async run() {
    const result = await benchWorkerProcesses({
      workerCommand: [process.execPath, BIN, "worker"],
      latencyMs: LATENCY_MS,
      wakes: WAKES,
      counts: [1, 4],
      pairs: PAIRS,
      log: (line) => process.stderr.write(`  ${line}\n`),
    });
    if ("skipped" in result) return { figures: [], notMeasured: result.skipped };
    const ones = result.rounds.filter((r) => r.workers === 1);
    const fours = result.rounds.filter((r) => r.workers === 4);
    const pairs = ones.map((one, i) => ({ one, four: fours[i]! }));
    const scaling = paired(
      pairs.map((p) => ({ value: p.four.wakesPerSecond, baseline: p.one.wakesPerSecond })),
    );
    const cpu = paired(pairs.map((p) => ({ value: p.four.cpuMsPerWake, baseline: p.one.cpuMsPerWake })));
    const figures = [
      pairedFigure(`4 workers: ${WAKES} wakes`, "wakes/s", "1 worker's wakes/s", scaling, ({ ratio }) => ({
        description: "≥ 3× 1 worker",
        met: ratio >= 3,
      })),
      pairedFigure("worker CPU per wake, 4 workers", "ms", "1 worker's CPU per wake", cpu),
    ];
    const db = (r: WorkerRound) => r.dbCpuMsPerWake;
    if (result.rounds.every((r) => db(r) !== null)) {
      const dbCpu = paired(pairs.map((p) => ({ value: db(p.four)!, baseline: db(p.one)! })));
      figures.push(
        pairedFigure("PostgreSQL CPU per wake, 4 workers", "ms", "with 1 worker", dbCpu),
        // The share of the machine the wakes took at the 4-worker rate (worker + database CPU).
        pairedFigure(
          "cores kept busy by the wakes, 4 workers",
          "cores",
          "cores on the machine",
          paired(
            fours.map((r) => ({
              value: (r.wakesPerSecond * (r.cpuMsPerWake + db(r)!)) / 1000,
              baseline: cpus().length,
            })),
          ),
        ),
      );
    }
    const busy = (r: WorkerRound) => r.machineBusyCores;
    if (result.rounds.every((r) => busy(r) !== null))
      // Everything the machine ran meanwhile (other processes too): near all its cores, the rate is
      // bounded by the CPU the wakes could get, not by the workers.
      figures.push(
        pairedFigure(
          "cores busy on the machine, 4 workers",
          "cores",
          "cores on the machine",
          paired(fours.map((r) => ({ value: busy(r)!, baseline: cpus().length }))),
        ),
      );
    return { figures };
  },
};
