/**
 * Windowing for a long list of fixed-height rows inside whatever element
 * scrolls it (the nearest scrollable ancestor, else the page): the list
 * element is given by a callback ref, its first row is measured once for
 * the row height, and the rows to render are recomputed at most once per
 * animation frame on scroll or resize, and whenever the row count changes
 * (before paint, unless every row is rendered already).
 * The caller renders rows start..end and spacers for the rest.
 */

import { useCallback, useLayoutEffect, useRef, useState, type RefCallback } from 'react';
import { frameScheduler } from '../lib/frame-scheduler';
import { rowWindow, sameWindow, type RowWindow, type Viewport } from '../lib/row-window';

export interface RowWindowOptions {
  /** Row height assumed until a row is measured, in pixels. */
  estimate: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** Rows rendered before anything is measured. */
  initial: number;
  /** Which element of the list holds a measurable row. */
  rowSelector: string;
}

export interface RowWindowState extends RowWindow {
  /** Attach to the element whose top is the first row's top (e.g. a tbody). */
  listRef: RefCallback<HTMLElement>;
  rowHeight: number;
}

export function useRowWindow(count: number, options: RowWindowOptions): RowWindowState {
  const { estimate, overscan, initial, rowSelector } = options;
  const list = useRef<HTMLElement | null>(null);
  const [rowHeight, setRowHeight] = useState(estimate);
  const [range, setRange] = useState<RowWindow>({ start: 0, end: initial });
  // The latest inputs, for listeners attached once per list element.
  const latest = useRef({ count, rowHeight, overscan, rowSelector });
  latest.current = { count, rowHeight, overscan, rowSelector };

  const update = useCallback(() => {
    const element = list.current;
    if (element === null) return;
    const { count, rowHeight, overscan, rowSelector } = latest.current;
    const row = element.querySelector(rowSelector);
    const measured = row?.getBoundingClientRect().height ?? 0;
    if (measured > 0 && Math.abs(measured - rowHeight) > 0.25) {
      setRowHeight(measured);
      return; // the next layout effect windows with the measured height
    }
    const next = rowWindow(viewportOf(element), rowHeight, count, overscan);
    setRange((current) => (sameWindow(current, next) ? current : next));
  }, []);

  // The list element is kept in a ref, its listeners living as long as it does (a ref callback with a cleanup):
  // a state would make the commit that first shows the list render again at once (a ref's update is synchronous),
  // and flush that render's effects with it. The scroll container is looked up on the next frame, because that
  // reads computed styles, which inside the commit would force a style pass of its own.
  const listRef = useCallback(
    (element: HTMLElement | null) => {
      list.current = element;
      if (element === null) return undefined;
      const frame = frameScheduler(update);
      const onScroll = () => frame.schedule();
      let detach = (): void => undefined;
      const attach = requestAnimationFrame(() => {
        const scroller = scrollerOf(element);
        const target: HTMLElement | Window = scroller ?? globalThis.window;
        target.addEventListener('scroll', onScroll, { passive: true });
        // Its first call (once observed) windows the list as laid out.
        const resize = new ResizeObserver(onScroll);
        resize.observe(scroller ?? document.documentElement);
        detach = () => {
          target.removeEventListener('scroll', onScroll);
          resize.disconnect();
        };
      });
      return () => {
        cancelAnimationFrame(attach);
        detach();
        frame.cancel();
        if (list.current === element) list.current = null;
      };
    },
    [update],
  );

  // Before paint, so a grown list never shows a frame of blank space. While the window holds every row from the
  // first (a short list, or a list within the initial window) there is no spacer and nothing to re-window before
  // paint: measuring then would force a layout inside the commit that first shows the list (a reload's first
  // screen), which the browser does for its frame anyway; the resize observer's first call measures after it.
  const everyRowRendered = range.start === 0 && range.end >= count;
  useLayoutEffect(() => {
    if (!everyRowRendered) update();
  }, [update, count, rowHeight, everyRowRendered]);

  const start = Math.min(range.start, count);
  return { listRef, rowHeight, start, end: Math.max(start, Math.min(range.end, count)) };
}

function scrollerOf(element: HTMLElement): HTMLElement | undefined {
  for (let node = element.parentElement; node !== null; node = node.parentElement) {
    if (node === document.body || node === document.documentElement) return undefined;
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay') return node;
  }
  return undefined;
}

function viewportOf(list: HTMLElement): Viewport {
  const scroller = scrollerOf(list);
  const top = list.getBoundingClientRect().top;
  if (scroller === undefined)
    return {
      scrollTop: globalThis.scrollY,
      height: globalThis.innerHeight,
      listTop: top + globalThis.scrollY,
    };
  return {
    scrollTop: scroller.scrollTop,
    height: scroller.clientHeight,
    listTop: top - scroller.getBoundingClientRect().top - scroller.clientTop + scroller.scrollTop,
  };
}
