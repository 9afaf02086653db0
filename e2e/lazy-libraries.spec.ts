/**
 * Libraries the service worker loads when first needed (decisions 0038 and
 * 0039): each is a separate script under `/sw-lazy/`, and the first request
 * that needs one is answered by the server using it, in the browser, on a
 * fresh worker that never loaded it.
 */

import { expect, test, type Page } from '@playwright/test';
import { openSandbox } from './support/sandbox';

/** One request from inside the page as the built-in admin, with raw headers and body; answers status, type and text. */
async function rawRequest(
  page: Page,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; contentType: string | null; text: string; bytes: number }> {
  return page.evaluate(
    async ({ method, path, headers, body }) => {
      const listed = (await (await fetch('/sandbox/v1/identities')).json()) as {
        items: { name: string; token?: string }[];
      };
      const admin = listed.items.find((i) => i.name === 'admin');
      const all: Record<string, string> = { ...headers };
      if (admin?.token !== undefined) all.authorization = `Bearer ${admin.token}`;
      const response = await fetch(path, { method, headers: all, body });
      const buffer = await response.arrayBuffer();
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        text: new TextDecoder().decode(buffer),
        bytes: buffer.byteLength,
      };
    },
    { method, path, headers, body },
  );
}

test('protobuf: the first request that asks for it is answered in protobuf', async ({ page }) => {
  await openSandbox(page);
  const answer = await rawRequest(page, 'GET', '/api/v1/namespaces/default', {
    // The browser runs the orch naming profile: its protobuf media type names the product.
    accept: 'application/vnd.orch.protobuf',
  });
  expect(answer.status).toBe(200);
  expect(answer.contentType).toContain('protobuf');
  // The envelope's magic number, then the namespace's name somewhere in the message.
  expect(answer.text.startsWith('k8s\u0000')).toBe(true);
  expect(answer.text).toContain('default');
});

test('CEL and RE2: a CRD rule and a pattern give their real errors', async ({ page }) => {
  await openSandbox(page);
  const json = { 'content-type': 'application/json' };
  const crds = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
  const crd = {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gauges.lazy.example.com' },
    spec: {
      group: 'lazy.example.com',
      names: { plural: 'gauges', kind: 'Gauge' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    name: { type: 'string', pattern: '^[a-z]+$' },
                    min: { type: 'integer' },
                    max: { type: 'integer' },
                  },
                  'x-orch-validations': [
                    { rule: 'self.min <= self.max', message: 'min must not exceed max' },
                  ],
                },
              },
            },
          },
        },
      ],
    },
  };
  const created = await rawRequest(page, 'POST', crds, json, JSON.stringify(crd));
  expect(created.status, created.text).toBe(201);
  await expect
    .poll(
      async () =>
        (await rawRequest(page, 'GET', '/apis/lazy.example.com/v1/namespaces/default/gauges', {})).status,
    )
    .toBe(200);

  const gauge = (name: string, spec: Record<string, unknown>) =>
    JSON.stringify({ apiVersion: 'lazy.example.com/v1', kind: 'Gauge', metadata: { name }, spec });
  const path = '/apis/lazy.example.com/v1/namespaces/default/gauges';
  const rule = await rawRequest(page, 'POST', path, json, gauge('rule', { name: 'ok', min: 3, max: 1 }));
  expect(rule.status, rule.text).toBe(422);
  expect(JSON.parse(rule.text).message).toBe(
    'Gauge.lazy.example.com "rule" is invalid: spec: Invalid value: "object": min must not exceed max',
  );
  const pattern = await rawRequest(
    page,
    'POST',
    path,
    json,
    gauge('pattern', { name: 'Bad1', min: 1, max: 3 }),
  );
  expect(pattern.status, pattern.text).toBe(422);
  expect(JSON.parse(pattern.text).message).toBe(
    `Gauge.lazy.example.com "pattern" is invalid: spec.name: Invalid value: "Bad1": spec.name in body should match '^[a-z]+$'`,
  );
  const ok = await rawRequest(page, 'POST', path, json, gauge('ok', { name: 'fine', min: 1, max: 3 }));
  expect(ok.status, ok.text).toBe(201);
});

// A request made once with openssl (P-256, O=dev, CN=lazy-alice): its signature verifies whenever it is sent.
const lazyAliceCSR = `-----BEGIN CERTIFICATE REQUEST-----
MIHdMIGFAgEAMCMxDDAKBgNVBAoMA2RldjETMBEGA1UEAwwKbGF6eS1hbGljZTBZ
MBMGByqGSM49AgEGCCqGSM49AwEHA0IABKIOZHNMriXQUiZTFCFjMTkuV/Gud1Dj
1lNJQ56gtwsr8QPGdWoF/LxV45TaNEprOkJY5HuWkwU9SxXcj14Vb2WgADAKBggq
hkjOPQQDAgNHADBEAiAtBX3aqznL32haQoF+0Kl36ov9vjiWbm+UyJFUz0whzgIg
QB6T4E8GjLI37Xchhh86OmouNd5n2SiX4VH26CK395A=
-----END CERTIFICATE REQUEST-----
`;

