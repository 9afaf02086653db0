/** The trace view's pure model: stages of the diagram, Audit-Id lookup, merging the live feed. */

import { describe, expect, it } from 'vitest';
import type { AdmissionTraceRecord, AdmissionTraceStep } from '../../api/admission-trace';
import { afterOf, auditIdOf, mergeRecords, passTitle, stagesOf } from './trace-model';

const step = (name: string, over: Partial<AdmissionTraceStep> = {}): AdmissionTraceStep => ({
  name,
  type: 'plugin',
  phase: 'mutating',
  decision: 'allowed',
  durationMs: 0.1,
  ...over,
});

describe('stagesOf', () => {
  it('groups consecutive steps of one kind, keeping the order they ran in', () => {
    const stages = stagesOf([
      step('NamespaceLifecycle'),
      step('ServiceAccount', { decision: 'patched' }),
      step('hooks/a', { type: 'webhook', round: 0 }),
      step('hooks/b', { type: 'webhook', round: 0 }),
      step('hooks/a', { type: 'webhook', round: 1 }),
      step('PodSecurity', { phase: 'validating' }),
      step('p', { phase: 'validating', type: 'policy' }),
      step('v/x', { phase: 'validating', type: 'webhook' }),
    ]);
    expect(stages.map((s) => [s.label, s.steps.map((x) => x.index)])).toEqual([
      ['Mutating plugins', [0, 1]],
      ['Mutating webhooks, round 1', [2, 3]],
      ['Mutating webhooks, round 2', [4]],
      ['Validating plugins', [5]],
      ['Admission policies', [6]],
      ['Validating webhooks', [7]],
    ]);
  });
});

describe('auditIdOf', () => {
  const cases: [Parameters<typeof auditIdOf>[0], string | undefined][] = [
    [[['Audit-Id', 'abc']], 'abc'],
    [[['audit-id', 'x']], 'x'],
    [new Headers({ 'Audit-Id': 'h' }), 'h'],
    [[['content-type', 'application/json']], undefined],
    [undefined, undefined],
  ];
  for (const [headers, want] of cases)
    it(`finds ${want ?? 'nothing'}`, () => expect(auditIdOf(headers)).toBe(want));
});

describe('mergeRecords and passTitle', () => {
  const record = (auditId: string, received: string, code?: number): AdmissionTraceRecord => ({
    auditId,
    received,
    method: 'POST',
    path: '/',
    user: 'u',
    steps: [],
    passes: [],
    ...(code !== undefined ? { code } : {}),
  });
  it('keeps one record per id, the fresher copy, newest first', () => {
    const merged = mergeRecords(
      [record('a', '2026-01-01T00:00:01.000Z'), record('b', '2026-01-01T00:00:02.000Z')],
      [record('a', '2026-01-01T00:00:01.000Z', 201)],
    );
    expect(merged.map((r) => [r.auditId, r.code])).toEqual([
      ['b', undefined],
      ['a', 201],
    ]);
  });
  it('names the operation, resource and object', () => {
    const pass = {
      operation: 'CREATE' as const,
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      subresource: 'scale',
      namespace: 'default',
      name: 'web',
      dryRun: false,
      steps: [],
    };
    expect(passTitle(pass)).toBe('CREATE deployments.apps/scale default/web');
  });
});

describe('afterOf', () => {
  it('applies the recorded patch to the object before, ignoring later changes to the recorded after', () => {
    const s = step('DefaultTolerationSeconds', {
      decision: 'patched',
      before: { metadata: { name: 'p' } },
      after: { metadata: { name: 'p', uid: 'added-later' }, spec: { tolerations: [] } },
      patch: [{ op: 'add', path: '/spec', value: { tolerations: [] } }],
    });
    expect(afterOf(s)).toEqual({ metadata: { name: 'p' }, spec: { tolerations: [] } });
  });
  it('falls back to the recorded after when the patch does not apply', () => {
    const s = step('x', {
      before: {},
      after: { a: 1 },
      patch: [{ op: 'replace', path: '/missing/deep', value: 1 }],
    });
    expect(afterOf(s)).toEqual({ a: 1 });
  });
});
