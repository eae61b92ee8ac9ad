// Which rows of a long list to render: only those in (or near) the viewport. Row heights are
// measured once rendered and estimated before; offsets are prefix sums, recomputed only when a
// height or the count changed, and the first visible row is found by binary search, so scrolling a
// 10,000-row list costs a few dozen rows of work per frame, not 10,000.

export class RowHeights {
  private heights: number[] = [];
  private offsets: number[] = [0];
  private dirty = false;

  /** `estimate(i)`: the height row i is assumed to have until it is measured. */
  constructor(private readonly estimate: (index: number) => number) {}

  get count(): number {
    return this.heights.length;
  }

  setCount(n: number): void {
    if (n === this.heights.length) return;
    if (n < this.heights.length) this.heights.length = n;
    else for (let i = this.heights.length; i < n; i++) this.heights.push(this.estimate(i));
    this.dirty = true;
  }

  /** Records a measured height; true when it changed anything. */
  set(index: number, height: number): boolean {
    if (index < 0 || index >= this.heights.length || this.heights[index] === height) return false;
    this.heights[index] = height;
    this.dirty = true;
    return true;
  }

  private sums(): number[] {
    if (this.dirty) {
      const offsets = new Array<number>(this.heights.length + 1);
      offsets[0] = 0;
      for (let i = 0; i < this.heights.length; i++) offsets[i + 1] = offsets[i]! + this.heights[i]!;
      this.offsets = offsets;
      this.dirty = false;
    }
    return this.offsets;
  }

  offsetOf(index: number): number {
    const s = this.sums();
    return s[Math.max(0, Math.min(index, s.length - 1))]!;
  }

  total(): number {
    const s = this.sums();
    return s[s.length - 1]!;
  }

  /** The row at vertical position y (clamped to the list). */
  indexAt(y: number): number {
    const s = this.sums();
    let lo = 0;
    let hi = this.heights.length - 1;
    if (hi < 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Rows [start, end) to render for a viewport, with `overscan` pixels above and below. */
export function visibleRange(
  rows: RowHeights,
  scrollTop: number,
  viewport: number,
  overscan: number,
): { start: number; end: number } {
  if (rows.count === 0) return { start: 0, end: 0 };
  const start = rows.indexAt(Math.max(0, scrollTop - overscan));
  const last = rows.indexAt(scrollTop + viewport + overscan);
  return { start, end: Math.min(rows.count, last + 1) };
}
