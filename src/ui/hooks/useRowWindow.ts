/**
 * Windowing for a long list of fixed-height rows inside whatever element
 * scrolls it (the nearest scrollable ancestor, else the page): the list
 * element is given by a callback ref, its first row is measured once for
 * the row height, and the rows to render are recomputed at most once per
 * animation frame on scroll or resize, and whenever the row count changes.
 * The caller renders rows start..end and spacers for the rest.
 */

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
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
  listRef: (element: HTMLElement | null) => void;
  rowHeight: number;
}

export function useRowWindow(count: number, options: RowWindowOptions): RowWindowState {
  const { estimate, overscan, initial, rowSelector } = options;
  const [list, setList] = useState<HTMLElement | null>(null);
  const [rowHeight, setRowHeight] = useState(estimate);
  const [range, setRange] = useState<RowWindow>({ start: 0, end: initial });
  // The latest inputs, for listeners attached once per list element.
  const latest = useRef({ count, rowHeight, overscan, rowSelector });
  latest.current = { count, rowHeight, overscan, rowSelector };

  const update = useCallback(() => {
    if (list === null) return;
    const { count, rowHeight, overscan, rowSelector } = latest.current;
    const row = list.querySelector(rowSelector);
    const measured = row?.getBoundingClientRect().height ?? 0;
    if (measured > 0 && Math.abs(measured - rowHeight) > 0.25) {
      setRowHeight(measured);
      return; // the next layout effect windows with the measured height
    }
    const next = rowWindow(viewportOf(list), rowHeight, count, overscan);
    setRange((current) => (sameWindow(current, next) ? current : next));
  }, [list]);

  useEffect(() => {
    if (list === null) return;
    const frame = frameScheduler(update);
    const scroller = scrollerOf(list);
    const target: HTMLElement | Window = scroller ?? globalThis.window;
    const onScroll = () => frame.schedule();
    target.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(onScroll);
    resize.observe(scroller ?? document.documentElement);
    return () => {
      target.removeEventListener('scroll', onScroll);
      resize.disconnect();
      frame.cancel();
    };
  }, [list, update]);

  // Before paint, so a grown list never shows a frame of blank space.
  useLayoutEffect(update, [update, count, rowHeight]);

  const start = Math.min(range.start, count);
  return { listRef: setList, rowHeight, start, end: Math.max(start, Math.min(range.end, count)) };
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
