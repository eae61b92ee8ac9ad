// Baseline against candidate per scenario, as grouped bars: median hires, and cache hit rate.
import uPlot from "uplot";
import { useMemo } from "preact/hooks";
import {
  cacheRateSeries,
  type EvalReport,
  hireSeries,
  type ScenarioSeries,
} from "../../model/eval-report.js";
import { Chart } from "../../ui/chart.js";

function barOptions(s: ScenarioSeries, unit: string): Omit<uPlot.Options, "width" | "height"> {
  const bars = (align: -1 | 1) => uPlot.paths.bars!({ size: [0.35, 28], align });
  return {
    // Room on the right for the last slanted scenario name.
    padding: [8, 48, 0, 0],
    scales: { x: { time: false, range: [-0.6, s.x.length - 0.4] } },
    axes: [
      {
        values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? (s.labels[t] ?? "") : "")),
        rotate: -35,
        size: 110,
        incrs: [1],
        gap: 4,
      },
      { label: unit },
    ],
    series: [
      { label: "scenario", value: (_u, v) => (v === null ? "" : (s.labels[v] ?? "")) },
      {
        label: "baseline",
        fill: "rgba(100,116,139,0.75)",
        stroke: "#475569",
        paths: bars(-1),
        points: { show: false },
      },
      {
        label: "candidate",
        fill: "rgba(37,99,235,0.75)",
        stroke: "#1d4ed8",
        paths: bars(1),
        points: { show: false },
      },
    ],
  };
}

export function EvalCharts({ report }: { report: EvalReport }) {
  const hires = useMemo(() => hireSeries(report), [report]);
  const cache = useMemo(() => cacheRateSeries(report), [report]);
  const hireOptions = useMemo(() => barOptions(hires, "median hires"), [hires]);
  const cacheOptions = useMemo(() => barOptions(cache, "cache hit rate (%)"), [cache]);
  const hireData = useMemo<uPlot.AlignedData>(() => [hires.x, hires.baseline, hires.candidate], [hires]);
  const cacheData = useMemo<uPlot.AlignedData>(() => [cache.x, cache.baseline, cache.candidate], [cache]);
  return (
    <div class="charts">
      <section class="card wide">
        <Chart
          options={hireOptions}
          data={hireData}
          height={300}
          label="Median hires per scenario: baseline and candidate"
          testId="eval-hires-chart"
        />
      </section>
      <section class="card wide">
        <Chart
          options={cacheOptions}
          data={cacheData}
          height={300}
          label="Cache hit rate per scenario: baseline and candidate"
          testId="eval-cache-chart"
        />
      </section>
    </div>
  );
}
