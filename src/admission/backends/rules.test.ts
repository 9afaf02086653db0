import { describe, expect, it } from 'vitest';
import { celLibrary } from '../../cel/engine';
import { answerWithRules } from './rules';
import { parseReview } from './review-body';
import { validateBackend } from './validate';
import { podReview } from './fixtures.test-support';
import type { BackendRule } from './types';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

function rulesOf(rules: unknown[]): BackendRule[] {
  const checked = validateBackend({ name: 'b', kind: 'rules', rules });
  if (checked.backend === undefined) throw new Error(JSON.stringify(checked.errors));
  return checked.backend.rules ?? [];
}

function reply(rules: unknown[], body: string) {
  const review = parseReview(body);
  if (review === undefined) throw new Error('not a review');
  const answer = answerWithRules(rulesOf(rules), review);
  return {
    ...answer,
    json:
      answer.status === 200
        ? (JSON.parse(answer.body) as { apiVersion: string; response: Record<string, unknown> })
        : undefined,
  };
}

const requireTeam = [
  {
    when: "!has(object.metadata.labels) || !('team' in object.metadata.labels)",
    allowed: false,
    message: 'pods need a team label',
  },
];

describe('rule backends', () => {
  it('denies with the rule status, echoing uid and apiVersion', () => {
    const r = reply(requireTeam, podReview(undefined, 'admission.orch.io/v1beta1'));
    expect(r.json).toEqual({
      apiVersion: 'admission.orch.io/v1beta1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: false, status: { code: 403, message: 'pods need a team label' } },
    });
  });

  it('allows when no rule holds', () => {
    expect(reply(requireTeam, podReview({ team: 'a' })).json?.response).toEqual({
      uid: 'u-1',
      allowed: true,
    });
  });

  it('first holding rule answers; patch values are rendered and encoded', () => {
    const rules = [
      {
        when: 'has(object.metadata.labels)',
        allowed: true,
        patch: [{ op: 'add', path: '/metadata/labels/by', value: { expr: 'request.userInfo.username' } }],
      },
      {
        allowed: true,
        warnings: ['labelled'],
        patch: [
          {
            op: 'add',
            path: '/metadata/labels',
            value: { by: { expr: 'request.userInfo.username' }, n: { expr: 'size(object.spec.containers)' } },
          },
        ],
      },
    ];
    const r = reply(rules, podReview());
    expect(r.json?.response.patchType).toBe('JSONPatch');
    expect(r.json?.response.warnings).toEqual(['labelled']);
    expect(JSON.parse(atob(String(r.json?.response.patch)))).toEqual([
      { op: 'add', path: '/metadata/labels', value: { by: 'alice', n: 1 } },
    ]);
    const labelled = reply(rules, podReview({ x: 'y' }));
    expect(JSON.parse(atob(String(labelled.json?.response.patch)))).toEqual([
      { op: 'add', path: '/metadata/labels/by', value: 'alice' },
    ]);
  });

  it('an expression failing at evaluation is a 500 naming the rule', () => {
    const r = reply([{ when: 'object.metadata.labels.team == "a"', allowed: false }], podReview());
    expect(r.status).toBe(500);
    expect(r.body).toMatch(/^rules\[0\]\.when: no such key: labels/);
  });

  it('uses the code a rule gives', () => {
    expect(reply([{ allowed: false, code: 422 }], podReview()).json?.response.status).toEqual({ code: 422 });
  });
});
