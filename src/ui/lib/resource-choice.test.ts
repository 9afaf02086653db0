import { describe, expect, it } from 'vitest';
import { assumedDefaultCollection, collectionRef, defaultChoice } from './resource-choice';
import { resourcePath } from '../../client/index';
import { coreV1 } from './fixtures.test-support';

describe('assumedDefaultCollection', () => {
  it('is the collection discovery picks by default, so the list started before discovery goes on', () => {
    const picked = defaultChoice([coreV1]);
    expect(picked).toBeDefined();
    for (const namespace of ['default', '']) {
      const assumed = assumedDefaultCollection(undefined, namespace);
      expect(assumed && resourcePath(assumed)).toBe(picked && resourcePath(collectionRef(picked, namespace)));
    }
    expect(assumedDefaultCollection('v1/configmaps', 'kube-system')).toEqual({
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'kube-system',
    });
  });

  it('assumes nothing for a route naming another kind', () => {
    expect(assumedDefaultCollection('apps/v1/deployments', 'default')).toBeUndefined();
    expect(assumedDefaultCollection('v1/namespaces', 'default')).toBeUndefined();
  });
});
