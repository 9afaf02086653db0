/**
 * Compile errors with their position, worded and laid out like cel-go's
 * (`ERROR: <input>:1:6: undeclared reference to 'x' (in container '')` with
 * the source line and a caret), so the CRD layer can return the real
 * server's 422 text. The engine's own messages are translated by error code.
 */

export interface CompileError {
  /** Full cel-go style text: header line, source line, caret line. */
  readonly message: string;
  /** The error alone, e.g. `undefined field 'replicas'`. */
  readonly summary: string;
  /** Offset in the source (UTF-16 units), 1-based line, 1-based column. */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly code: string;
}

export function positionOf(
  source: string,
  offset: number,
  summary: string,
  code = 'type_error',
): CompileError {
  const clamped = Math.max(0, Math.min(offset, source.length));
  const before = source.slice(0, clamped);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = clamped - lineStart + 1;
  const lineText = source.slice(lineStart).split('\n')[0] ?? '';
  const message = `ERROR: <input>:${line}:${column}: ${summary}\n | ${lineText}\n | ${'.'.repeat(column - 1)}^`;
  return { message, summary, offset: clamped, line, column, code };
}

interface EngineError {
  code?: string;
  summary?: string;
  message?: string;
  range?: { start: number; end: number };
  node?: { pos?: number; op?: string; args?: unknown };
}

function asEngineError(error: unknown): EngineError {
  return error !== null && typeof error === 'object' ? (error as EngineError) : { message: String(error) };
}

function offsetOf(e: EngineError): number {
  return e.node?.pos ?? e.range?.start ?? 0;
}

export function describeParseError(source: string, error: unknown): CompileError {
  const e = asEngineError(error);
  const summary = e.summary ?? e.message ?? 'invalid expression';
  return positionOf(source, offsetOf(e), `Syntax error: ${summary}`, e.code ?? 'parse_error');
}

const OPERATOR_NAMES: Record<string, string> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  in: '@in',
};

function translate(e: EngineError): string {
  const summary = e.summary ?? e.message ?? 'type error';
  switch (e.code) {
    case 'unknown_variable':
      return summary.replace(/^Unknown variable: (.*)$/, "undeclared reference to '$1' (in container '')");
    case 'no_such_key':
      return summary.replace(/^No such key: (.*)$/, "undefined field '$1'");
    case 'no_matching_overload': {
      const m = /^found no matching overload for '(?:(.*)\.)?([A-Za-z_][\w]*)\((.*)\)'$/.exec(summary);
      if (m === null) return summary;
      return `found no matching overload for '${m[2]}' applied to '${m[1] !== undefined ? `${m[1]}.` : ''}(${m[3]})'`;
    }
    case 'no_such_overload': {
      const binary = /^no such overload: (.+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)$/.exec(summary);
      if (binary !== null)
        return `found no matching overload for '${OPERATOR_NAMES[binary[2]!]}' applied to '(${binary[1]}, ${binary[3]})'`;
      const unary = /^no such overload: ([-!])(.+)$/.exec(summary);
      if (unary !== null) return `found no matching overload for '${unary[1]}_' applied to '(${unary[2]})'`;
      return summary;
    }
    default:
      return summary;
  }
}

export function describeCheckError(source: string, error: unknown): CompileError {
  const e = asEngineError(error);
  if (e.code !== undefined && (error as { name?: string }).name === 'ParseError')
    return describeParseError(source, error);
  let offset = offsetOf(e);
  // cel-go places a field selection at its dot; the engine at the field name.
  if (e.node?.op === '.' || e.node?.op === '.?') offset = Math.max(0, source.lastIndexOf('.', offset - 1));
  return positionOf(source, offset, translate(e), e.code ?? 'type_error');
}
