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
    const chart = new uPlot({ ...props.options, width: width(), height: props.height }, data.current, el);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: props.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = undefined;
    };
  }, [props.options, props.height]);

  useEffect(() => {
    plot.current?.setData(props.data);
  }, [props.data]);

  return (
    <figure class="chart" aria-label={props.label} data-testid={props.testId}>
      <figcaption>{props.label}</figcaption>
      <div ref={box} class="chart-canvas" role="img" aria-label={props.label} />
    </figure>
  );
}
