/**
 * Where the cursor is in a YAML text, for completion while the text is
 * still being typed (and so often not valid YAML): the chain of keys and
 * list items above the cursor line, read from indentation alone, and
 * whether the cursor is on a key or on a value. A `- ` marks a list item
 * (`[]` in the path); block scalars (`key: |`) are skipped.
 */

export type PathSegment = string;

/** A list item in a path. */
export const ITEM = '[]';

export interface CursorContext {
  /** Keys and `[]` from the root to the mapping the cursor is in. */
  path: PathSegment[];
  mode: 'key' | 'value';
  /** In value mode: the key whose value is being typed. */
  key?: string;
  /** The partial word before the cursor. */
  word: string;
}

interface Frame {
  indent: number;
  segment: PathSegment;
  /** A key whose value starts on the next line (`key:`), which may hold a list at its own indentation. */
  open: boolean;
}

const keyPattern = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"][^:#]*?):(?:\s|$)/;

export function cursorContext(text: string, offset: number): CursorContext | undefined {
  const before = text.slice(0, offset).split('\n');
  const current = before.pop() ?? '';
  const stack: Frame[] = [];
  let blockScalarIndent: number | undefined;

  const pop = (indent: number) => {
    while (stack.length > 0 && (stack.at(-1) as Frame).indent >= indent) stack.pop();
  };
  /** Consumes `- ` markers at the start of `rest` (at column `col`), pushing an item frame for each. */
  const items = (rest: string, col: number): { rest: string; col: number } => {
    while (rest === '-' || rest.startsWith('- ')) {
      // `key:` followed by `- item` at the key's own indentation is a list under that key.
      while (stack.length > 0) {
        const top = stack.at(-1) as Frame;
        if (top.indent < col || (top.indent === col && top.open && top.segment !== ITEM)) break;
        stack.pop();
      }
      stack.push({ indent: col, segment: ITEM, open: false });
      const after = rest.slice(1);
      const spaces = after.length - after.trimStart().length;
      col += 1 + spaces;
      rest = after.trimStart();
    }
    return { rest, col };
  };

  for (const line of before) {
    const trimmed = line.trim();
    if (trimmed === '---') {
      stack.length = 0;
      blockScalarIndent = undefined;
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    if (blockScalarIndent !== undefined) {
      if (indent > blockScalarIndent) continue;
      blockScalarIndent = undefined;
    }
    const { rest, col } = items(line.slice(indent), indent);
    const match = keyPattern.exec(rest);
    if (match === null) continue;
    pop(col);
    const value = rest.slice(match[0].length).trim();
    stack.push({
      indent: col,
      segment: unquote(match[1] as string),
      open: value === '' || value.startsWith('#'),
    });
    if (/^[|>][-+0-9]*\s*(#.*)?$/.test(value)) blockScalarIndent = col;
  }

  const indent = current.length - current.trimStart().length;
  if (blockScalarIndent !== undefined && indent > blockScalarIndent) return undefined;
  const { rest, col } = items(current.slice(indent), indent);
  const valueMatch = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"][^:#]*?):\s+(\S*)$/.exec(rest);
  if (valueMatch !== null) {
    pop(col);
    return {
      path: stack.map((f) => f.segment),
      mode: 'value',
      key: unquote(valueMatch[1] as string),
      word: valueMatch[2] ?? '',
    };
  }
  if (!/^[\w.\-/]*$/.test(rest)) return undefined;
  pop(col);
  return { path: stack.map((f) => f.segment), mode: 'key', word: rest };
}

function unquote(key: string): string {
  if ((key.startsWith('"') && key.endsWith('"')) || (key.startsWith("'") && key.endsWith("'")))
    return key.slice(1, -1);
  return key.trim();
}
