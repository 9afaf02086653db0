/**
 * Reading an instructor's lesson file (YAML or JSON, from a file, a URL or
 * a link): parse with positions, check it (validate.ts), and either return
 * the lesson or refuse it whole with every problem at its line and column —
 * a syntax error, an unknown field, a CEL expression that does not compile
 * or costs too much. Nothing else happens on the way: a refused file
 * changes nothing.
 */

import type { Node as YamlNode } from 'yaml';
import { yamlLibrary } from '../machinery/decode/yaml-library';
import type { LessonDocument } from './format';
import { lessonProblems, pointerPath, type LessonProblem } from './validate';

/** The largest lesson file read (a lesson is text and a few objects). */
export const MAX_LESSON_BYTES = 1024 * 1024;

export class LessonFileError extends Error {
  constructor(
    /** Where the file came from (its name or URL). */
    readonly source: string,
    readonly problems: LessonProblem[],
  ) {
    super(
      `${source} is not a valid lesson:\n${problems.map((p) => `  ${formatProblem(source, p)}`).join('\n')}`,
    );
    this.name = 'LessonFileError';
  }
}

/** `lesson.yaml:12:7: steps[0].checks[0].expect: CEL: ...`. */
export function formatProblem(source: string, problem: LessonProblem): string {
  const where = problem.line !== undefined ? `${source}:${problem.line}:${problem.column ?? 1}` : source;
  const path = pointerPath(problem.pointer);
  return `${where}: ${path === '' ? '' : `${path}: `}${problem.message}`;
}

/** The lesson in `text`, or a `LessonFileError` naming every problem with its position. */
export async function readLessonFile(text: string, source: string): Promise<LessonDocument> {
  if (new TextEncoder().encode(text).length > MAX_LESSON_BYTES)
    throw new LessonFileError(source, [
      { pointer: '', message: `a lesson file may have at most ${MAX_LESSON_BYTES} bytes` },
    ]);
  const yaml = await yamlLibrary.load();
  const lineCounter = new yaml.LineCounter();
  const documents = yaml.parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [documents];
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntax = list.flatMap((d) => d.errors);
  if (syntax.length > 0)
    throw new LessonFileError(
      source,
      syntax.map((e) => ({ pointer: '', message: firstLine(e.message), ...position(e.pos[0]) })),
    );
  const nonEmpty = list.filter((d) => d.contents !== null);
  if (nonEmpty.length !== 1)
    throw new LessonFileError(source, [
      { pointer: '', message: `a lesson file holds one document, not ${nonEmpty.length}` },
    ]);
  const document = nonEmpty[0]!;
  const value: unknown = document.toJS({ maxAliasCount: 100 });
  const problems = await lessonProblems(value);
  if (problems.length > 0)
    throw new LessonFileError(
      source,
      problems.map((p) => ({
        ...p,
        ...locate(document.contents, p, position, yaml.isMap, yaml.isSeq, yaml.isPair, yaml.isScalar),
      })),
    );
  return value as LessonDocument;
}

type Guard = (node: unknown) => boolean;

/** The file position of a problem: the node its pointer names (a key, for an unknown field), or its nearest parent. */
function locate(
  root: unknown,
  problem: LessonProblem,
  position: (offset: number) => { line: number; column: number },
  isMap: Guard,
  isSeq: Guard,
  isPair: Guard,
  isScalar: Guard,
): { line?: number; column?: number } {
  const segments = problem.pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = root as YamlNode | null | undefined;
  let found: YamlNode | null | undefined = node;
  for (const segment of segments) {
    let next: YamlNode | null | undefined;
    if (isMap(node)) {
      const pair = (node as unknown as { items: { key: unknown; value: unknown }[] }).items.find(
        (p) => isPair(p) && isScalar(p.key) && String((p.key as { value: unknown }).value) === segment,
      );
      // An unknown field is reported at its key; anything else at its value.
      next = (
        pair === undefined
          ? undefined
          : problem.message.startsWith('unknown field') && segment === segments.at(-1)
            ? pair.key
            : pair.value
      ) as YamlNode | undefined;
    } else if (isSeq(node)) {
      next = (node as unknown as { items: YamlNode[] }).items[Number(segment)];
    }
    if (next === undefined || next === null) break;
    node = next;
    found = next;
  }
  const range = (found as { range?: [number, number, number] } | null | undefined)?.range;
  if (range === undefined) return {};
  const start = position(range[0]);
  if (problem.expression === undefined || !isScalar(found)) return start;
  // A CEL error inside a one-line scalar: the column within the expression, past an opening quote.
  const scalar = found as unknown as { type?: string; source?: string };
  const quoted = scalar.type === 'QUOTE_DOUBLE' || scalar.type === 'QUOTE_SINGLE' ? 1 : 0;
  if (problem.expression.line === 1 && (scalar.type === 'PLAIN' || quoted === 1))
    return { line: start.line, column: start.column + quoted + problem.expression.column - 1 };
  if (scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED')
    return { line: start.line + problem.expression.line, column: problem.expression.column };
  return start;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
