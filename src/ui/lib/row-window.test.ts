// The window arithmetic of the virtualised table: which rows to render for a scroll position, with overscan.
import { describe, expect, it } from 'vitest';
import { rowWindow } from './row-window';

describe('rowWindow', () => {
  it('renders the rows in view plus overscan at the top of the list', () => {
    expect(rowWindow({ scrollTop: 0, height: 300, listTop: 100 }, 30, 1500, 5)).toEqual({
      start: 0,
      end: 12,
    });
  });

  it('follows the scroll position, whatever the list length', () => {
    const viewport = { scrollTop: 3100, height: 300, listTop: 100 };
    expect(rowWindow(viewport, 30, 1500, 5)).toEqual({ start: 95, end: 115 });
    expect(rowWindow(viewport, 30, 1_000_000, 5)).toEqual({ start: 95, end: 115 });
  });

  it('stops at the end of the list', () => {
    expect(rowWindow({ scrollTop: 45_000, height: 300, listTop: 100 }, 30, 1500, 5)).toEqual({
      start: 1491,
      end: 1500,
    });
  });

  it('renders nothing for an empty list or an unmeasured row', () => {
    expect(rowWindow({ scrollTop: 0, height: 300, listTop: 0 }, 30, 0, 5)).toEqual({ start: 0, end: 0 });
    expect(rowWindow({ scrollTop: 0, height: 300, listTop: 0 }, 0, 10, 5)).toEqual({ start: 0, end: 0 });
  });

  it('renders the first rows when the list is scrolled far below the view', () => {
    expect(rowWindow({ scrollTop: 0, height: 300, listTop: 5000 }, 30, 1500, 5)).toEqual({
      start: 0,
      end: 0,
    });
    expect(rowWindow({ scrollTop: 0, height: 300, listTop: 200 }, 30, 1500, 0)).toEqual({ start: 0, end: 4 });
  });
});
