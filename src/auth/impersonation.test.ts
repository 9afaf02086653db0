import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../api/authn';
import { StatusError } from '../machinery/errors';
import { namingProfile } from '../machinery/naming';
import type { AuthorizationAttributes, Authorizer } from './authorizer';
import { asksToImpersonate, impersonate } from './impersonation';

const profile = namingProfile('orch');
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

/** Allows exactly the listed `resource[/subresource]:namespace:name` triples; records every check. */
function authorizer(allowed: string[], seen: AuthorizationAttributes[] = []): Authorizer {
  return {
    authorize: async (a) => {
      seen.push(a);
      const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
      return {
        decision: allowed.includes(`${resource}:${a.namespace}:${a.name}`) ? 'Allow' : 'NoOpinion',
        reason: '',
      };
    },
    rulesFor: async () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
}

describe('asksToImpersonate', () => {
  it.each<[Record<string, string>, boolean]>([
    [{ accept: 'x', authorization: 'Bearer t' }, false],
    [{ 'Impersonate-User': 'bob' }, true],
    [{ 'impersonate-group': 'g' }, true],
    [{ 'Impersonate-Uid': '1' }, true],
    [{ 'Impersonate-Extra-Scopes': 'a', 'user-agent': 'x' }, true],
    [{ impersonate: 'x', 'impersonatex-user': 'y' }, false],
    [{ accept: 'x', 'impersonate-extra-a': 'v', 'impersonate-user': 'u', zzz: 'z' }, true],
    [{ 'user-agent': 'x', 'sec-ch-ua': 'y', referer: 'r', 'impersonate-uid': '1' }, true],
    [{ 'impersonate-': 'x' }, true],
  ])('%j → %s', (headers, asks) => {
    expect(asksToImpersonate(new Headers(headers))).toBe(asks);
  });
});

describe('impersonate', () => {
  it('does nothing without impersonation headers', async () => {
    expect(await impersonate(new Headers({ accept: 'x' }), alice, authorizer([]), profile)).toBeUndefined();
  });

  it.each<[string, Record<string, string>, string[], UserInfo]>([
    [
      'a user',
      { 'Impersonate-User': 'bob' },
      ['users::bob'],
      { username: 'bob', groups: ['system:authenticated'], extra: {} },
    ],
    [
      'a user with groups, uid and extras',
      {
        'Impersonate-User': 'bob',
        'Impersonate-Group': 'devs, ops',
        'Impersonate-Uid': 'u-1',
        'Impersonate-Extra-Scopes': 'view, edit',
        'Impersonate-Extra-Example.com%2fteam': 'a',
      },
      [
        'users::bob',
        'groups::devs',
        'groups::ops',
        'uids::u-1',
        'userextras/scopes::view',
        'userextras/scopes::edit',
        'userextras/example.com/team::a',
      ],
      {
        username: 'bob',
        uid: 'u-1',
        groups: ['devs', 'ops', 'system:authenticated'],
        extra: { scopes: ['view', 'edit'], 'example.com/team': ['a'] },
      },
    ],
    [
      'a service account (its groups added)',
      { 'Impersonate-User': 'system:serviceaccount:team:builder' },
      ['serviceaccounts:team:builder'],
      {
        username: 'system:serviceaccount:team:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
        extra: {},
      },
    ],
    [
      'a service account with explicit groups',
      { 'Impersonate-User': 'system:serviceaccount:team:builder', 'Impersonate-Group': 'g' },
      ['serviceaccounts:team:builder', 'groups::g'],
      { username: 'system:serviceaccount:team:builder', groups: ['g', 'system:authenticated'], extra: {} },
    ],
    [
      'anonymous',
      { 'Impersonate-User': 'system:anonymous' },
      ['users::system:anonymous'],
      { username: 'system:anonymous', groups: ['system:unauthenticated'], extra: {} },
    ],
    [
      'a user in system:unauthenticated',
      { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:unauthenticated' },
      ['users::bob', 'groups::system:unauthenticated'],
      { username: 'bob', groups: ['system:unauthenticated'], extra: {} },
    ],
  ])('impersonates %s', async (_name, headers, allowed, user) => {
    const result = await impersonate(new Headers(headers), alice, authorizer(allowed), profile);
    expect(result?.user).toEqual(user);
    expect(result?.stripHeaders).toContain('impersonate-user');
  });

  it('checks the profile authentication group for uids and extras', async () => {
    const seen: AuthorizationAttributes[] = [];
    const headers = new Headers({
      'Impersonate-User': 'bob',
      'Impersonate-Uid': 'u',
      'Impersonate-Extra-K': 'v',
    });
    await impersonate(
      headers,
      alice,
      authorizer(['users::bob', 'uids::u', 'userextras/k::v'], seen),
      profile,
    );
    expect(seen.map((a) => [a.verb, a.apiGroup, a.resource, a.subresource])).toEqual([
      ['impersonate', '', 'users', ''],
      ['impersonate', 'authentication.orch.io', 'userextras', 'k'],
      ['impersonate', 'authentication.orch.io', 'uids', ''],
    ]);
  });

  it.each<[string, Record<string, string>, string[], string]>([
    [
      'a user',
      { 'Impersonate-User': 'bob' },
      [],
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    ],
    [
      'a group',
      { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' },
      ['users::bob'],
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    ],
    [
      'a service account',
      { 'Impersonate-User': 'system:serviceaccount:team:builder' },
      [],
      'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
    ],
    [
      'an extra',
      { 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'admin' },
      ['users::bob'],
      'userextras.authentication.orch.io "admin" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.orch.io" at the cluster scope',
    ],
    [
      'a uid',
      { 'Impersonate-User': 'bob', 'Impersonate-Uid': 'u-1' },
      ['users::bob'],
      'uids.authentication.orch.io "u-1" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.orch.io" at the cluster scope',
    ],
  ])('refuses %s with the real 403', async (_name, headers, allowed, message) => {
    const error = await impersonate(new Headers(headers), alice, authorizer(allowed), profile).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StatusError);
    expect((error as StatusError).code).toBe(403);
    expect((error as StatusError).reason).toBe('Forbidden');
    expect((error as StatusError).message).toBe(message);
  });

  it("appends the authorizer's reason to the 403", async () => {
    const failing: Authorizer = {
      ...authorizer([]),
      authorize: async () => ({ decision: 'NoOpinion', reason: 'RBAC: clusterrole "x" not found' }),
    };
    const error = (await impersonate(
      new Headers({ 'Impersonate-User': 'bob' }),
      alice,
      failing,
      profile,
    ).catch((e: unknown) => e)) as StatusError;
    expect(error.message).toMatch(/at the cluster scope: RBAC: clusterrole "x" not found$/);
  });

  it.each<[string, Record<string, string>, string]>([
    [
      'a group',
      { 'Impersonate-Group': 'devs' },
      'requested [{Group  devs    }] without impersonating a user',
    ],
    [
      'a uid',
      { 'Impersonate-Uid': 'u' },
      'requested [{UID  u  authentication.orch.io/v1  }] without impersonating a user',
    ],
    [
      'an extra',
      { 'Impersonate-Extra-Scopes': 'v' },
      'requested [{UserExtra  v  authentication.orch.io/v1  scopes}] without impersonating a user',
    ],
  ])('answers %s without a user with 400 naming the missing header', async (_name, headers, message) => {
    const error = (await impersonate(new Headers(headers), alice, authorizer([]), profile).catch(
      (e: unknown) => e,
    )) as StatusError;
    expect(error.code).toBe(400);
    expect(error.message).toBe(`${message} (the Impersonate-User header is missing)`);
  });
});
