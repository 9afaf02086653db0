/** SubjectAccessReview storage: validation messages, the attributes the authorizer sees, and the answer's shape. */

import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../../../api/authn';
import type { KubeObject } from '../../../../api/meta';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../../../auth/authorizer';
import { allowAll } from '../../../../auth/authorizer';
import { StatusError } from '../../../../machinery/errors';
import { type RequestScope, Warnings } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { SubjectAccessReviewStorage } from './storage';

const rt = {
  group: 'authorization.orch.io',
  version: 'v1',
  resource: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  apiVersion: 'authorization.orch.io/v1',
  namespaced: false,
} as ResourceType;

function scope(user: UserInfo = { username: 'admin', groups: ['system:masters'] }): RequestScope {
  return {
    user,
    uid: 'u',
    verb: 'create',
    namespace: '',
    name: '',
    subresource: '',
    requestResource: { group: rt.group, version: rt.version, resource: rt.resource },
    requestKind: { group: rt.group, version: rt.version, kind: rt.kind },
    dryRun: false,
    warnings: new Warnings(),
    now: new Date('2024-01-02T03:04:05Z'),
    signal: new AbortController().signal,
  };
}

/** An authorizer that records what it was asked and answers `result`. */
function recording(result: AuthorizationResult): {
  authorizer: Authorizer;
  asked: AuthorizationAttributes[];
} {
  const asked: AuthorizationAttributes[] = [];
  return {
    asked,
    authorizer: {
      authorize: async (a) => {
        asked.push(a);
        return result;
      },
      rulesFor: allowAll.rulesFor,
    },
  };
}

async function failure(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

const review = (spec: Record<string, unknown>, metadata?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'authorization.orch.io/v1',
  kind: 'SubjectAccessReview',
  ...(metadata !== undefined ? { metadata } : {}),
  spec,
});

describe('SubjectAccessReview validation', () => {
  const storage = new SubjectAccessReviewStorage(rt, allowAll);
  const cases: { name: string; body: KubeObject; message: string }[] = [
    {
      name: 'neither attributes nor subject',
      body: review({}),
      message:
        '.authorization.orch.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    },
    {
      name: 'both attributes',
      body: review({
        user: 'jane',
        resourceAttributes: { verb: 'get' },
        nonResourceAttributes: { path: '/x', verb: 'get' },
      }),
      message:
        '.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    },
    {
      name: 'null attributes count as absent',
      body: review({ groups: ['g'], resourceAttributes: null }),
      message:
        '.authorization.orch.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    },
    {
      name: 'a name in metadata',
      body: review({ user: 'jane', resourceAttributes: { verb: 'get' } }, { name: 'x' }),
      message:
        '.authorization.orch.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string(nil), Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty',
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const e = await failure(storage.create(scope(), c.body, {}));
      expect(e.code).toBe(422);
      expect(e.status.reason).toBe('Invalid');
      expect(e.status.message).toBe(c.message);
      expect(e.status.details?.group).toBe('authorization.orch.io');
      expect(e.status.details?.kind).toBeUndefined();
    });

  it('accepts metadata that holds only creationTimestamp null, managedFields and empty maps', async () => {
    const out = await storage.create(
      scope(),
      review(
        { user: 'jane', resourceAttributes: { verb: 'get' } },
        { creationTimestamp: null, labels: {}, managedFields: [{ manager: 'm', operation: 'Update' }] },
      ),
      {},
    );
    expect(out.metadata).toEqual({
      creationTimestamp: null,
      managedFields: [{ manager: 'm', operation: 'Update' }],
    });
  });
});

describe('SubjectAccessReview decisions', () => {
  it('asks about the spec subject, not the requester, with version * when unset', async () => {
    const { authorizer, asked } = recording({ decision: 'Allow', reason: 'RBAC: allowed' });
    const out = await new SubjectAccessReviewStorage(rt, authorizer).create(
      scope(),
      review({
        user: 'jane',
        groups: ['dev'],
        uid: 'id-1',
        extra: { scopes: ['a'] },
        resourceAttributes: {
          namespace: 'ns',
          verb: 'list',
          group: 'apps',
          resource: 'deployments',
          subresource: '',
          name: '',
        },
      }),
      {},
    );
    expect(asked).toEqual([
      {
        user: { username: 'jane', groups: ['dev'], uid: 'id-1', extra: { scopes: ['a'] } },
        verb: 'list',
        resourceRequest: true,
        apiGroup: 'apps',
        apiVersion: '*',
        resource: 'deployments',
        subresource: '',
        namespace: 'ns',
        name: '',
        path: '',
      },
    ]);
    expect(out).toEqual({
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.orch.io/v1',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'list', group: 'apps', resource: 'deployments' },
        user: 'jane',
        groups: ['dev'],
        extra: { scopes: ['a'] },
        uid: 'id-1',
      },
      status: { allowed: true, reason: 'RBAC: allowed' },
    });
  });

  const decisions: { result: AuthorizationResult; status: Record<string, unknown> }[] = [
    { result: { decision: 'Allow', reason: '' }, status: { allowed: true } },
    {
      result: { decision: 'Deny', reason: 'nope' },
      status: { allowed: false, denied: true, reason: 'nope' },
    },
    { result: { decision: 'NoOpinion', reason: '' }, status: { allowed: false } },
    {
      result: { decision: 'NoOpinion', reason: '', evaluationError: 'clusterrole "x" not found' },
      status: { allowed: false, evaluationError: 'clusterrole "x" not found' },
    },
  ];
  for (const d of decisions)
    it(`writes ${d.result.decision}${d.result.evaluationError !== undefined ? ' with an evaluation error' : ''}`, async () => {
      const { authorizer, asked } = recording(d.result);
      const out = await new SubjectAccessReviewStorage(rt, authorizer).create(
        scope(),
        review({ groups: ['g'], nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
        {},
      );
      expect(asked[0]).toMatchObject({ resourceRequest: false, path: '/healthz', verb: 'get' });
      expect(out.status).toEqual(d.status);
    });
});
