// A uPlot chart that fills its container's width: created once per set of options, fed new data
// in place, resized with its container. The figure is labelled; the numbers it draws are also in
// the tables beside it, for readers who cannot see the canvas.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "preact/hooks";

export interface ChartProps {
  /** Everything but the size, which follows the container. */
  options: Omit<uPlot.Options, "width" | "height">;
  data: uPlot.AlignedData;
  height: number;
  label: string;
  testId?: string;
}

export function Chart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const data = useRef(props.data);
  data.current = props.data;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(200, el.clientWidth);
    // At rest (no pointer over the plot) the legend shows the last point's values rather than
    // uPlot's empty "--": what a reader sees before hovering is the latest figure.
    const atRest = (u: uPlot) => {
      const last = u.data[0].length - 1;
      if (u.cursor.idx == null && last >= 0) u.setLegend({ idx: last });
    };
    const hooks = { ...props.options.hooks, setCursor: [...(props.options.hooks?.setCursor ?? []), atRest] };
    const chart = new uPlot(
      { ...props.options, hooks, width: width(), height: props.height },
      data.current,
      el,
    );
    plot.current = chart;
    atRest(chart);
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: props.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = undefined;
    };
  }, [props.options, props.height]);

  useEffect(() => {
    const chart = plot.current;
    if (!chart) return;
    chart.setData(props.data);
    if (chart.cursor.idx == null && props.data[0].length > 0)
      chart.setLegend({ idx: props.data[0].length - 1 });
  }, [props.data]);

  return (
    <figure class="chart" aria-label={props.label} data-testid={props.testId}>
      <figcaption>{props.label}</figcaption>
      <div ref={box} class="chart-canvas" role="img" aria-label={props.label} />
    </figure>
  );
}
