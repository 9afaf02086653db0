// The bootstrap signer against an in-process server: the detached JWS it
// writes (exact header, HMAC-SHA256 with the full token, checked with
// node:crypto rather than jose), which tokens sign, removal of signatures
// by the controller's clock and at expiry, and that it never creates
// cluster-info nor signs one without the configuration key.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, tokenSecret, type Harness } from '../../test/support/bootstrap-tokens';
import type { KubeObject } from '../api/meta';
import { ApiError } from '../client/errors';
import { bootstrapSigner, detachedSignature } from './bootstrap-signer';
import type { Controller } from './types';

let h: Harness;
let signer: Controller;
const secrets = () => ({
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespace: h.profile.systemNamespace,
});
const configMaps = () => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: h.profile.publicNamespace,
});
const content = 'apiVersion: v1\nkind: Config\nclusters: []\n';

beforeAll(async () => {
  h = await startHarness();
  signer = bootstrapSigner(h.context());
  signer.start();
});
afterAll(async () => {
  signer.stop();
  await h.api.close();
});

async function clusterInfo(): Promise<Record<string, string> | undefined> {
  try {
    const cm = await h.client.get<KubeObject>({ ...configMaps(), name: 'cluster-info' });
    return (cm['data'] ?? {}) as Record<string, string>;
  } catch (e) {
    if (e instanceof ApiError && e.code === 404) return undefined;
    throw e;
  }
}

function hmac(jws: string, key: string): boolean {
  const [header = '', payload, signature] = jws.split('.');
  const b64 = Buffer.from(content, 'utf8').toString('base64url');
  return (
    payload === '' && signature === createHmac('sha256', key).update(`${header}.${b64}`).digest('base64url')
  );
}

describe('detachedSignature', () => {
  it('is <header>..<signature> with the real signer header, keyed by the full token', async () => {
    const jws = await detachedSignature(content, 'abcdef', 'abcdef.0123456789abcdef');
    const [header = ''] = jws.split('.');
    expect(Buffer.from(header, 'base64url').toString()).toBe('{"alg":"HS256","kid":"abcdef"}');
    expect(jws).not.toContain('=');
    expect(hmac(jws, 'abcdef.0123456789abcdef')).toBe(true);
    expect(hmac(jws, '0123456789abcdef')).toBe(false);
  });
});

describe('bootstrap signer', () => {
  it('never creates cluster-info', async () => {
    await h.client.create(
      secrets(),
      tokenSecret(h.profile, 'first1', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }),
    );
    await h.client.create(configMaps(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } });
    await signer.idle();
    expect(await clusterInfo()).toBeUndefined();
  });

  it('leaves a cluster-info without the configuration key alone', async () => {
    await h.client.create(configMaps(), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info' },
      data: { unrelated: 'x' },
    });
    await signer.idle();
    expect(await clusterInfo()).toEqual({ unrelated: 'x' });
  });

  it('signs for every valid signing token only, and drops stale signatures', async () => {
    const future = '2999-01-01T00:00:00Z';
    const add = (id: string, fields: Record<string, string>, type?: string) =>
      h.client.create(secrets(), tokenSecret(h.profile, id, `${id}0123456789`, fields, type));
    await add('sign01', { 'usage-bootstrap-signing': 'true', expiration: future });
    await add('nosig1', { 'usage-bootstrap-authentication': 'true' });
    await add('false1', { 'usage-bootstrap-signing': 'false' });
    await add('expir1', { 'usage-bootstrap-signing': 'true', expiration: '2020-01-01T00:00:00Z' });
    await add('wrong1', { 'usage-bootstrap-signing': 'true' }, 'Opaque');
    await h.client.create(secrets(), {
      ...tokenSecret(h.profile, 'badid1', 'badid10123456789', { 'usage-bootstrap-signing': 'true' }),
      data: {
        'token-id': btoa('zzzzzz'),
        'token-secret': btoa('badid10123456789'),
        'usage-bootstrap-signing': btoa('true'),
      },
    });
    await h.client.update(
      { ...configMaps(), name: 'cluster-info' },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cluster-info' },
        data: { orchconfig: content, 'jws-orchconfig-gone00': 'stale..sig' },
      },
    );
    const data = await eventually(async () => {
      const d = await clusterInfo();
      return d?.['jws-orchconfig-sign01'] !== undefined && d['jws-orchconfig-gone00'] === undefined
        ? d
        : undefined;
    }, 'the signatures');
    expect(Object.keys(data).sort()).toEqual([
      'jws-orchconfig-first1',
      'jws-orchconfig-sign01',
      'orchconfig',
    ]);
    expect(hmac(data['jws-orchconfig-sign01'] ?? '', 'sign01.sign010123456789')).toBe(true);
    expect(hmac(data['jws-orchconfig-first1'] ?? '', 'first1.0123456789abcdef')).toBe(true);
  });

  it('re-signs when the configuration changes', async () => {
    const changed = `${content}# changed\n`;
    const cm = await h.client.get<KubeObject>({ ...configMaps(), name: 'cluster-info' });
    await h.client.update(
      { ...configMaps(), name: 'cluster-info' },
      { ...cm, data: { ...(cm['data'] as Record<string, string>), orchconfig: changed } },
    );
    const expected = await detachedSignature(changed, 'sign01', 'sign01.sign010123456789');
    await eventually(
      async () => ((await clusterInfo())?.['jws-orchconfig-sign01'] === expected ? true : undefined),
      'the new signature',
    );
  });

  it('drops the signature of a token once its clock passes the expiration', async () => {
    const expiration = new Date(h.clock.now().getTime() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await h.client.create(
      secrets(),
      tokenSecret(h.profile, 'hour01', '0123456789abcdef', { 'usage-bootstrap-signing': 'true', expiration }),
    );
    await eventually(
      async () => ((await clusterInfo())?.['jws-orchconfig-hour01'] !== undefined ? true : undefined),
      'the signature',
    );
    h.clock.shift = 2 * 3_600_000;
    try {
      // Nothing else changes: the signer's once-a-second look at the clock finds the expiry passed.
      await eventually(
        async () => ((await clusterInfo())?.['jws-orchconfig-hour01'] === undefined ? true : undefined),
        'the signature to go',
      );
    } finally {
      h.clock.shift = 0;
    }
  });

  it('drops a signature when its token expires, without any other change', async () => {
    const expiration = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000)
      .toISOString()
      .replace('.000Z', 'Z');
    await h.client.create(
      secrets(),
      tokenSecret(h.profile, 'soon01', '0123456789abcdef', { 'usage-bootstrap-signing': 'true', expiration }),
    );
    await eventually(
      async () => ((await clusterInfo())?.['jws-orchconfig-soon01'] !== undefined ? true : undefined),
      'the signature',
    );
    await eventually(
      async () => ((await clusterInfo())?.['jws-orchconfig-soon01'] === undefined ? true : undefined),
      'the signature to go at expiry',
    );
  });

  it('drops the signature of a deleted token', async () => {
    await h.client.delete({ ...secrets(), name: 'bootstrap-token-first1' });
    await eventually(
      async () => ((await clusterInfo())?.['jws-orchconfig-first1'] === undefined ? true : undefined),
      'the signature to go',
    );
  });
});
