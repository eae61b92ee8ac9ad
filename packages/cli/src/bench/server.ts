// HTTP load on loopback (issue 19): GET /healthz, the agent list, the legacy hire POST, an approval
// decision and SSE fan-out to 100 subscribers, each beside the same work done bare (Hono +
// better-sqlite3, node:http) in the same run. The measurement is benchServer (@cadre/server).
import { benchServer, type ServerFigure } from "@cadre/server";
import { atLeast, type Benchmark, type BenchTarget, figure } from "./registry.js";

const of = (
  f: ServerFigure,
  target?: (x: { value: number; baseline: number; ratio: number }) => BenchTarget,
) => figure(f.name, f.value, f.unit, f.baselineName, f.baseline, target);

const p99 = (f: ServerFigure) =>
  f.p99Ms ? [figure(`${f.name} p99`, f.p99Ms.value, "ms", `${f.baselineName} p99`, f.p99Ms.baseline)] : [];

export const serverBench: Benchmark = {
  name: "server",
  description:
    "GET /healthz, agent list, hire POST, approval decision, SSE fan-out: each vs the same work done bare",
  async run() {
    const r = await benchServer({ log: (line) => process.stderr.write(`  ${line}\n`) });
    return {
      figures: [
        of(r.healthz, atLeast(0.8)),
        of(r.list, atLeast(0.6)),
        ...p99(r.list),
        of(r.hire, ({ ratio, value }) => ({
          description: "≥ 0.33× bare insert and ≥ 2,000 hires/s",
          met: ratio >= 0.33 && value >= 2000,
        })),
        ...p99(r.hire),
        of(r.decision),
        ...p99(r.decision),
        of(r.sse),
      ],
    };
  },
};
