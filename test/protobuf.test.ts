/**
 * Protobuf over real HTTP against the Node host, in both profiles: objects,
 * lists and Status errors in the envelope when asked for, JSON fallback
 * and 406 as negotiation requires, protobuf request bodies for POST and
 * PUT, and watch streams of length-prefixed frames. A Go client checks the
 * encoding independently: kubectl 1.33 and later ask for protobuf in
 * `describe` and `events` (the kubectl on PATH may dispatch to an older
 * one, so a newer sibling binary is used when present; skipped otherwise
 * with the reason printed).
 */

import { execFile } from 'node:child_process';
import { readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWatchFrames, protobufCodec } from '../src/http/protobuf/codec';
import { namingProfile } from '../src/machinery/naming';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { kubectlPath } from './support/kubectl';
import { protobufLibrary } from '../src/http/protobuf/library';

// The codec is used directly here, outside a request: load it as the request pipeline would.
await protobufLibrary.load();

function newerKubectl(): string | undefined {
  if (kubectlPath === undefined) return undefined;
  const dir = dirname(realpathSync(kubectlPath));
  const versions = readdirSync(dir)
    .map((f) => /^kubectl\.1\.(\d+)$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) >= 33)
    .sort((a, b) => Number(b[1]) - Number(a[1]));
  const best = versions[0];
  return best === undefined ? undefined : join(dir, best[0]);
}

const goClient = newerKubectl();
if (goClient === undefined)
  console.warn(
    'SKIP: no kubectl 1.33 or later found beside kubectl on PATH: the protobuf check with a Go client is skipped',
  );

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      bin,
      args,
      {
        timeout: 30_000,
        env: {
          ...process.env,
          KUBECACHEDIR: join(process.env.TMPDIR ?? '/tmp', `kubectl-pb-cache-${process.pid}`),
        },
      },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : 1, stdout, stderr }),
    );
  });
}

