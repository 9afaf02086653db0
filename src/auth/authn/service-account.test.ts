import { SignJWT, base64url, exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../../machinery/naming';
import type { ObjectLister } from '../listers';
import {
  ServiceAccountTokenAuthenticator,
  cryptoFailure,
  type ServiceAccountListers,
} from './service-account';
import {
  ServiceAccountSigner,
  loadVerificationKeys,
  pemBlocks,
  type VerificationKey,
} from './service-account-signer';

const profile = namingProfile('orch');
const issuer = 'https://orch.default.svc';
const nowSeconds = 1_700_000_000;
const now = () => nowSeconds * 1000;

function obj(
  kind: string,
  ns: string,
  name: string,
  uid: string,
  extra: Partial<KubeObject> = {},
): KubeObject {
  return { apiVersion: 'v1', kind, metadata: { namespace: ns, name, uid }, ...extra };
}

function lister(objects: KubeObject[]): ObjectLister {
  return {
    get: (ns, name) => objects.find((o) => o.metadata?.namespace === ns && o.metadata.name === name),
    list: () => objects,
    byIndex: () => [],
  };
}

const account = { namespace: 'team', name: 'builder', uid: 'sa-uid' };

let signer: ServiceAccountSigner;
let keys: VerificationKey[];
let legacyToken: string;

function listers(
  over: Partial<{ accounts: KubeObject[]; secrets: KubeObject[]; pods: KubeObject[] }> = {},
): ServiceAccountListers {
  const tokenSecret = obj('Secret', 'team', 'builder-token', 'sec-uid', {
    data: { token: btoa(legacyToken) },
  });
  return {
    serviceAccounts: lister(over.accounts ?? [obj('ServiceAccount', 'team', 'builder', 'sa-uid')]),
    secrets: lister(over.secrets ?? [tokenSecret]),
    pods: lister(over.pods ?? [obj('Pod', 'team', 'web', 'pod-uid')]),
  };
}

function authenticator(
  mode: 'legacy' | 'bound',
  l = listers(),
  lookup = true,
): ServiceAccountTokenAuthenticator {
  return new ServiceAccountTokenAuthenticator(mode, {
    profile,
    keys,
    issuers: [issuer],
    apiAudiences: [issuer],
    lookup,
    listers: l,
    now,
  });
}

function bound(
  extra: { audiences?: string[]; now?: number; expirationSeconds?: number; pod?: boolean } = {},
) {
  return signer.signBound({
    namespace: 'team',
    account: { name: 'builder', uid: 'sa-uid' },
    audiences: extra.audiences ?? [issuer],
    expirationSeconds: extra.expirationSeconds ?? 3600,
    now: extra.now ?? nowSeconds,
    ...(extra.pod === false ? {} : { boundObject: { kind: 'Pod' as const, name: 'web', uid: 'pod-uid' } }),
  });
}

beforeAll(async () => {
  signer = await ServiceAccountSigner.generate(profile, issuer);
  keys = await loadVerificationKeys(signer.publicKeysPEM().join('\n'));
  legacyToken = await signer.signLegacy(account, { name: 'builder-token' });
});

async function reason(mode: 'legacy' | 'bound', token: string, l = listers(), audiences?: string[]) {
  const verdict = await authenticator(mode, l).reviewToken(token, audiences);
  if (verdict.kind === 'accepted') return 'accepted';
  return verdict.kind === 'failed' ? `error: ${verdict.error.message}` : `declined: ${verdict.reason}`;
}

function tamper(token: string): string {
  const [h, p, s] = token.split('.');
  const payload = JSON.parse(new TextDecoder().decode(base64url.decode(p ?? ''))) as Record<string, unknown>;
  payload['sub'] = 'system:serviceaccount:team:admin';
  return [h, base64url.encode(JSON.stringify(payload)), s].join('.');
}

describe('service-account signer', () => {
  it('derives the real key id: base64url SHA-256 of the DER public key', async () => {
    const der = pemBlocks(signer.publicKeysPEM()[0] ?? '')[0]?.der ?? new Uint8Array();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
    expect(signer.key.kid).toBe(base64url.encode(digest));
    // A generated key is RSA 2048 (RS256 tokens), as a kubeadm cluster's.
    expect(signer.jwks().keys[0]).toMatchObject({
      kid: signer.key.kid,
      use: 'sig',
      alg: 'RS256',
      kty: 'RSA',
    });
    expect(Buffer.from(String(signer.jwks().keys[0]?.n), 'base64url').length).toBe(256);
  });

  it('writes the real claims, profile-named', () => {
    const payload = JSON.parse(new TextDecoder().decode(base64url.decode(legacyToken.split('.')[1] ?? '')));
    expect(payload).toEqual({
      iss: 'orch/serviceaccount',
      'orch.io/serviceaccount/namespace': 'team',
      'orch.io/serviceaccount/secret.name': 'builder-token',
      'orch.io/serviceaccount/service-account.name': 'builder',
      'orch.io/serviceaccount/service-account.uid': 'sa-uid',
      sub: 'system:serviceaccount:team:builder',
    });
  });

  it('round-trips through PEM and JWK', async () => {
    const again = await ServiceAccountSigner.fromPEM(await signer.exportPEM(), profile, issuer);
    expect(again.key.kid).toBe(signer.key.kid);
    const viaJwk = await ServiceAccountSigner.fromJWK(await signer.exportJWK(), profile, issuer);
    expect(viaJwk.key.kid).toBe(signer.key.kid);
  });

  it('loads RSA keys in PKCS#1 and PKIX form with the same kid', async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    const spki = await exportSPKI(pair.publicKey);
    const pkcs8 = await exportPKCS8(pair.privateKey);
    const pem = (label: string, der: Uint8Array) =>
      `-----BEGIN ${label}-----\n${btoa(String.fromCharCode(...der))}\n-----END ${label}-----\n`;
    // PKCS#8 wraps PKCS#1 in its last OCTET STRING; SPKI wraps it in a BIT STRING after a zero byte.
    const innerOf = (der: Uint8Array, tag: number, skip: number) => {
      for (let i = der.length - 1; i > 0; i--) {
        if (der[i] === tag && der[i + 1] === 0x82) {
          const len = ((der[i + 2] ?? 0) << 8) | (der[i + 3] ?? 0);
          if (i + 4 + len === der.length) return der.slice(i + 4 + skip);
        }
      }
      throw new Error('not found');
    };
    const pkcs1Private = innerOf(pemBlocks(pkcs8)[0]?.der ?? new Uint8Array(), 0x04, 0);
    const pkcs1Public = innerOf(pemBlocks(spki)[0]?.der ?? new Uint8Array(), 0x03, 1);
    const [fromSpki] = await loadVerificationKeys(spki);
    const [fromPkcs1Private] = await loadVerificationKeys(pem('RSA PRIVATE KEY', pkcs1Private));
    const [fromPkcs1Public] = await loadVerificationKeys(pem('RSA PUBLIC KEY', pkcs1Public));
    expect(fromPkcs1Private?.kid).toBe(fromSpki?.kid);
    expect(fromPkcs1Public?.kid).toBe(fromSpki?.kid);
    const rsa = await ServiceAccountSigner.fromPEM(pem('RSA PRIVATE KEY', pkcs1Private), profile, issuer);
    expect(rsa.alg).toBe('RS256');
  });

  it('refuses PEM data without a key with the real message', async () => {
    await expect(loadVerificationKeys('hello')).rejects.toThrow(
      'data does not contain any valid RSA or ECDSA public keys',
    );
  });
});

