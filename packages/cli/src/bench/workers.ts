// Wakes per second with 1, 2 and 4 `cadre worker` processes on one PostgreSQL server (a throwaway
// local one unless CADRE_BENCH_DATABASE_URL names a database to make scratch schemas in), against
// the offline connector; and the scaling ratio. The measurement itself is benchWorkers (@cadre/server).
import { fileURLToPath } from "node:url";
import { benchWorkers } from "@cadre/server";
import type { Benchmark } from "./registry.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

export const workersBench: Benchmark = {
  name: "workers",
  description:
    "wakes/s with 1, 2, 4 worker processes on PostgreSQL (offline connector, one full CEO run per wake)",
  async run() {
    const url = process.env["CADRE_BENCH_DATABASE_URL"];
    const result = await benchWorkers({
      workerCommand: [process.execPath, BIN, "worker"],
      ...(url ? { url } : {}),
      log: (line) => process.stderr.write(`  ${line}\n`),
    });
    return {
      figures: [
        ...result.rounds.map((r) => ({
          label: `${r.workers} worker(s): ${r.wakes} wakes`,
          value: r.wakesPerSecond,
          unit: "wakes/s",
        })),
        {
          label: `scaling ${result.rounds[0]!.workers} → ${result.rounds.at(-1)!.workers} workers (${result.cpus} CPUs)`,
          value: result.scaling,
          unit: "×",
        },
        {
          label: "wakes that failed (all rounds)",
          value: result.rounds.reduce((n, r) => n + r.failed, 0),
          unit: "",
        },
      ],
    };
  },
};
