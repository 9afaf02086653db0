/** SelfSubjectReview storage: the requester's identity, stamped with the request time. */

import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../../../api/authn';
import { type RequestScope, Warnings } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';
import { SelfSubjectReviewStorage } from './storage';

const rt = {
  group: 'authentication.orch.io',
  version: 'v1beta1',
  resource: 'selfsubjectreviews',
  kind: 'SelfSubjectReview',
  apiVersion: 'authentication.orch.io/v1beta1',
  namespaced: false,
} as ResourceType;

function scope(user: UserInfo): RequestScope {
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
    now: new Date('2024-05-06T07:08:09.123Z'),
    signal: new AbortController().signal,
  };
}

describe('SelfSubjectReview', () => {
  const cases: { name: string; user: UserInfo; userInfo: Record<string, unknown> }[] = [
    {
      name: 'a full identity',
      user: {
        username: 'jane',
        uid: 'j-1',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
      },
      userInfo: {
        username: 'jane',
        uid: 'j-1',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
      },
    },
    {
      name: 'empty fields left out',
      user: { username: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} },
      userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const out = await new SelfSubjectReviewStorage(rt).create(
        scope(c.user),
        { apiVersion: rt.apiVersion, kind: rt.kind },
        {},
      );
      expect(out).toEqual({
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.orch.io/v1beta1',
        metadata: { creationTimestamp: '2024-05-06T07:08:09Z' },
        status: { userInfo: c.userInfo },
      });
    });
});
