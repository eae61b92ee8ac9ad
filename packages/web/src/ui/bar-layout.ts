// The arithmetic of the bar chart (ui/bar-chart.tsx), kept pure so it is tested without a browser:
// where each row's name and bars go, and the value axis's ticks.

export interface BarRowLayout {
  /** Baseline of the name when it sits above the bars. */
  nameY: number;
  /** The vertical middle of the row's bars. */
  middle: number;
  /** The top of each series' bar. */
  bars: number[];
}

export function barRows(
  count: number,
  seriesCount: number,
  size: { bar: number; gap: number; pad: number; nameLine: number },
): { rows: BarRowLayout[]; height: number } {
  const barsHeight = seriesCount * size.bar + Math.max(0, seriesCount - 1) * size.gap;
  const rowHeight = size.nameLine + barsHeight + 2 * size.pad;
  const rows = Array.from({ length: count }, (_, i) => {
    const top = i * rowHeight + size.pad;
    const barsTop = top + size.nameLine;
    return {
      nameY: top + size.nameLine / 2,
      middle: barsTop + barsHeight / 2,
      bars: Array.from({ length: seriesCount }, (_, j) => barsTop + j * (size.bar + size.gap)),
    };
  });
  return { rows, height: count * rowHeight };
}

/** 0 and round steps (1, 2 or 5 × 10^k) up to the first tick at or above `max`, about five of them. */
export function niceTicks(max: number): number[] {
  const end = max > 0 && Number.isFinite(max) ? max : 1;
  const raw = end / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const count = Math.ceil(end / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Math.round(i * step * 1e6) / 1e6);
}
