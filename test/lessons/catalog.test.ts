/**
 * The course as data: every built-in lesson passes the same checks an
 * instructor's file does (schema, unique ids, CEL compile and cost), cites
 * only spec sections the app lists, and has a two-way test; the file reader
 * refuses bad files whole with their positions; lessons read in the
 * `kubernetes` profile use its names.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinLessons } from '../../src/lessons/builtin/index';
import { LessonFileError, readLessonFile } from '../../src/lessons/load';
import { localize } from '../../src/lessons/localize';
import { lessonProblems } from '../../src/lessons/validate';
import { namingProfile } from '../../src/machinery/naming';
import { allSpecSections } from '../../src/ui/lib/spec-sections';

describe('the built-in course', () => {
  it('has at least 18 lessons with unique ids', () => {
    expect(builtinLessons.length).toBeGreaterThanOrEqual(18);
    expect(new Set(builtinLessons.map((l) => l.id)).size).toBe(builtinLessons.length);
  });

  it.each(builtinLessons.map((l) => [l.id, l] as const))(
    '%s passes the lesson checks',
    async (_id, lesson) => {
      expect(await lessonProblems(lesson)).toEqual([]);
      for (const section of lesson.sections)
        for (const id of section.spec ?? [])
          expect(Object.keys(allSpecSections), `spec section ${id}`).toContain(id);
    },
  );

  it('has a test completing each lesson', () => {
    const tests = readdirSync('test/lessons')
      .filter((f) => f.endsWith('.test.ts') && f !== 'catalog.test.ts')
      .map((f) => readFileSync(`test/lessons/${f}`, 'utf8'))
      .join('\n');
    for (const lesson of builtinLessons)
      expect(tests, `a completeLesson(server, …) for ${lesson.id}`).toMatch(
        new RegExp(`completeLesson\\(\\s*server,\\s*${exportName(lesson.id)},`),
      );
  });
});

/** The exported name of a built-in lesson module's lesson (its file's camel-cased name, or a known alias). */
function exportName(id: string): string {
  const aliases: Record<string, string> = { 'server-side-apply': 'apply', rbac: 'rbacLesson' };
  return aliases[id] ?? id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

const good = `apiVersion: sandbox.orch.io/v1
kind: Lesson
id: mine
title: Mine
goal: Learn something
sections:
  - text: Some text
steps:
  - id: one
    title: One
    text: Do it
    checks:
      - description: it exists
        read: { object: { apiVersion: v1, resource: configmaps, namespace: x, name: y } }
        expect: object != null
    showMe:
      - request: { method: GET, path: /api }
`;

async function problemsOf(text: string): Promise<string[]> {
  try {
    await readLessonFile(text, 'lesson.yaml');
  } catch (error) {
    if (error instanceof LessonFileError)
      return error.message
        .split('\n')
        .slice(1)
        .map((l) => l.trim());
    throw error;
  }
  return [];
}

describe('reading an instructor’s file', () => {
  it('accepts a valid lesson', async () => {
    expect((await readLessonFile(good, 'lesson.yaml')).id).toBe('mine');
  });

  it('refuses an unknown field at its key', async () => {
    expect(await problemsOf(good.replace('    title: One', '    title: One\n    colour: red'))).toEqual([
      'lesson.yaml:11:5: steps[0].colour: unknown field "colour"',
    ]);
  });

  it('refuses a CEL expression that does not compile, at the column of the error', async () => {
    expect(await problemsOf(good.replace('expect: object != null', 'expect: objct != null'))).toEqual([
      "lesson.yaml:15:17: steps[0].checks[0].expect: CEL: undeclared reference to 'objct' (in container '') (this read binds `object`)",
    ]);
  });

  it('refuses an expression over its cost budget', async () => {
    const [problem] = await problemsOf(
      good.replace('expect: object != null', 'expect: object.data.all(a, object.data.all(b, a == b))'),
    );
    expect(problem).toMatch(
      /^lesson\.yaml:15:17: steps\[0\]\.checks\[0\]\.expect: the expression's estimated cost \(\d+\) exceeds the budget of 10000000/,
    );
  });

  it('refuses a syntax error with its position', async () => {
    const [problem] = await problemsOf(good.replace('title: Mine', 'title: [Mine'));
    expect(problem).toMatch(/^lesson\.yaml:\d+:\d+: /);
  });

  it('refuses a read of no known form, and an uncaptured ${name}', async () => {
    expect(await problemsOf(good.replace('read: { object', 'read: { objekt'))).toEqual([
      'lesson.yaml:14:15: steps[0].checks[0].read: needs one of the fields "object", "list", "http", "requests", "trace", "watch", "access"',
    ]);
    expect(
      await problemsOf(
        good.replace(
          '      - request: { method: GET, path: /api }',
          '      - request:\n          method: GET\n          path: /api/${rv}',
        ),
      ),
    ).toEqual([
      'lesson.yaml:17:9: steps[0].showMe[0]: ${rv} is not captured by an earlier action of this step',
    ]);
  });

  it('refuses a request sent both as an identity and with a certificate, and one whose certificate lacks its key', async () => {
    const withCertificate = (extra: string) =>
      good.replace(
        '      - request: { method: GET, path: /api }',
        `      - request: { method: GET, path: /api }\n        withCertificate: { certificate: x${extra} }`,
      );
    expect(await problemsOf(withCertificate(', key: y }\n        as: alice'))).toEqual([
      'lesson.yaml:18:26: steps[0].showMe[0].withCertificate: a request is sent either "as" an identity or "withCertificate", not both',
    ]);
    expect(await problemsOf(withCertificate(''))).toEqual([
      'lesson.yaml:18:26: steps[0].showMe[0].withCertificate: missing required field "key"',
    ]);
  });
});

describe('profiles', () => {
  it('rewrites group, label and system names for the kubernetes profile', () => {
    const k8s = namingProfile('kubernetes');
    expect(
      localize(
        [
          'rbac.authorization.orch.io/v1',
          'apiGroups: [rbac.authorization.orch.io]',
          'pod-security.orch.io/enforce',
          'orch.io/service-account-token',
          'orch.io/apiserver-client',
          'x-orch-validations',
          'orch-system',
          'jws-orchconfig-abcdef',
          'application/json;as=Table;g=meta.orch.io;v=v1',
          'node.orch.io/v1',
          'node.orch.io/not-ready',
        ],
        k8s,
      ),
    ).toEqual([
      'rbac.authorization.k8s.io/v1',
      'apiGroups: [rbac.authorization.k8s.io]',
      'pod-security.kubernetes.io/enforce',
      'kubernetes.io/service-account-token',
      'kubernetes.io/kube-apiserver-client',
      'x-kubernetes-validations',
      'kube-system',
      'jws-kubeconfig-abcdef',
      'application/json;as=Table;g=meta.k8s.io;v=v1',
      'node.k8s.io/v1',
      'node.kubernetes.io/not-ready',
    ]);
  });
});
