/**
 * Counts as the UI prints them, with a comma between thousands ("1,234"), as
 * `toLocaleString('en')` prints a whole number. Written out because the first
 * `toLocaleString` of a page sets up ICU's number formatting (15–55 ms on the
 * main thread in a fresh Chromium page): the explorer's object count is drawn
 * in the render that shows the first screen, which a first visit then waited
 * for (decision 0088).
 */

/** `n` with a comma between each group of three digits (whole numbers; others as `String` prints them). */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    out = out === '' ? group : `${group},${out}`;
  }
  return n < 0 ? `-${out}` : out;
}