describe('ServiceAccountTokenAuthenticator', () => {
  it('accepts a legacy token with the account identity', async () => {
    expect(await authenticator('legacy').authenticateToken(legacyToken)).toEqual({
      user: {
        username: 'system:serviceaccount:team:builder',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team'],
      },
      audiences: [issuer],
    });
  });

  it('accepts a pod-bound token with the pod in extra', async () => {
    const result = await authenticator('bound').authenticateToken(await bound());
    expect(result?.user.extra).toEqual({
      'authentication.orch.io/pod-name': ['web'],
      'authentication.orch.io/pod-uid': ['pod-uid'],
    });
    expect(result?.audiences).toEqual([issuer]);
  });

  it('answers for the requested audiences (TokenReview)', async () => {
    const token = await bound({ audiences: ['vault', issuer] });
    expect((await authenticator('bound').authenticateToken(token, ['vault']))?.audiences).toEqual(['vault']);
  });

  it('leaves tokens of other issuers alone', async () => {
    expect(await reason('legacy', await bound())).toMatch(/^declined: issuer/);
    expect(await reason('bound', legacyToken)).toMatch(/^declined: issuer/);
    expect(await reason('bound', 'not-a-jwt')).toBe('declined: not a JWT');
  });

  it.each<[string, () => Promise<string>, string]>([
    ['a tampered payload', async () => tamper(legacyToken), `error: ${cryptoFailure}`],
    [
      'alg none',
      async () => {
        const [, p] = legacyToken.split('.');
        return `${base64url.encode(JSON.stringify({ alg: 'none' }))}.${p}.`;
      },
      `error: ${cryptoFailure}`,
    ],
    [
      'an unknown kid',
      async () => {
        const other = await ServiceAccountSigner.generate(profile, issuer);
        return other.signLegacy(account, { name: 'builder-token' });
      },
      'error: invalid signature, no keys found',
    ],
    [
      'a key that is not configured, without kid',
      async () => {
        const pair = await generateKeyPair('ES256');
        const payload = JSON.parse(
          new TextDecoder().decode(base64url.decode(legacyToken.split('.')[1] ?? '')),
        );
        return new SignJWT(payload).setProtectedHeader({ alg: 'ES256' }).sign(pair.privateKey);
      },
      `error: ${cryptoFailure}`,
    ],
  ])('rejects %s (legacy)', async (_name, make, expected) => {
    expect(await reason('legacy', await make())).toBe(expected);
  });

  it.each<[string, () => Promise<string>, ServiceAccountListers | undefined, string]>([
    [
      'an expired token',
      () => bound({ now: nowSeconds - 7200 }),
      undefined,
      'error: service account token has expired',
    ],
    ['an expired token within the leeway', () => bound({ now: nowSeconds - 3630 }), undefined, 'accepted'],
    [
      'a token not valid yet',
      () => bound({ now: nowSeconds + 120 }),
      undefined,
      'error: service account token is not valid yet',
    ],
    [
      'a wrong audience',
      () => bound({ audiences: ['vault'] }),
      undefined,
      `error: token audiences ["vault"] is invalid for the target audiences ["${issuer}"]`,
    ],
    [
      'a deleted account',
      () => bound(),
      listers({ accounts: [] }),
      'error: serviceaccounts "builder" not found',
    ],
    [
      'a recreated account',
      () => bound(),
      listers({ accounts: [obj('ServiceAccount', 'team', 'builder', 'new-uid')] }),
      'error: service account UID (new-uid) does not match claim (sa-uid)',
    ],
    [
      'a deleted pod',
      () => bound(),
      listers({ pods: [] }),
      'error: service account token has been invalidated',
    ],
    [
      'a recreated pod',
      () => bound(),
      listers({ pods: [obj('Pod', 'team', 'web', 'other')] }),
      'error: pod UID (other) does not match claim (pod-uid)',
    ],
  ])('bound: %s', async (_name, make, l, expected) => {
    expect(await reason('bound', await make(), l)).toBe(expected);
  });

  it.each<[string, () => ServiceAccountListers, string]>([
    ['a deleted token secret', () => listers({ secrets: [] }), 'error: Token has been invalidated'],
    [
      'a secret holding another token',
      () =>
        listers({ secrets: [obj('Secret', 'team', 'builder-token', 's', { data: { token: btoa('x') } })] }),
      "error: Token does not match server's copy",
    ],
    ['a deleted account', () => listers({ accounts: [] }), 'error: serviceaccounts "builder" not found'],
    [
      'a recreated account',
      () => listers({ accounts: [obj('ServiceAccount', 'team', 'builder', 'u2')] }),
      'error: ServiceAccount UID (u2) does not match claim (sa-uid)',
    ],
  ])('legacy with lookup: %s', async (_name, l, expected) => {
    expect(await reason('legacy', legacyToken, l())).toBe(expected);
  });

  it('skips legacy lookups with --service-account-lookup=false', async () => {
    const a = authenticator('legacy', listers({ accounts: [], secrets: [] }), false);
    expect((await a.authenticateToken(legacyToken))?.user.username).toBe(
      'system:serviceaccount:team:builder',
    );
  });

  it('throws the failure from authenticateToken (for TokenReview)', async () => {
    await expect(authenticator('legacy').authenticateToken(tamper(legacyToken))).rejects.toThrow(
      cryptoFailure,
    );
  });
});
