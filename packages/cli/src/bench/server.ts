// HTTP load on loopback (issue 3): legacy hire POSTs (hires/s, p99) and SSE fan-out to 100
// subscribers, as ratios against GET /healthz measured in the same run. The measurement is
// benchServer (@cadre/server); autocannon is a development dependency loaded there on demand.
import { benchServer } from "@cadre/server";
import type { Benchmark } from "./registry.js";

interface ServerFigures {
  baseline: { requestsPerSec: number; p99Ms: number };
  legacyHire: { hiresPerSec: number; p99Ms: number; throughputVsBaseline: number; p99VsBaseline: number };
  sseFanout: { subscribers: number; burst: { deliveredPerSec: number }; steady: { lagP99Ms: number } };
}

export const serverBench: Benchmark = {
  name: "server",
  description: "legacy hire POST hires/s and p99, SSE fan-out to 100 subscribers, against GET /healthz",
  async run() {
    const r = (await benchServer({
      log: (line) => process.stderr.write(`  ${line}\n`),
    })) as unknown as ServerFigures;
    return {
      figures: [
        { label: "GET /healthz (baseline)", value: r.baseline.requestsPerSec, unit: "req/s" },
        { label: "legacy hire POST", value: r.legacyHire.hiresPerSec, unit: "hires/s" },
        { label: "legacy hire POST p99", value: r.legacyHire.p99Ms, unit: "ms" },
        { label: "legacy hire throughput ÷ baseline", value: r.legacyHire.throughputVsBaseline, unit: "×" },
        {
          label: `SSE burst to ${r.sseFanout.subscribers} subscribers`,
          value: r.sseFanout.burst.deliveredPerSec,
          unit: "events/s",
        },
        { label: "SSE steady lag p99", value: r.sseFanout.steady.lagP99Ms, unit: "ms" },
      ],
    };
  },
};
