/** SelfSubjectAccessReview storage: the requester is the subject, the spec has no subject fields. */

import { describe, expect, it } from 'vitest';
import type { AuthorizationAttributes, Authorizer } from '../../../../auth/authorizer';
import { allowAll } from '../../../../auth/authorizer';
import { StatusError } from '../../../../machinery/errors';
import { type RequestScope, Warnings } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { SelfSubjectAccessReviewStorage } from './storage';

const rt = {
  group: 'authorization.orch.io',
  version: 'v1',
  resource: 'selfsubjectaccessreviews',
  kind: 'SelfSubjectAccessReview',
  apiVersion: 'authorization.orch.io/v1',
  namespaced: false,
} as ResourceType;

const requester = { username: 'jane', uid: 'j-1', groups: ['dev', 'system:authenticated'] };

function scope(): RequestScope {
  return {
    user: requester,
    uid: 'u',
    verb: 'create',
    namespace: '',
    name: '',
    subresource: '',
    requestResource: { group: rt.group, version: rt.version, resource: rt.resource },
    requestKind: { group: rt.group, version: rt.version, kind: rt.kind },
    dryRun: true,
    warnings: new Warnings(),
    now: new Date(),
    signal: new AbortController().signal,
  };
}

describe('SelfSubjectAccessReview', () => {
  it('asks about the requester and drops subject fields from the echo', async () => {
    const asked: AuthorizationAttributes[] = [];
    const authorizer: Authorizer = {
      authorize: async (a) => {
        asked.push(a);
        return { decision: 'Allow', reason: '' };
      },
      rulesFor: allowAll.rulesFor,
    };
    const out = await new SelfSubjectAccessReviewStorage(rt, authorizer).create(
      scope(),
      {
        apiVersion: rt.apiVersion,
        kind: rt.kind,
        metadata: { creationTimestamp: null },
        spec: {
          user: 'root',
          resourceAttributes: { verb: 'create', group: 'apps', resource: 'deployments', version: 'v1' },
        },
      },
      {},
    );
    expect(asked[0]?.user).toBe(requester);
    expect(asked[0]).toMatchObject({
      verb: 'create',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
    });
    expect(out).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.orch.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { verb: 'create', group: 'apps', version: 'v1', resource: 'deployments' } },
      status: { allowed: true },
    });
  });

  it('needs exactly one kind of attributes but no user', async () => {
    const storage = new SelfSubjectAccessReviewStorage(rt, allowAll);
    const e = await storage.create(scope(), { spec: {} }, {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).status.message).toBe(
      '.authorization.orch.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });
});
