/**
 * Property-name escaping: how a schema property becomes a CEL field name.
 * Names must match `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*`; `__` becomes
 * `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a
 * name that is exactly a CEL reserved word `__{word}__`. Other names are not
 * accessible from expressions.
 */

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ESCAPES: Record<string, string> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** The CEL field name for a property, or undefined when the property cannot be accessed. */
export function escapeName(name: string): string | undefined {
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  return name.replace(/__|[.\-/]/g, (m) => ESCAPES[m]!);
}

const UNESCAPES: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** The property name of an escaped CEL field name, or undefined for an invalid escape sequence. */
export function unescapeName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (m) => {
    const inner = m.slice(2, -2);
    if (UNESCAPES[inner] !== undefined) return UNESCAPES[inner];
    if (RESERVED.has(inner) && m.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
