// Grouped horizontal bars as SVG: one row per category (its name at the left, or above the bars
// when the chart is narrow), a bar per series, the value at each bar's end and a value axis below.
// Names are measured after they are drawn and the name column sized to the longest, so no label is
// ever cut off (uPlot draws its axis labels on a canvas at a fixed size, which clipped long
// scenario ids). The figures are also in the tables beside the chart.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { barRows, niceTicks } from "./bar-layout.js";

export interface BarSeries {
  label: string;
  /** CSS class of its bars and legend swatch (colours in styles.css). */
  tone: string;
  values: readonly number[];
}

export interface BarChartProps {
  label: string;
  categories: readonly string[];
  series: readonly BarSeries[];
  unit: string;
  format: (v: number) => string;
  /** The axis end when the values have a natural one (100 for a percentage). */
  max?: number;
  testId?: string;
}

/** Below this width the names go above their bars. */
const STACK_BELOW = 560;
const BAR = 11;
const GAP = 3;
const ROW_PAD = 8;
const NAME_LINE = 16;
const AXIS = 40;
const VALUE_ROOM = 52;
const CHAR = 7.2;

export function BarChart(props: BarChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(0);
  const longest = Math.max(0, ...props.categories.map((c) => c.length));
  const [nameWidth, setNameWidth] = useState(longest * CHAR);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const resize = new ResizeObserver(() => setWidth(el.clientWidth));
    resize.observe(el);
    return () => resize.disconnect();
  }, []);

  // The name column is as wide as the widest name really drawn (fonts differ between machines).
  useLayoutEffect(() => {
    const names = svg.current?.querySelectorAll<SVGTextElement>("text.bar-name");
    if (!names || names.length === 0) return;
    const widest = Math.max(...[...names].map((n) => n.getComputedTextLength()));
    if (Math.abs(widest - nameWidth) > 0.5) setNameWidth(widest);
  }, [width, props.categories, nameWidth]);

  const stacked = width > 0 && width < STACK_BELOW;
  const gutter = stacked ? 0 : Math.ceil(nameWidth) + 12;
  // Room at the left for half of the first tick label when no name column is there.
  const plotLeft = gutter + (stacked ? 18 : 4);
  const plotWidth = Math.max(40, width - plotLeft - VALUE_ROOM);
  const max = props.max ?? Math.max(1, ...props.series.flatMap((s) => s.values));
  const ticks = niceTicks(max);
  const top = ticks.at(-1)!;
  const x = (v: number) => plotLeft + (Math.max(0, v) / top) * plotWidth;
  const rows = barRows(props.categories.length, props.series.length, {
    bar: BAR,
    gap: GAP,
    pad: ROW_PAD,
    nameLine: stacked ? NAME_LINE : 0,
  });
  const height = rows.height + AXIS;

  return (
    <figure class="chart bar-chart" aria-label={props.label} data-testid={props.testId}>
      <figcaption>{props.label}</figcaption>
      <ul class="legend" aria-label="Series">
        {props.series.map((s) => (
          <li key={s.label}>
            <span class={`swatch ${s.tone}`} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
      <div ref={box} class="bar-chart-box">
        {width > 0 && (
          <svg
            ref={svg}
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={props.label}
          >
            {ticks.map((t) => (
              <g key={t} class="tick">
                <line x1={x(t)} x2={x(t)} y1={0} y2={rows.height} />
                <text x={x(t)} y={rows.height + 16} text-anchor="middle">
                  {props.format(t)}
                </text>
              </g>
            ))}
            <text class="axis-unit" x={plotLeft + plotWidth} y={rows.height + 33} text-anchor="end">
              {props.unit}
            </text>
            {props.categories.map((name, i) => {
              const row = rows.rows[i]!;
              const summary = props.series.map((s) => `${s.label} ${props.format(s.values[i] ?? 0)}`);
              return (
                <g key={name} class="bar-row" data-testid="bar-row">
                  <title>{`${name}: ${summary.join(", ")}`}</title>
                  <text
                    class="bar-name"
                    x={stacked ? plotLeft : gutter}
                    y={stacked ? row.nameY : row.middle}
                    text-anchor={stacked ? "start" : "end"}
                    dominant-baseline="middle"
                  >
                    {name}
                  </text>
                  {props.series.map((s, j) => {
                    const v = s.values[i] ?? 0;
                    const y = row.bars[j]!;
                    return (
                      <g key={s.label}>
                        <rect
                          class={`bar ${s.tone}`}
                          x={plotLeft}
                          y={y}
                          width={Math.max(0, x(v) - plotLeft)}
                          height={BAR}
                        />
                        <text class="bar-value" x={x(v) + 4} y={y + BAR / 2} dominant-baseline="middle">
                          {props.format(v)}
                        </text>
                      </g>
                    );
                  })}
                </g>
              );
            })}
          </svg>
        )}
      </div>
    </figure>
  );
}
