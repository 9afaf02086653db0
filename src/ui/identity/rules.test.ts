/**
 * The matrix's reading of a SelfSubjectRulesReview: wildcards, the core
 * group, rules limited to resourceNames (never a collection verb), verbs
 * discovery does not serve, and the index of every granting rule kept for
 * the cell's explanation; and the 403 header parsed into ApiError.
 */

import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../client/errors';
import { cellFor, ruleText, type ReviewedRule } from './rules';

const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

describe('cellFor', () => {
  const rules: ReviewedRule[] = [
    { verbs: ['create'], apiGroups: ['authorization.orch.io'], resources: ['selfsubjectrulesreviews'] },
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] },
    { verbs: ['get', 'update', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['token'] },
    { verbs: ['*'], apiGroups: ['apps'], resources: ['*'] },
  ];

  it('grants by exact verb, group and resource, and names the granting rule', () => {
    expect(cellFor(rules, 'list', '', 'configmaps', all)).toEqual({ state: 'allowed', rules: [1] });
    expect(cellFor(rules, 'watch', '', 'configmaps', all)).toEqual({ state: 'denied', rules: [] });
    expect(cellFor(rules, 'list', 'batch', 'configmaps', all).state).toBe('denied');
  });

  it('wildcards match any verb and resource of their group', () => {
    expect(cellFor(rules, 'deletecollection', 'apps', 'deployments', all)).toEqual({
      state: 'allowed',
      rules: [3],
    });
  });

  it('resourceNames grant only verbs on named objects', () => {
    expect(cellFor(rules, 'get', '', 'secrets', all)).toEqual({ state: 'some-names', rules: [2] });
    expect(cellFor(rules, 'list', '', 'secrets', all).state).toBe('denied');
  });

  it('a verb discovery does not list is not served, whatever the rules', () => {
    expect(cellFor(rules, 'watch', 'apps', 'deployments', ['get', 'list']).state).toBe('not-served');
  });

  it('prints a rule in one line', () => {
    expect(ruleText(rules[1] ?? { verbs: [] })).toBe('verbs [get list] on configmaps in groups [""]');
  });
});

describe('ApiError.explanation', () => {
  it('carries the X-Sandbox-Explain header of a 403, and ignores a malformed one', async () => {
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: 403,
      reason: 'Forbidden',
    });
    const explanation = { kind: 'authorization', user: { username: 'alice', groups: [] }, considered: [] };
    const good = await errorFromResponse(
      new Response(body, {
        status: 403,
        headers: { 'X-Sandbox-Explain': encodeURIComponent(JSON.stringify(explanation)) },
      }),
    );
    expect(good.explanation).toEqual(explanation);
    const bad = await errorFromResponse(
      new Response(body, { status: 403, headers: { 'X-Sandbox-Explain': '%E0%A4%A' } }),
    );
    expect(bad.explanation).toBeUndefined();
    expect(bad.reason).toBe('Forbidden');
  });
});
