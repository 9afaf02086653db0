import { describe, expect, it } from 'vitest';
import { ruleMatches, type RuleTarget } from './rules';

const pods: RuleTarget = {
  operation: 'CREATE',
  group: '',
  version: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
};
const status: RuleTarget = { ...pods, operation: 'UPDATE', subresource: 'status' };
const namespace: RuleTarget = { ...pods, resource: 'namespaces', namespace: '' };
const base = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'] };

describe('admission rule matching', () => {
  it.each([
    [['pods'], pods, true],
    [['*'], pods, true],
    [['*'], status, false],
    [['*/*'], status, true],
    [['pods/*'], status, true],
    [['pods/*'], pods, false],
    [['*/status'], status, true],
    [['*/status'], pods, false],
    [['pods/status'], status, true],
    [['deployments/status'], status, false],
  ] as const)('resources %j on %j → %s', (resources, target, expected) => {
    expect(ruleMatches({ ...base, resources: [...resources] }, target)).toBe(expected);
  });

  it.each([
    ['Namespaced', pods, true],
    ['Cluster', pods, false],
    ['Cluster', namespace, true],
    ['Namespaced', namespace, false],
    ['*', namespace, true],
  ] as const)('scope %s on %j → %s', (scope, target, expected) => {
    expect(ruleMatches({ ...base, resources: ['*'], scope }, target)).toBe(expected);
  });

  it('needs the operation, group and version', () => {
    expect(ruleMatches({ ...base, operations: ['UPDATE'], resources: ['*'] }, pods)).toBe(false);
    expect(ruleMatches({ ...base, apiGroups: ['apps'], resources: ['*'] }, pods)).toBe(false);
    expect(ruleMatches({ ...base, apiVersions: ['v2'], resources: ['*'] }, pods)).toBe(false);
  });
});
