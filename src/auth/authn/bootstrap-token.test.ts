import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../../machinery/naming';
import type { ObjectLister } from '../listers';
import { BootstrapTokenAuthenticator } from './bootstrap-token';
import { bootstrapTokenSecretType } from '../../machinery/bootstrap-token';

const profile = namingProfile('orch');
const now = Date.parse('2024-01-01T00:00:00Z');

function secret(data: Record<string, string>, overrides: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'bootstrap-token-abcdef', namespace: 'orch-system' },
    type: 'bootstrap.orch.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, btoa(v)])),
    ...overrides,
  };
}

function lister(objects: KubeObject[]): ObjectLister {
  return {
    get: (ns, name) => objects.find((o) => o.metadata?.namespace === ns && o.metadata.name === name),
    list: () => objects,
    byIndex: () => [],
  };
}

const good = {
  'token-id': 'abcdef',
  'token-secret': '0123456789abcdef',
  'usage-bootstrap-authentication': 'true',
};
const token = 'abcdef.0123456789abcdef';

describe('BootstrapTokenAuthenticator', () => {
  it('uses the profile-named secret type', () => {
    expect(bootstrapTokenSecretType(profile)).toBe('bootstrap.orch.io/token');
    expect(bootstrapTokenSecretType(namingProfile('kubernetes'))).toBe('bootstrap.kubernetes.io/token');
  });

  it.each([
    ['a valid token', [secret(good)], token, ['system:bootstrappers']],
    [
      'extra groups, sorted and deduplicated',
      [
        secret({
          ...good,
          'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:a,system:bootstrappers:z',
        }),
      ],
      token,
      ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:z'],
    ],
    [
      'an expiration in the future',
      [secret({ ...good, expiration: '2024-01-02T00:00:00Z' })],
      token,
      ['system:bootstrappers'],
    ],
  ])('accepts %s', async (_name, objects, t, groups) => {
    const auth = new BootstrapTokenAuthenticator(lister(objects), profile, () => now);
    expect(await auth.authenticateToken(t)).toEqual({
      user: { username: 'system:bootstrap:abcdef', groups },
      audiences: [],
    });
  });

  it.each([
    ['a malformed token', [secret(good)], 'abcdef.short', 'no-credential', 'not of the bootstrap token form'],
    [
      'an upper-case token',
      [secret(good)],
      'ABCDEF.0123456789abcdef',
      'no-credential',
      'not of the bootstrap',
    ],
    ['a missing secret', [], token, 'no-credential', 'no secret orch-system/bootstrap-token-abcdef'],
    [
      'a wrong secret',
      [secret({ ...good, 'token-secret': 'ffffffffffffffff' })],
      token,
      'rejected',
      'different token-secret',
    ],
    [
      'an expired token',
      [secret({ ...good, expiration: '2023-12-31T23:59:59Z' })],
      token,
      'rejected',
      'has expired',
    ],
    [
      'an unparseable expiration',
      [secret({ ...good, expiration: 'tomorrow' })],
      token,
      'rejected',
      'has expired',
    ],
    [
      'no authentication usage',
      [secret({ ...good, 'usage-bootstrap-authentication': 'false' })],
      token,
      'rejected',
      'usage-bootstrap-authentication=true',
    ],
    [
      'a bad extra group',
      [secret({ ...good, 'auth-extra-groups': 'system:masters' })],
      token,
      'rejected',
      'bootstrap group "system:masters" is invalid',
    ],
    [
      'the wrong type',
      [secret(good, { type: 'Opaque' })],
      token,
      'rejected',
      'has invalid type, expected bootstrap.orch.io/token',
    ],
    [
      'a secret being deleted',
      [
        secret(good, {
          metadata: {
            name: 'bootstrap-token-abcdef',
            namespace: 'orch-system',
            deletionTimestamp: '2024-01-01T00:00:00Z',
          },
        }),
      ],
      token,
      'rejected',
      'being deleted',
    ],
    [
      'a mismatched token-id',
      [secret({ ...good, 'token-id': 'zzzzzz' })],
      token,
      'rejected',
      'different token-id',
    ],
  ])('declines %s (no opinion, with a reason)', async (_name, objects, t, result, reason) => {
    const auth = new BootstrapTokenAuthenticator(lister(objects), profile, () => now);
    const verdict = await auth.reviewToken(t);
    expect(verdict).toMatchObject({ kind: 'declined', result });
    expect(verdict.kind === 'declined' ? verdict.reason : '').toContain(reason);
    expect(await auth.authenticateToken(t)).toBeUndefined();
  });
});
