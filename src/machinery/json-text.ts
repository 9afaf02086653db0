/**
 * JSON text of a wide value in slices: `JSON.stringify` is native and runs
 * whole, ~20 ms for a ConfigMap of 100,000 keys on an idle core and many
 * times that on a loaded one, during which no other client is answered.
 * This writes the same text (byte for byte, compact or indented by two as
 * `JSON.stringify(v, null, 2)`) in pieces: small subtrees and runs of up
 * to `chunkMembers` members go through `JSON.stringify` at once (a run as
 * a temporary object whose braces are cut off), and the work may pause
 * between pieces (machinery/cooperative.ts).
 */

import { pauseDue, type Work } from './cooperative';
import { knownToBeWide } from './json';

/** Members written by one native call. */
const chunkMembers = 2048;

/**
 * `keyOrder`, when it gives an order for an object, is the order its keys are written in instead of their
 * own (the Go shaper's wide maps, left unsorted: registry/encoding/go-json.ts); undefined members are
 * skipped either way.
 */
export function* jsonTextWork(
  value: unknown,
  pretty: boolean,
  keyOrder?: (o: object) => string[] | undefined,
): Work<string> {
  const parts: string[] = [];
  yield* emit(value, pretty, '\n', parts, new Sizes(), keyOrder);
  return parts.join('');
}

/**
 * Whether values are wide (more than `chunkMembers` members through every level), remembered for the
 * whole text: listing a wide object's keys is one native pass over all of them, so each wide object is
 * measured once, not once per level above it.
 */
class Sizes {
  private readonly wide = new WeakSet<object>();

  isWide(v: unknown): v is object {
    if (typeof v !== 'object' || v === null || typeof (v as { toJSON?: unknown }).toJSON === 'function')
      return false;
    if (this.wide.has(v)) return true;
    const over = this.over(v, { left: chunkMembers });
    if (over) this.wide.add(v);
    return over;
  }

  /** Counts `v`'s members against the budget: true once it runs out. An object wide by itself is remembered. */
  private over(v: object, budget: { left: number }): boolean {
    // Known wide to the store's copies and the shaper (more than `slicedAbove` > `chunkMembers` members):
    // not listed again.
    if (this.wide.has(v) || knownToBeWide(v)) return true;
    const items: unknown[] = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    if (items.length > chunkMembers) {
      this.wide.add(v);
      return true;
    }
    budget.left -= items.length;
    if (budget.left < 0) return true;
    for (const item of items)
      if (typeof item === 'object' && item !== null && this.over(item, budget)) return true;
    return false;
  }
}

/** Native text of a small value at the indentation `nl` (a newline and the current indent; '\n' at top). */
function native(v: unknown, pretty: boolean, nl: string): string {
  if (!pretty) return JSON.stringify(v);
  const text = JSON.stringify(v, null, 2);
  return nl === '\n' ? text : text.replace(/\n/g, nl);
}

function* emit(
  v: unknown,
  pretty: boolean,
  nl: string,
  parts: string[],
  sizes: Sizes,
  keyOrder: ((o: object) => string[] | undefined) | undefined,
): Work<void> {
  if (!sizes.isWide(v)) {
    parts.push(native(v, pretty, nl));
    return;
  }
  const inner = pretty ? `${nl}  ` : '';
  if (Array.isArray(v)) {
    parts.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) parts.push(',');
      parts.push(inner);
      const item: unknown = v[i];
      // As JSON.stringify: an item that has no JSON form is null.
      const shown =
        item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item;
      yield* emit(shown, pretty, inner, parts, sizes, keyOrder);
      if (pauseDue()) yield;
    }
    parts.push(pretty ? `${nl}]` : ']');
    return;
  }
  const obj = v as Record<string, unknown>;
  let first = true;
  let run: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let runSize = 0;
  const flush = (): void => {
    if (runSize === 0) return;
    // The run's own text without its braces: `{"a":1}` → `"a":1`; indented, `{\n  "a": 1\n}` → `\n  "a": 1`.
    const text = native(run, pretty, nl);
    const body = pretty ? text.slice(1, text.length - nl.length - 1) : text.slice(1, -1);
    if (!first) parts.push(',');
    parts.push(body);
    first = false;
    run = Object.create(null) as Record<string, unknown>;
    runSize = 0;
  };
  parts.push('{');
  for (const key of keyOrder?.(obj) ?? Object.keys(obj)) {
    const child = obj[key];
    if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
    if (sizes.isWide(child)) {
      flush();
      if (!first) parts.push(',');
      first = false;
      parts.push(`${inner}${JSON.stringify(key)}:${pretty ? ' ' : ''}`);
      yield* emit(child, pretty, inner, parts, sizes, keyOrder);
    } else {
      run[key] = child;
      if (++runSize >= chunkMembers) flush();
    }
    if (pauseDue()) {
      flush();
      yield;
    }
  }
  flush();
  parts.push(first ? '}' : pretty ? `${nl}}` : '}');
}
