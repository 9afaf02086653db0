/**
 * OpenAPI over real HTTP against the Node host, in both profiles: the v3
 * index and its hashed documents (immutable when current, 301 when stale,
 * ETag and 304), v2 as JSON or gnostic protobuf by Accept (406 otherwise),
 * and kubectl using them: `explain`, and `create` with strict field
 * validation done by the server. Skipped with the reason printed when
 * kubectl is missing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();

for (const profile of ['kubernetes', 'orch'] as const) {
  const ext = profile === 'orch' ? 'x-orch-' : 'x-kubernetes-';
  describe(`OpenAPI (profile ${profile})`, () => {
    let host: TestHost;
    beforeAll(async () => {
      host = await startTestHost({ profile });
    });
    afterAll(async () => {
      await host.close();
    });

    it('v3 index points at hashed documents that are immutable while current', async () => {
      const index = await host.request('GET', '/openapi/v3');
      expect(index.status).toBe(200);
      expect(index.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
      const entry = index.body.paths['apis/apps/v1'] as { serverRelativeURL: string };
      expect(entry.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
      expect(Object.keys(index.body.paths)).toEqual(
        expect.arrayContaining(['api/v1', 'api', 'apis', 'version']),
      );

      const doc = await host.request('GET', entry.serverRelativeURL);
      expect(doc.status).toBe(200);
      expect(doc.headers.get('cache-control')).toBe('public, immutable');
      expect(doc.headers.get('etag')).toBe(`"${entry.serverRelativeURL.split('hash=')[1] ?? ''}"`);
      expect(doc.body.openapi).toBe('3.0.0');
      const patch = doc.body.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
      expect(patch[`${ext}group-version-kind`]).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
      expect(patch.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');

      const stale = await fetchWithCA(`${host.url}/openapi/v3/apis/apps/v1?hash=0123`, {
        redirect: 'manual',
      });
      expect(stale.status).toBe(301);
      expect(stale.headers.get('location')).toBe(entry.serverRelativeURL);

      const again = await host.request('GET', entry.serverRelativeURL, {
        headers: { 'If-None-Match': doc.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);
      expect((await host.request('GET', '/openapi/v3/apis/nothing/v1')).status).toBe(404);
      expect(
        (await host.request('GET', '/openapi/v3/api/v1', { headers: { Accept: 'application/xml' } })).status,
      ).toBe(406);
    });

    it('v2 is JSON or gnostic protobuf by Accept, and 406 otherwise', async () => {
      const json = await host.request('GET', '/openapi/v2');
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toBe('application/json');
      expect(json.body.swagger).toBe('2.0');
      expect(json.headers.get('vary')).toBe('Accept');
      const pb = await fetchWithCA(`${host.url}/openapi/v2`, {
        headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
      });
      expect(pb.status).toBe(200);
      expect(pb.headers.get('content-type')).toBe(
        'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      );
      expect(pb.headers.get('etag')).toBe(json.headers.get('etag'));
      expect((await pb.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      expect((await host.request('GET', '/openapi/v2', { headers: { Accept: 'text/html' } })).status).toBe(
        406,
      );
      expect(
        (
          await host.request('GET', '/openapi/v2', {
            headers: { 'If-None-Match': json.headers.get('etag') ?? '' },
          })
        ).status,
      ).toBe(304);
    });

    describe.skipIf(skip !== undefined)('kubectl', () => {
      const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);

      it('create validates strictly on the server', async () => {
        const good = await kubectl(
          host.kubeconfigPath,
          ['create', '-f', '-'],
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: valid\ndata:\n  a: b\n',
        );
        expect(good.stdout).toContain('configmap/valid created');
        const bad = await kubectl(
          host.kubeconfigPath,
          ['create', '-f', '-', '--validate=strict'],
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: invalid\n  colour: red\n',
        );
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toContain('strict decoding error: unknown field "metadata.colour"');
      });

      if (profile === 'kubernetes') {
        it('explain finds kinds and fields through OpenAPI v3', async () => {
          const field = await k('explain', 'deployment.spec.replicas');
          expect(field.code).toBe(0);
          expect(field.stdout).toMatch(/GROUP:\s+apps/);
          expect(field.stdout).toMatch(/KIND:\s+Deployment/);
          expect(field.stdout).toContain('FIELD: replicas <integer>');
          const pods = await k('explain', 'pods');
          expect(pods.stdout).toMatch(/KIND:\s+Pod/);
          expect(pods.stdout).toMatch(/spec\s+<PodSpec>/);
          const v2 = await k('explain', 'pods.spec.containers.ports', '--output=plaintext-openapiv2');
          expect(v2.stdout).toMatch(/containerPort\s+<integer> -required-/);
        });
      } else {
        it('explain cannot find kinds: kubectl reads only the upstream extension name', async () => {
          // kubectl's explain template looks up `x-kubernetes-group-version-kind`; profile orch publishes
          // `x-orch-group-version-kind`, so the lookup fails while everything else works.
          const r = await k('explain', 'pods');
          expect(r.code).not.toBe(0);
          expect(r.stderr).toContain('not found in OpenAPI schema');
        });
      }
    });
  });
}
