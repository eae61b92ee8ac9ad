// Baseline against candidate per scenario, as grouped horizontal bars: median hires, and cache hit
// rate. SVG (ui/bar-chart.tsx), so every scenario name is drawn whole at any width.
import { useMemo } from "preact/hooks";
import {
  cacheRateSeries,
  type EvalReport,
  hireSeries,
  type ScenarioSeries,
} from "../../model/eval-report.js";
import { BarChart, type BarSeries } from "../../ui/bar-chart.js";

const sides = (s: ScenarioSeries): BarSeries[] => [
  { label: "baseline", tone: "baseline", values: s.baseline },
  { label: "candidate", tone: "candidate", values: s.candidate },
];
// In the reader's locale, as every figure of the dashboard (model/format.ts).
const oneDigit = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const hires = (v: number) => oneDigit.format(v);
const percent = (v: number) => `${oneDigit.format(v)}%`;

export function EvalCharts({ report }: { report: EvalReport }) {
  const hireData = useMemo(() => hireSeries(report), [report]);
  const cacheData = useMemo(() => cacheRateSeries(report), [report]);
  return (
    <div class="charts eval-charts">
      <section class="card">
        <BarChart
          label="Median hires per scenario: baseline and candidate"
          categories={hireData.labels}
          series={sides(hireData)}
          unit="median hires"
          format={hires}
          testId="eval-hires-chart"
        />
      </section>
      <section class="card">
        <BarChart
          label="Cache hit rate per scenario: baseline and candidate"
          categories={cacheData.labels}
          series={sides(cacheData)}
          unit="cache hit rate (%)"
          format={percent}
          max={100}
          testId="eval-cache-chart"
        />
      </section>
    </div>
  );
}
