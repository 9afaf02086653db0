/**
 * Field paths as the server names them in apply conflicts
 * (`.spec.replicas`, `.spec.template.spec.containers[name="app"].image`,
 * `.metadata.finalizers[="example.com/a"]`, `.items[0]`), and the edits the
 * lab's ways out of a conflict make on an applied configuration: read a
 * field, drop it, or set it to the server's value.
 */

export type PathElement =
  { field: string } | { key: Record<string, unknown> } | { value: unknown } | { index: number };

export function parseFieldPath(text: string): PathElement[] {
  const path: PathElement[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '.') {
      let j = i + 1;
      while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
      path.push({ field: text.slice(i + 1, j) });
      i = j;
    } else if (text[i] === '[') {
      let j = i + 1;
      let quoted = false;
      for (; j < text.length; j++) {
        if (text[j] === '\\' && quoted) j++;
        else if (text[j] === '"') quoted = !quoted;
        else if (text[j] === ']' && !quoted) break;
      }
      path.push(parseBracket(text.slice(i + 1, j)));
      i = j + 1;
    } else {
      throw new Error(`cannot read the field path ${text}`);
    }
  }
  return path;
}

function parseBracket(inner: string): PathElement {
  if (inner.startsWith('=')) return { value: JSON.parse(inner.slice(1)) as unknown };
  if (/^\d+$/.test(inner)) return { index: Number(inner) };
  const key: Record<string, unknown> = {};
  // name="a",port=80 — values are JSON; split on commas outside quotes.
  let start = 0;
  let quoted = false;
  const parts: string[] = [];
  for (let j = 0; j <= inner.length; j++) {
    const c = inner[j];
    if (c === '\\' && quoted) j++;
    else if (c === '"') quoted = !quoted;
    else if ((c === ',' && !quoted) || j === inner.length) {
      parts.push(inner.slice(start, j));
      start = j + 1;
    }
  }
  for (const part of parts) {
    const eq = part.indexOf('=');
    key[part.slice(0, eq)] = JSON.parse(part.slice(eq + 1)) as unknown;
  }
  return { key };
}

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matches(item: Json, key: Record<string, unknown>): boolean {
  return (
    isObject(item) && Object.entries(key).every(([k, v]) => JSON.stringify(item[k]) === JSON.stringify(v))
  );
}

function childIndex(list: Json[], element: PathElement): number {
  if ('index' in element) return element.index;
  if ('key' in element) return list.findIndex((item) => matches(item, element.key));
  if ('value' in element)
    return list.findIndex((item) => JSON.stringify(item) === JSON.stringify(element.value));
  return -1;
}

/** The value at `path`, or `found: false`. */
export function getAt(root: Json, path: PathElement[]): { found: boolean; value?: Json } {
  let current = root;
  for (const element of path) {
    if ('field' in element) {
      if (!isObject(current) || !(element.field in current)) return { found: false };
      current = current[element.field];
    } else {
      if (!Array.isArray(current)) return { found: false };
      const index = childIndex(current, element);
      if (index < 0 || index >= current.length) return { found: false };
      current = current[index];
    }
  }
  return { found: true, value: current };
}

/** Removes the field or list item at `path` (in place); true when something was removed. */
export function removeAt(root: Json, path: PathElement[]): boolean {
  const parent = getAt(root, path.slice(0, -1));
  const last = path.at(-1);
  if (!parent.found || last === undefined) return false;
  if ('field' in last) {
    if (!isObject(parent.value) || !(last.field in parent.value)) return false;
    delete parent.value[last.field];
    return true;
  }
  if (!Array.isArray(parent.value)) return false;
  const index = childIndex(parent.value, last);
  if (index < 0) return false;
  parent.value.splice(index, 1);
  return true;
}

/** Sets `path` to `value` (in place), creating maps and keyed list items on the way. */
export function setAt(root: Record<string, Json>, path: PathElement[], value: Json): void {
  let current: Json = root;
  path.forEach((element, i) => {
    const last = i === path.length - 1;
    const next = path[i + 1];
    const fresh = (): Json => (next !== undefined && !('field' in next) ? [] : {});
    if ('field' in element) {
      if (!isObject(current)) throw new Error('cannot set a field inside a non-object');
      if (last) current[element.field] = value;
      else {
        if (current[element.field] === undefined || current[element.field] === null)
          current[element.field] = fresh();
        current = current[element.field];
      }
      return;
    }
    if (!Array.isArray(current)) throw new Error('cannot set a list item inside a non-list');
    let index = childIndex(current, element);
    if (index < 0) {
      const item: Json = 'key' in element ? { ...element.key } : 'value' in element ? element.value : {};
      current.push(item);
      index = current.length - 1;
    }
    if (last) current[index] = value;
    else current = current[index];
  });
}
