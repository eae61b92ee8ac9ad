// A list that renders only the rows in view (see virtual-window.ts). Rows may have any height:
// each rendered row is observed and its measured height replaces the estimate. With `follow`, a
// list scrolled to its end stays at the end as rows arrive (a live run), until the reader scrolls up.
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { RowHeights, visibleRange } from "./virtual-window.js";

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Changes whenever items changed (the array may be mutated in place). */
  version: number;
  itemKey(item: T, index: number): string;
  renderItem(item: T, index: number): ComponentChildren;
  /**
   * Height a row is assumed to have before it is measured, in px. The closer to the truth, the
   * less the list shifts and re-renders as rows come into view.
   */
  estimate(item: T): number;
  label: string;
  follow?: boolean;
  class?: string;
  testId?: string;
}

/** Rows rendered beyond the viewport, each side: enough for a wheel step, small enough for a jump. */
const OVERSCAN_PX = 200;

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items } = props;
  const estimate = useRef(props.estimate);
  estimate.current = props.estimate;
  const list = useRef(items);
  list.current = items;
  const rows = useMemo(() => new RowHeights((i) => estimate.current(list.current[i] as T)), []);
  rows.setCount(items.length);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const [, setMeasured] = useState(0);
  const atEnd = useRef(true);
  const frame = useRef(0);

  // Measures rendered rows; any changed height re-renders the list once per batch of measurements.
  const observer = useMemo(
    () =>
      typeof ResizeObserver === "undefined"
        ? undefined
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const el = entry.target as HTMLElement;
              // A row leaving the list reports size 0 before it is unobserved: not a measurement.
              if (!el.isConnected) continue;
              const index = Number(el.dataset["index"]);
              const height = entry.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight;
              if (rows.set(index, Math.ceil(height))) changed = true;
            }
            if (changed) setMeasured((n) => n + 1);
          }),
    [rows],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
      if (frame.current) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        setView({ top: el.scrollTop, height: el.clientHeight });
      });
    };
    const resize = new ResizeObserver(() => setView({ top: el.scrollTop, height: el.clientHeight }));
    resize.observe(el);
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      resize.disconnect();
      if (frame.current) cancelAnimationFrame(frame.current);
    };
  }, []);

  const total = rows.total();
  // Following: keep the end in view while rows arrive, unless the reader scrolled away.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (props.follow && el && atEnd.current && el.scrollTop + el.clientHeight < total) el.scrollTop = total;
  }, [props.follow, props.version, total]);

  const { start, end } = visibleRange(rows, view.top, view.height, OVERSCAN_PX);
  const rendered: ComponentChildren[] = [];
  for (let i = start; i < end; i++) {
    const item = items[i] as T;
    rendered.push(
      <Row
        key={props.itemKey(item, i)}
        index={i}
        count={items.length}
        offset={rows.offsetOf(i)}
        observer={observer}
      >
        {props.renderItem(item, i)}
      </Row>,
    );
  }

  return (
    <div
      ref={scroller}
      class={`vlist ${props.class ?? ""}`}
      tabIndex={0}
      aria-label={props.label}
      data-testid={props.testId}
      // A short list is as tall as its rows (no empty box under one row); a long one scrolls.
      style={{ "--vlist-content": `${total + 2}px` }}
    >
      <div class="vlist-inner" role="list" aria-label={props.label} style={{ height: `${total}px` }}>
        {rendered}
      </div>
    </div>
  );
}

function Row(props: {
  index: number;
  count: number;
  offset: number;
  observer: ResizeObserver | undefined;
  children: ComponentChildren;
}) {
  const el = useRef<HTMLDivElement>(null);
  const { observer } = props;
  useLayoutEffect(() => {
    const node = el.current;
    if (!node || !observer) return;
    observer.observe(node);
    return () => observer.unobserve(node);
  }, [observer]);
  return (
    <div
      ref={el}
      class="vrow"
      role="listitem"
      aria-posinset={props.index + 1}
      aria-setsize={props.count}
      data-index={props.index}
      style={{ top: `${props.offset}px` }}
    >
      {props.children}
    </div>
  );
}
