/** SelfSubjectRulesReview storage: the requester's rules in the spec's namespace, as a fresh object. */

import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../../../api/authn';
import { allowAll, type Authorizer, type UserRules } from '../../../../auth/authorizer';
import { StatusError } from '../../../../machinery/errors';
import { type RequestScope, Warnings } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { SelfSubjectRulesReviewStorage } from './storage';

const rt = {
  group: 'authorization.orch.io',
  version: 'v1',
  resource: 'selfsubjectrulesreviews',
  kind: 'SelfSubjectRulesReview',
  apiVersion: 'authorization.orch.io/v1',
  namespaced: false,
} as ResourceType;

const requester: UserInfo = { username: 'jane', groups: ['system:authenticated'] };

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
    dryRun: false,
    warnings: new Warnings(),
    now: new Date(),
    signal: new AbortController().signal,
  };
}

describe('SelfSubjectRulesReview', () => {
  it('needs spec.namespace (400, as the real server)', async () => {
    const e: unknown = await new SelfSubjectRulesReviewStorage(rt, allowAll)
      .create(scope(), { spec: {} }, {})
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).code).toBe(400);
    expect((e as StatusError).status.message).toBe('no namespace on request');
  });

  it('lists allowAll rules and echoes neither metadata nor spec', async () => {
    const out = await new SelfSubjectRulesReviewStorage(rt, allowAll).create(
      scope(),
      { metadata: { labels: { a: 'b' } }, spec: { namespace: 'default' } },
      {},
    );
    expect(out).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.orch.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    });
  });

  it('asks for the requester in the namespace and writes empty lists and evaluation errors', async () => {
    const asked: [UserInfo, string][] = [];
    const rules: UserRules = {
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'role "r" not found',
    };
    const authorizer: Authorizer = {
      authorize: allowAll.authorize,
      rulesFor: async (user, namespace) => {
        asked.push([user, namespace]);
        return rules;
      },
    };
    const out = await new SelfSubjectRulesReviewStorage(rt, authorizer).create(
      scope(),
      { spec: { namespace: 'ns' } },
      {},
    );
    expect(asked).toEqual([[requester, 'ns']]);
    // An empty apiGroups entry ("" is the core group) is a one-item list, so it stays.
    expect(out.status).toEqual({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'role "r" not found',
    });
  });
});
