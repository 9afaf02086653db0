/**
 * Shared by the backends' unit tests: an AdmissionReview body as the
 * dispatcher serializes it, for a pod create.
 */

import type { JsonObject } from '../../api/meta';

export function podReview(labels?: Record<string, string>, apiVersion = 'admission.orch.io/v1'): string {
  const object: JsonObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', ...(labels !== undefined ? { labels } : {}) },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
  return JSON.stringify({
    apiVersion,
    kind: 'AdmissionReview',
    request: {
      uid: 'u-1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'default',
      name: 'web',
      operation: 'CREATE',
      userInfo: { username: 'alice', groups: ['system:authenticated'] },
      object,
      oldObject: null,
      dryRun: false,
    },
  });
}
