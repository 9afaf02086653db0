/** Unit tests of policy matching: rules with resourceNames, exclusions, selectors, matchPolicy. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes } from '../types';
import { matchResources } from './match';
import type { MatchResources } from './types';

const namespaces: Record<string, KubeObject> = {
  prod: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } },
  dev: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev', labels: { env: 'dev' } } },
};

const deps = {
  namespaces: { get: (name: string) => Promise.resolve(namespaces[name]) },
  resources: {
    lookup: (group: string, version: string, resource: string) =>
      resource === 'deployments' && group === 'apps' && (version === 'v1' || version === 'v1beta1')
        ? { kind: 'Deployment', namespaced: true }
        : undefined,
    equivalents: (group: string, version: string, resource: string) =>
      group === 'apps' && resource === 'deployments'
        ? [
            { group: 'apps', version: 'v1', resource },
            { group: 'apps', version: 'v1beta1', resource },
          ]
        : [{ group, version, resource }],
    convert: (o: KubeObject, apiVersion: string) => ({ ...o, apiVersion }),
  },
};

function attrs(extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    resource: 'deployments',
    subresource: '',
    namespace: 'prod',
    name: 'web',
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { tier: 'front' } },
    },
    user: { username: 'alice', groups: [] },
    dryRun: false,
    ...extra,
  };
}

const rule = (extra: Record<string, unknown> = {}) => ({
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  operations: ['CREATE'],
  resources: ['deployments'],
  ...extra,
});

const cases: {
  name: string;
  match: MatchResources | undefined;
  a?: Partial<AdmissionAttributes>;
  matched: boolean | string;
  version?: string;
}[] = [
  { name: 'no matchResources: everything', match: undefined, matched: true },
  { name: 'no resourceRules: every resource', match: {}, matched: true },
  { name: 'a rule matches', match: { resourceRules: [rule()] }, matched: true },
  {
    name: 'another operation',
    match: { resourceRules: [rule({ operations: ['DELETE'] })] },
    matched: 'no matchConstraints.resourceRules matched',
  },
  {
    name: 'resourceNames lists the name',
    match: { resourceRules: [rule({ resourceNames: ['web'] })] },
    matched: true,
  },
  {
    name: 'resourceNames without the name',
    match: { resourceRules: [rule({ resourceNames: ['api'] })] },
    matched: 'no matchConstraints.resourceRules matched',
  },
  {
    name: 'excludeResourceRules win over resourceRules',
    match: { resourceRules: [rule()], excludeResourceRules: [rule({ resourceNames: ['web'] })] },
    matched: 'matchConstraints.excludeResourceRules matched',
  },
  {
    name: 'an exclusion for another name does not exclude',
    match: { resourceRules: [rule()], excludeResourceRules: [rule({ resourceNames: ['api'] })] },
    matched: true,
  },
  {
    name: 'namespaceSelector matches the namespace labels',
    match: { namespaceSelector: { matchLabels: { env: 'prod' } } },
    matched: true,
  },
  {
    name: 'namespaceSelector misses',
    match: { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] } },
    matched: 'matchConstraints.namespaceSelector did not match',
  },
  {
    name: 'namespaceSelector never excludes cluster-scoped resources',
    match: { namespaceSelector: { matchLabels: { env: 'dev' } } },
    a: { namespace: '', group: '', version: 'v1', resource: 'nodes', kind: 'Node' },
    matched: true,
  },
  {
    name: 'objectSelector misses',
    match: { objectSelector: { matchLabels: { tier: 'back' } } },
    matched: 'matchConstraints.objectSelector did not match',
  },
  {
    name: 'Equivalent: a rule for another version matches, converted',
    match: { resourceRules: [rule({ apiVersions: ['v1beta1'] })] },
    matched: true,
    version: 'apps/v1beta1',
  },
  {
    name: 'Exact: a rule for another version does not match',
    match: { matchPolicy: 'Exact', resourceRules: [rule({ apiVersions: ['v1beta1'] })] },
    matched: 'no matchConstraints.resourceRules matched',
  },
];

describe('matchResources', () => {
  it.each(cases)('$name', async (c) => {
    const result = await matchResources(c.match, attrs(c.a), deps, 'matchConstraints');
    if (c.matched === true) {
      expect(result.matched).toBe(true);
      if (result.matched && c.version !== undefined) {
        expect(result.request.object?.apiVersion).toBe(c.version);
        expect(result.request.resource.version).toBe(c.version.split('/')[1]);
      }
    } else expect(result).toEqual({ matched: false, reason: c.matched });
  });

  it('fails when the request namespace does not exist and a selector must be read', async () => {
    await expect(
      matchResources(
        { namespaceSelector: { matchLabels: { env: 'prod' } } },
        attrs({ namespace: 'gone' }),
        deps,
        'matchResources',
      ),
    ).rejects.toThrow('namespaces "gone" not found');
  });
});
