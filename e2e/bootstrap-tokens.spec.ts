/**
 * Bootstrap tokens in the browser host: `cluster-info` in `orch-public` is
 * readable without credentials and names the page's origin as the server;
 * a token Secret created as the admin authenticates as
 * `system:bootstrap:<id>`, and the bootstrap signer's signature of the
 * configuration verifies with WebCrypto's HMAC keyed by the full token
 * (independently of the signer's `jose`).
 */

import { expect, test, type Page } from '@playwright/test';
import { api, apiOk, openSandbox, uniqueName } from './support/sandbox';

test.describe.configure({ timeout: 60_000 });

const clusterInfoPath = '/api/v1/namespaces/orch-public/configmaps/cluster-info';

/** A request from the page with the given bearer token, or none. */
function fetchAs(page: Page, path: string, token?: string) {
  return page.evaluate(
    async ({ path, token }) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      const r = await fetch(path, { headers });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    },
    { path, token },
  );
}

/** Checks `<header>..<signature>` over `content` with WebCrypto HMAC-SHA256 keyed by `key`. */
function verifyInPage(page: Page, jws: string, content: string, key: string) {
  return page.evaluate(
    async ({ jws, content, key }) => {
      const b64url = (bytes: Uint8Array) =>
        btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const enc = new TextEncoder();
      const [header = '', payload, signature] = jws.split('.');
      const k = await crypto.subtle.importKey(
        'raw',
        enc.encode(key),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const mac = new Uint8Array(
        await crypto.subtle.sign('HMAC', k, enc.encode(`${header}.${b64url(enc.encode(content))}`)),
      );
      return {
        header: atob(header.replace(/-/g, '+').replace(/_/g, '/')),
        valid: payload === '' && signature === b64url(mac),
      };
    },
    { jws, content, key },
  );
}

test('cluster-info is public, and a bootstrap token authenticates and signs it', async ({
  page,
  baseURL,
}) => {
  await openSandbox(page, '/');
  // On a fresh store cluster-info is written once the cluster CA exists, shortly after the server answers.
  await expect.poll(async () => (await fetchAs(page, clusterInfoPath)).status).toBe(200);
  const anonymous = await fetchAs(page, clusterInfoPath);
  expect(anonymous.status).toBe(200);
  const config = (anonymous.body['data'] as Record<string, string>)['orchconfig'] ?? '';
  expect(config).toContain(`server: ${new URL(baseURL ?? '').origin}`);
  expect(config).toContain('certificate-authority-data: ');

  const id = uniqueName('t')
    .replace(/[^a-z0-9]/g, '')
    .slice(-6)
    .padStart(6, '0');
  const secret = '0123456789abcdef';
  await apiOk(page, 'POST', '/api/v1/namespaces/orch-system/secrets', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'orch-system' },
    type: 'bootstrap.orch.io/token',
    stringData: {
      'token-id': id,
      'token-secret': secret,
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
    },
  });

  // Authenticated (then forbidden: bootstrappers may not list pods), named after the token id.
  await expect
    .poll(async () => (await fetchAs(page, '/api/v1/namespaces/default/pods', `${id}.${secret}`)).status)
    .toBe(403);
  const denied = await fetchAs(page, '/api/v1/namespaces/default/pods', `${id}.${secret}`);
  expect(denied.body['message']).toContain(`User "system:bootstrap:${id}"`);
  expect((await fetchAs(page, '/api/v1/namespaces/default/pods', `${id}.ffffffffffffffff`)).status).toBe(401);

  let jws = '';
  await expect
    .poll(async () => {
      const r = await api(page, 'GET', clusterInfoPath);
      jws = ((r.body as { data?: Record<string, string> }).data ?? {})[`jws-orchconfig-${id}`] ?? '';
      return jws !== '';
    })
    .toBe(true);
  expect(await verifyInPage(page, jws, config, `${id}.${secret}`)).toEqual({
    header: `{"alg":"HS256","kid":"${id}"}`,
    valid: true,
  });
  await apiOk(page, 'DELETE', `/api/v1/namespaces/orch-system/secrets/bootstrap-token-${id}`);
});
