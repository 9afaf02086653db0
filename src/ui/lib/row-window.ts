/**
 * Which rows of a long list of fixed-height rows a view must render: those
 * that meet the scroll viewport, plus some overscan either side so that a
 * fast scroll or a Tab into the next row finds it already there. Pure
 * arithmetic on the scroll position, so a list of any length costs the
 * same to window.
 */

export interface RowWindow {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
}

export interface Viewport {
  /** How far the scroll container is scrolled. */
  scrollTop: number;
  /** The scroll container's visible height. */
  height: number;
  /** Where the first row starts, measured from the top of the scroll container's content. */
  listTop: number;
}

export function rowWindow(viewport: Viewport, rowHeight: number, count: number, overscan: number): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const top = viewport.scrollTop - viewport.listTop;
  const first = Math.floor(top / rowHeight);
  const last = Math.ceil((top + viewport.height) / rowHeight);
  const start = clamp(first - overscan, 0, count);
  const end = clamp(last + overscan, start, count);
  return { start, end };
}

export function sameWindow(a: RowWindow, b: RowWindow): boolean {
  return a.start === b.start && a.end === b.end;
}

function clamp(n: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, n));
}
