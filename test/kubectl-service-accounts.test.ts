/**
 * Service accounts through kubectl against the Node host (kubernetes
 * profile, so kubectl's own names apply): `create serviceaccount`, `create
 * token` with an audience, a duration and a bound pod (the JWT decoded and
 * its claims checked), the real refusal of a short duration and of a
 * missing account, a pod created with kubectl getting the
 * `kube-api-access-…` volume, and the issuer's keys through `get --raw`.
 * Skipped, with the reason printed, without kubectl.
 */

import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();
const issuer = 'https://kubernetes.default.svc.cluster.local';

interface OwnClaims {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
}

const podManifest = `apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  serviceAccountName: bot
  initContainers:
  - name: init
    image: busybox
  containers:
  - name: app
    image: nginx
`;

describe.skipIf(skip !== undefined)('kubectl and service accounts (profile kubernetes)', () => {
  let host: TestHost;
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(() => host.close());

  it('create serviceaccount', async () => {
    const r = await k('create', 'serviceaccount', 'bot');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('serviceaccount/bot created');
  });

  it('create token --audience --duration: the claims as asked', async () => {
    const r = await k('create', 'token', 'bot', '--audience=x', '--duration=10m');
    expect(r.stderr).toBe('');
    const claims = decodeJwt(r.stdout.trim());
    expect(claims).toMatchObject({ iss: issuer, aud: ['x'], sub: 'system:serviceaccount:default:bot' });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(600);
    expect(claims.nbf).toBe(claims.iat);
    const own = claims['kubernetes.io'] as OwnClaims;
    const account = await k('get', 'serviceaccount', 'bot', '-o', 'jsonpath={.metadata.uid}');
    expect(own).toEqual({ namespace: 'default', serviceaccount: { name: 'bot', uid: account.stdout } });
  });

  it('create token with the defaults: the issuer as audience, one hour', async () => {
    const r = await k('create', 'token', 'bot');
    const claims = decodeJwt(r.stdout.trim());
    expect(claims.aud).toEqual([issuer]);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
  });

  it('a pod created with kubectl gets the kube-api-access volume in each container', async () => {
    const applied = await kubectl(host.kubeconfigPath, ['apply', '-f', '-'], podManifest);
    expect(applied.stderr).toBe('');
    const r = await k('get', 'pod', 'p', '-o', 'json');
    const spec = (
      JSON.parse(r.stdout) as {
        spec: {
          serviceAccountName: string;
          volumes: { name: string; projected: { sources: unknown[]; defaultMode: number } }[];
          containers: { volumeMounts: unknown[] }[];
          initContainers: { volumeMounts: unknown[] }[];
        };
      }
    ).spec;
    expect(spec.serviceAccountName).toBe('bot');
    const volume = spec.volumes[0];
    expect(volume?.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume?.projected.defaultMode).toBe(420);
    expect(volume?.projected.sources).toEqual([
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ]);
    const mount = {
      name: volume?.name,
      readOnly: true,
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
    };
    expect(spec.containers[0]?.volumeMounts).toEqual([mount]);
    expect(spec.initContainers[0]?.volumeMounts).toEqual([mount]);
  });

  it('create token --bound-object-kind=Pod: the pod in the claims', async () => {
    const r = await k('create', 'token', 'bot', '--bound-object-kind=Pod', '--bound-object-name=p');
    expect(r.stderr).toBe('');
    const own = decodeJwt(r.stdout.trim())['kubernetes.io'] as OwnClaims;
    const uid = await k('get', 'pod', 'p', '-o', 'jsonpath={.metadata.uid}');
    expect(own.pod).toEqual({ name: 'p', uid: uid.stdout });
  });

  it('kubectl run in a namespace with a default account', async () => {
    // The service-account controller creates `default`; create it here too so the test does not race it.
    await k('create', 'serviceaccount', 'default');
    const r = await k('run', 'web', '--image=nginx');
    expect(r.stderr).toBe('');
    const sa = await k(
      'get',
      'pod',
      'web',
      '-o',
      'jsonpath={.spec.serviceAccountName} {.spec.volumes[0].name}',
    );
    expect(sa.stdout).toMatch(/^default kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  const refusals: { name: string; args: string[]; stderr: string }[] = [
    {
      name: 'a duration under ten minutes',
      args: ['create', 'token', 'bot', '--duration=5m'],
      stderr:
        'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes',
    },
    {
      name: 'a missing account',
      args: ['create', 'token', 'ghost'],
      stderr: 'error: failed to create token: serviceaccounts "ghost" not found',
    },
    {
      name: 'a pod naming a missing account',
      args: ['run', 'lost', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"ghost"}}'],
      stderr:
        'Error from server (Forbidden): pods "lost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
    },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name}`, async () => {
      const r = await k(...c.args);
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim()).toBe(c.stderr);
    });
  }

  it('get --raw the issuer discovery document and keys', async () => {
    const config = await k('get', '--raw', '/.well-known/openid-configuration');
    expect(config.stderr).toBe('');
    expect(JSON.parse(config.stdout)).toMatchObject({ issuer, jwks_uri: `${host.url}/openid/v1/jwks` });
    const jwks = await k('get', '--raw', '/openid/v1/jwks');
    expect(jwks.stderr).toBe('');
    expect((JSON.parse(jwks.stdout) as { keys: unknown[] }).keys).toHaveLength(1);
  });
});