for (const profileName of ['kubernetes', 'orch'] as const) {
  const profile = namingProfile(profileName);
  const pb = profile.protobufMediaType;
  const codec = protobufCodec(profile);

  describe(`protobuf (profile ${profileName})`, () => {
    let host: TestHost;
    const get = async (path: string, accept: string) => {
      const res = await fetchWithCA(`${host.url}${path}`, { headers: { Accept: accept } });
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: new Uint8Array(await res.arrayBuffer()),
      };
    };
    const send = async (method: string, path: string, body: Uint8Array) => {
      const res = await fetchWithCA(`${host.url}${path}`, { method, headers: { 'Content-Type': pb }, body });
      return { status: res.status, body: (await res.json()) as Record<string, never> };
    };

    beforeAll(async () => {
      host = await startTestHost({ profile: profileName });
      await host.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' }, data: { a: '1' } },
      });
    });
    afterAll(async () => {
      await host.close();
    });

    it('answers objects, lists and errors in the envelope', async () => {
      const json = await host.request('GET', '/api/v1/namespaces/default/configmaps/one');
      const obj = await get('/api/v1/namespaces/default/configmaps/one', pb);
      expect(obj.status).toBe(200);
      expect(obj.type).toBe(pb);
      expect([...obj.bytes.slice(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
      expect(codec.decode(obj.bytes)).toEqual(json.body);

      const list = codec.decode(
        (await get('/api/v1/namespaces/default/configmaps', `${pb}, application/json`)).bytes,
      );
      expect(list).toMatchObject({
        apiVersion: 'v1',
        kind: 'ConfigMapList',
        // Besides the root CA ConfigMap the publisher keeps in every namespace.
        items: expect.arrayContaining([
          expect.objectContaining({ metadata: expect.objectContaining({ name: 'one' }), data: { a: '1' } }),
        ]),
      });

      const missing = await get('/api/v1/namespaces/default/configmaps/none', pb);
      expect(missing.status).toBe(404);
      expect(missing.type).toBe(pb);
      expect(codec.decode(missing.bytes)).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
      });
    });

    it('answers object metadata in protobuf when asked', async () => {
      const accept = `${pb};as=PartialObjectMetadataList;g=${profile.metaGroup};v=v1, application/json`;
      const r = await get('/api/v1/namespaces/default/configmaps', accept);
      expect(r.type).toBe(pb);
      expect(codec.decode(r.bytes)).toMatchObject({
        kind: 'PartialObjectMetadataList',
        apiVersion: `${profile.metaGroup}/v1`,
        items: expect.arrayContaining([
          { metadata: expect.objectContaining({ name: 'one', namespace: 'default' }) },
        ]),
      });
    });

    it('negotiates: other media types are 406, Tables and discovery stay JSON', async () => {
      const other =
        profileName === 'orch' ? 'application/vnd.kubernetes.protobuf' : 'application/vnd.orch.protobuf';
      expect((await get('/api/v1/namespaces', other)).status).toBe(406);
      expect((await get('/apis', `${pb}, application/json`)).type).toBe('application/json');
      const table = await get(
        '/api/v1/namespaces',
        `application/json;as=Table;v=v1;g=${profile.metaGroup}, ${pb}`,
      );
      expect(table.type).toBe('application/json');
    });

    it('accepts protobuf bodies for create and update', async () => {
      const created = await send(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        codec.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' }, data: { b: '2' } }) ??
          new Uint8Array(),
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        kind: 'ConfigMap',
        metadata: { name: 'two', namespace: 'default' },
        data: { b: '2' },
      });
      const updated = await send(
        'PUT',
        '/api/v1/namespaces/default/configmaps/two',
        codec.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' }, data: { b: '3' } }) ??
          new Uint8Array(),
      );
      expect(updated.status).toBe(200);
      expect(updated.body.data).toEqual({ b: '3' });
      const wrongKind = await send(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        codec.encode({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }) ?? new Uint8Array(),
      );
      expect(wrongKind.status).toBe(400);
      const garbage = await send(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        new TextEncoder().encode('{"kind":"ConfigMap"}'),
      );
      expect(garbage.status).toBe(400);
    });

    it('streams watch events as length-prefixed frames', async () => {
      const w = await get('/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1', pb);
      expect(w.type).toBe(`${pb};stream=watch`);
      // The root CA ConfigMap the publisher keeps in every namespace is not this test's.
      const events = decodeWatchFrames(profile, w.bytes).filter(
        (e) => !(e.object.metadata?.name ?? '').endsWith('-root-ca.crt'),
      );
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
      expect(events.map((e) => e.object.metadata?.name).sort()).toEqual(['one', 'two']);
      expect(events[0]?.object.kind).toBe('ConfigMap');
    });

    if (profileName === 'kubernetes')
      it.skipIf(goClient === undefined)(
        'a Go client (kubectl 1.33+) decodes the protobuf it asked for',
        async () => {
          await host.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
            body: {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              metadata: { name: 'web' },
              spec: {
                replicas: 2,
                selector: { matchLabels: { app: 'web' } },
                template: {
                  metadata: { labels: { app: 'web' } },
                  spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
                },
              },
            },
          });
          const r = await run(goClient ?? 'kubectl', [
            '--kubeconfig',
            host.kubeconfigPath,
            'describe',
            'deployment',
            'web',
            '-v=8',
          ]);
          expect(r.code).toBe(0);
          expect(r.stderr).toContain('Accept: application/vnd.kubernetes.protobuf,application/json');
          expect(r.stderr).toContain('Content-Type: application/vnd.kubernetes.protobuf');
          expect(r.stdout).toMatch(/Name:\s+web/);
          expect(r.stdout).toMatch(/Image:\s+nginx:1\.25/);
          expect(r.stdout).toMatch(/Replicas:\s+2 desired/);
        },
      );
  });
}
