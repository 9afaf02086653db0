/**
 * Layout checks for the browser tests (issue 29): an element lies inside the
 * first viewport (reachable without scrolling), the header is one row, and
 * no text is cut without a tooltip saying it whole — an element whose text
 * overflows a box that hides the overflow, an input whose value or
 * placeholder is wider than its box, a select whose chosen option is.
 * The page callbacks run in the browser; the e2e sources compile with Node
 * types, hence the small structural casts instead of DOM types.
 */

import { expect, type Locator, type Page } from '@playwright/test';

/** Asserts that `locator` is visible and wholly inside the viewport as the page is now scrolled. */
export async function expectInViewport(page: Page, locator: Locator, what: string): Promise<void> {
  await expect(locator, what).toBeVisible();
  const box = await locator.boundingBox();
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  expect(box, what).not.toBeNull();
  if (box === null) return;
  expect(
    {
      left: box.x >= 0,
      top: box.y >= 0,
      right: box.x + box.width <= size.width + 0.5,
      bottom: box.y + box.height <= size.height + 0.5,
    },
    `${what} at ${JSON.stringify(box)} inside ${size.width}×${size.height}`,
  ).toEqual({ left: true, top: true, right: true, bottom: true });
}

/** The header's height, and whether all its direct children sit on one row (their tops within a few pixels). */
export async function headerRows(page: Page): Promise<{ height: number; rows: number }> {
  return page.locator('header.header').evaluate((header) => {
    const el = header as unknown as LayoutElement;
    const tops: number[] = [];
    for (const child of Array.from(el.children)) {
      const rect = child.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      const centre = rect.top + rect.height / 2;
      if (!tops.some((t) => Math.abs(t - centre) < 12)) tops.push(centre);
    }
    return { height: el.getBoundingClientRect().height, rows: tops.length };
  });
}

/**
 * The visible texts inside `scope` that are cut without a tooltip: each as
 * `tag "text"`. A tooltip is a `title` on the element, an ancestor or a
 * descendant (a cell cut around its titled span).
 */
export async function clippedTexts(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const doc = (globalThis as unknown as { document: LayoutDocument }).document;
    const win = globalThis as unknown as LayoutWindow;
    const canvas = doc.createElement('canvas').getContext('2d');
    const found: string[] = [];
    // The tooltip may sit on the element, an ancestor, or the child that holds the cut text.
    const titled = (el: LayoutElement) =>
      el.closest('[title]') !== null || el.querySelector('[title]') !== null;
    const textWidth = (el: LayoutElement, text: string) => {
      if (canvas === null) return 0;
      const style = win.getComputedStyle(el);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return canvas.measureText(text).width;
    };
    const inner = (el: LayoutElement) => {
      const style = win.getComputedStyle(el);
      return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    };
    for (const el of Array.from((root as unknown as LayoutElement).querySelectorAll('*'))) {
      const rect = el.getBoundingClientRect();
      // Two pixels or less is the visually-hidden pattern (text for screen readers only).
      if (rect.width <= 2 || rect.height <= 2 || titled(el)) continue;
      const tag = el.tagName.toLowerCase();
      if (tag === 'input' && el.type !== 'checkbox' && el.type !== 'radio') {
        const text = el.value !== '' ? el.value : el.placeholder;
        // One character of slack: the caret and sub-pixel rounding.
        if (text !== '' && textWidth(el, text) > inner(el) + 1) found.push(`input "${text}"`);
        continue;
      }
      if (tag === 'select') {
        const text = el.options[el.selectedIndex]?.text ?? '';
        // The arrow takes about 20 px of the box.
        if (text !== '' && textWidth(el, text) > inner(el) - 18) found.push(`select "${text}"`);
        continue;
      }
      const style = win.getComputedStyle(el);
      const hides =
        style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? '').trim() !== '') {
        found.push(`${tag} "${(el.textContent ?? '').trim().slice(0, 60)}"`);
      }
    }
    return found;
  });
}

interface LayoutRect {
  top: number;
  height: number;
  width: number;
}

interface LayoutElement {
  tagName: string;
  type: string;
  value: string;
  placeholder: string;
  options: { text: string }[];
  selectedIndex: number;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  children: ArrayLike<LayoutElement>;
  getBoundingClientRect(): LayoutRect;
  closest(selector: string): LayoutElement | null;
  querySelectorAll(selector: string): ArrayLike<LayoutElement>;
  querySelector(selector: string): LayoutElement | null;
}

interface LayoutDocument {
  createElement(tag: 'canvas'): {
    getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } | null;
  };
}

interface LayoutWindow {
  getComputedStyle(el: LayoutElement): {
    overflowX: string;
    textOverflow: string;
    paddingLeft: string;
    paddingRight: string;
    fontStyle: string;
    fontWeight: string;
    fontSize: string;
    fontFamily: string;
  };
}
