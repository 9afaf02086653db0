/** LocalSubjectAccessReview storage: the namespace rules on top of SubjectAccessReview's. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../api/meta';
import { allowAll } from '../../../../auth/authorizer';
import { StatusError } from '../../../../machinery/errors';
import { type RequestScope, Warnings } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { LocalSubjectAccessReviewStorage } from './storage';

const rt = {
  group: 'authorization.orch.io',
  version: 'v1',
  resource: 'localsubjectaccessreviews',
  kind: 'LocalSubjectAccessReview',
  apiVersion: 'authorization.orch.io/v1',
  namespaced: true,
} as ResourceType;

function scope(namespace: string): RequestScope {
  return {
    user: { username: 'admin', groups: [] },
    uid: 'u',
    verb: 'create',
    namespace,
    name: '',
    subresource: '',
    requestResource: { group: rt.group, version: rt.version, resource: rt.resource },
    requestKind: { group: rt.group, version: rt.version, kind: rt.kind },
    dryRun: false,
    warnings: new Warnings(),
    now: new Date(),
    signal: new AbortController().signal,
  };
}

const storage = new LocalSubjectAccessReviewStorage(rt, allowAll);

async function failure(namespace: string, body: KubeObject): Promise<StatusError> {
  const e: unknown = await storage.create(scope(namespace), body, {}).catch((x: unknown) => x);
  if (!(e instanceof StatusError)) throw new Error('expected a StatusError');
  return e;
}

describe('LocalSubjectAccessReview', () => {
  const cases: { name: string; namespace: string; body: KubeObject; code: number; message: string }[] = [
    {
      name: 'attributes naming another namespace',
      namespace: 'ns',
      body: {
        metadata: { namespace: 'ns' },
        spec: { user: 'u', resourceAttributes: { namespace: 'other', verb: 'get' } },
      },
      code: 422,
      message:
        '.authorization.orch.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    },
    {
      name: 'non-resource attributes',
      namespace: 'ns',
      body: {
        metadata: { namespace: 'ns' },
        spec: { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } },
      },
      code: 422,
      message:
        '.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
    },
    {
      name: 'a name besides the namespace',
      namespace: 'ns',
      body: {
        metadata: { namespace: 'ns', name: 'n' },
        spec: { user: 'u', resourceAttributes: { namespace: 'ns' } },
      },
      code: 422,
      message:
        '.authorization.orch.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"n", GenerateName:"", Namespace:"ns", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string(nil), Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty except for namespace',
    },
    {
      name: 'a metadata namespace other than the path (callers that bypass the HTTP layer)',
      namespace: 'ns',
      body: { metadata: { namespace: 'x' }, spec: { user: 'u', resourceAttributes: { namespace: 'x' } } },
      code: 400,
      message: 'spec.resourceAttributes.namespace must match namespace: ns',
    },
    {
      name: 'no namespace at all',
      namespace: '',
      body: { spec: { user: 'u', resourceAttributes: {} } },
      code: 400,
      message: 'namespace is required on this type: ',
    },
  ];
  for (const c of cases)
    it(`refuses ${c.name}`, async () => {
      const e = await failure(c.namespace, c.body);
      expect(e.code).toBe(c.code);
      expect(e.status.message).toBe(c.message);
    });

  it('answers with the namespace in metadata and the decision', async () => {
    const out = await storage.create(
      scope('ns'),
      {
        metadata: { namespace: 'ns' },
        spec: { user: 'u', resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods' } },
      },
      {},
    );
    expect(out).toEqual({
      kind: 'LocalSubjectAccessReview',
      apiVersion: 'authorization.orch.io/v1',
      metadata: { namespace: 'ns', creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods' }, user: 'u' },
      status: { allowed: true },
    });
  });
});
