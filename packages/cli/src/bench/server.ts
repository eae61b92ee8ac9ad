// HTTP load on loopback: GET /healthz, the agent list, the hire POST, an approval decision and SSE
// fan-out to 100 subscribers, each beside the same work done bare (Hono + better-sqlite3,
// node:http) in the same run. The load comes from a forked child (load/generator.ts), never the
// serving process; each load figure is the median of paired interleaved rounds, with the range of
// the per-round ratios, n, and p50/p99 latency. The measurement is benchServer (@cadre/server).
import { benchServer, type LoadResult, type ServerFigure } from "@cadre/server";
import { startLoadDriver } from "./load/driver.js";
import { atLeast, type Benchmark, type BenchFigure, type BenchTarget, pairedFigure } from "./registry.js";
import { paired } from "./stats.js";

type Target = (x: { value: number; baseline: number; ratio: number }) => BenchTarget;

function figures(f: ServerFigure, target?: Target): BenchFigure[] {
  const of = (pick: (l: LoadResult) => number) =>
    paired(f.rounds.map((r) => ({ value: pick(r.cadre), baseline: pick(r.bare) })));
  return [
    pairedFigure(
      f.name,
      f.unit,
      f.baselineName,
      of((l) => l.perSec),
      target,
    ),
    pairedFigure(
      `${f.name} p50`,
      "ms",
      `${f.baselineName} p50`,
      of((l) => l.p50Ms),
    ),
    pairedFigure(
      `${f.name} p99`,
      "ms",
      `${f.baselineName} p99`,
      of((l) => l.p99Ms),
    ),
  ];
}

export const serverBench: Benchmark = {
  name: "server",
  description:
    "GET /healthz, agent list, hire POST, approval decision, SSE fan-out: each vs the same work done bare",
  async run() {
    const driver = await startLoadDriver();
    try {
      const r = await benchServer({
        drive: (spec) => driver.run(spec),
        // Long enough that one GET round is not over within a scheduler hiccup of a loaded machine.
        requests: 10_000,
        log: (line) => process.stderr.write(`  ${line}\n`),
      });
      return {
        figures: [
          ...figures(r.healthz, atLeast(0.8)),
          ...figures(r.list, atLeast(0.6)),
          ...figures(r.hire, atLeast(0.33)),
          ...figures(r.decision),
          pairedFigure(r.sse.name, r.sse.unit, r.sse.baselineName, {
            value: r.sse.value,
            baseline: r.sse.baseline,
            range: [r.sse.value / r.sse.baseline, r.sse.value / r.sse.baseline],
            n: 1,
          }),
        ],
      };
    } finally {
      await driver.close();
    }
  },
};