test('x509: a request is validated, approved and signed by the CA the root CA ConfigMap publishes', async ({
  page,
}) => {
  // The page's resource timing does not see the worker's own fetches of /sw-lazy/, and the worker creates the
  // cluster CA (loading the library) right after its start, so only the end state is checked in the worker:
  // the library's reflect-metadata polyfill is installed there.
  await openSandbox(page);
  const json = { 'content-type': 'application/json' };
  expect((await rawRequest(page, 'GET', '/version', {})).status).toBe(200);
  expect((await rawRequest(page, 'GET', '/api/v1/namespaces', {})).status).toBe(200);

  const csrs = '/apis/certificates.orch.io/v1/certificatesigningrequests';
  const name = `lazy-${Date.now().toString(36)}`;
  const body = (request: string) =>
    JSON.stringify({
      apiVersion: 'certificates.orch.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: {
        request: btoa(request),
        signerName: 'orch.io/apiserver-client',
        usages: ['digital signature', 'client auth'],
      },
    });
  const broken = await rawRequest(page, 'POST', csrs, json, body(lazyAliceCSR.replace('MIHd', 'MIHe')));
  expect(broken.status, broken.text).toBe(422);
  const created = await rawRequest(page, 'POST', csrs, json, body(lazyAliceCSR));
  expect(created.status, created.text).toBe(201);
  const current = JSON.parse((await rawRequest(page, 'GET', `${csrs}/${name}`, {})).text);
  const conditions = [{ type: 'Approved', status: 'True', reason: 'E2E', message: 'approved by the test' }];
  const approved = await rawRequest(
    page,
    'PUT',
    `${csrs}/${name}/approval`,
    json,
    JSON.stringify({ ...current, status: { conditions } }),
  );
  expect(approved.status, approved.text).toBe(200);
  let certificate = '';
  await expect
    .poll(async () => {
      const got = JSON.parse((await rawRequest(page, 'GET', `${csrs}/${name}`, {})).text);
      certificate = atob(got.status?.certificate ?? '');
      return certificate.startsWith('-----BEGIN CERTIFICATE-----');
    })
    .toBe(true);

  let rootCA = '';
  await expect
    .poll(async () => {
      const got = await rawRequest(page, 'GET', '/api/v1/namespaces/default/configmaps/orch-root-ca.crt', {});
      rootCA = got.status === 200 ? (JSON.parse(got.text).data?.['ca.crt'] ?? '') : '';
      return rootCA.startsWith('-----BEGIN CERTIFICATE-----');
    })
    .toBe(true);
  const info = await rawRequest(page, 'GET', '/api/v1/namespaces/orch-public/configmaps/cluster-info', {});
  expect(info.status, info.text).toBe(200);
  expect(JSON.parse(info.text).data?.orchconfig).toContain(`certificate-authority-data: ${btoa(rootCA)}`);
  const { X509Certificate } = await import('node:crypto');
  const issued = new X509Certificate(certificate);
  expect(issued.checkIssued(new X509Certificate(rootCA))).toBe(true);
  expect(issued.verify(new X509Certificate(rootCA).publicKey)).toBe(true);

  const worker = page.context().serviceWorkers()[0];
  expect(worker).toBeDefined();
  expect(await worker?.evaluate(() => typeof (Reflect as { getMetadata?: unknown }).getMetadata)).toBe(
    'function',
  );
});

test('yaml: the first request that asks for YAML is answered in YAML, and a YAML apply works', async ({
  page,
}) => {
  await openSandbox(page);
  // Media types compare case-insensitively: the mixed-case Accept still loads the library first.
  const answer = await rawRequest(page, 'GET', '/api/v1/namespaces/default', { accept: 'Application/YAML' });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.contentType).toBe('application/yaml');
  expect(answer.text).toMatch(/^kind: Namespace$/m);
  expect(answer.text).toMatch(/^ {2}name: default$/m);

  const name = `lazy-yaml-${Date.now().toString(36)}`;
  const applied = await rawRequest(
    page,
    'PATCH',
    `/api/v1/namespaces/default/configmaps/${name}?fieldManager=e2e`,
    { 'content-type': 'application/apply-patch+yaml' },
    ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, 'data:', '  a: "1"', ''].join('\n'),
  );
  expect(applied.status, applied.text).toBe(201);
  expect(JSON.parse(applied.text).data).toEqual({ a: '1' });
});

test('writes and subresources: a create, a strategic merge patch, an access review and a pod log on a fresh worker', async ({
  page,
}) => {
  await openSandbox(page);
  const json = { 'content-type': 'application/json' };
  const name = `lazy-write-${Date.now().toString(36)}`;
  const created = await rawRequest(
    page,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    json,
    JSON.stringify({ metadata: { name }, data: { a: '1' } }),
  );
  expect(created.status, created.text).toBe(201);
  expect(JSON.parse(created.text).metadata.managedFields).toHaveLength(1);

  const patched = await rawRequest(
    page,
    'PATCH',
    `/api/v1/namespaces/default/configmaps/${name}`,
    { 'content-type': 'application/strategic-merge-patch+json' },
    JSON.stringify({ data: { b: '2' } }),
  );
  expect(patched.status, patched.text).toBe(200);
  expect(JSON.parse(patched.text).data).toEqual({ a: '1', b: '2' });

  const review = await rawRequest(
    page,
    'POST',
    '/apis/authorization.orch.io/v1/selfsubjectaccessreviews',
    json,
    JSON.stringify({
      apiVersion: 'authorization.orch.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'default' } },
    }),
  );
  expect(review.status, review.text).toBe(201);
  expect(JSON.parse(review.text).status.allowed).toBe(true);

  // A connect subresource's storage is loaded with its first request, which answers as before: no such pod.
  const log = await rawRequest(page, 'GET', '/api/v1/namespaces/default/pods/no-such-pod/log', {});
  expect(log.status, log.text).toBe(404);
  expect(JSON.parse(log.text).reason).toBe('NotFound');
});
