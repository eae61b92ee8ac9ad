// Prompt-cache hit rate per model call of a run, and the run's rate so far: a falling line is a
// prefix that stopped matching (MC-3), and money spent on input tokens again.
import type uPlot from "uplot";
import { useMemo } from "preact/hooks";
import type { Usage } from "../../api/types.js";
import { cacheSeries } from "../../model/usage-series.js";
import { Chart } from "../../ui/chart.js";

// Figures in the reader's locale, as everywhere in the dashboard (model/format.ts); the series hold percents.
const pct = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const percent = (v: number) => `${pct.format(v)}%`;

const OPTIONS: Omit<uPlot.Options, "width" | "height"> = {
  scales: { x: { time: false }, y: { range: [0, 100] } },
  axes: [
    { label: "model call", incrs: [1, 2, 5, 10, 20, 50, 100] },
    { label: "cache hit rate (%)", values: (_u, ticks) => ticks.map((t) => percent(t)) },
  ],
  series: [
    { label: "call", value: (_u, v) => (v === null ? "—" : `#${v}`) },
    {
      label: "this call",
      stroke: "#2563eb",
      width: 2,
      points: { show: (u) => u.data[0].length <= 60, size: 6 },
      value: (_u, v) => (v === null ? "—" : percent(v)),
    },
    {
      label: "run so far",
      stroke: "#16a34a",
      width: 2,
      dash: [6, 4],
      value: (_u, v) => (v === null ? "—" : percent(v)),
    },
  ],
};

export function CacheChart({ calls }: { calls: readonly Usage[] }) {
  const data = useMemo(() => {
    const s = cacheSeries(calls);
    return [s.calls, s.perCall, s.cumulative] as uPlot.AlignedData;
  }, [calls]);
  return (
    <Chart
      options={OPTIONS}
      data={data}
      height={220}
      label="Cache hit rate per model call"
      testId="cache-chart"
    />
  );
}
