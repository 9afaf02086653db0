/**
 * `kubectl create deployment` from a kubectl that sends protobuf (1.32 and
 * later) stores exactly what the same command from a kubectl that sends
 * JSON (1.27) stores: the same spec, no zero values the JSON create lacks,
 * and the same managedFields entry. The kubectl on PATH is a dispatcher
 * that picks a version near the server's (it sends JSON to a v1.27 server),
 * so the sibling binaries `kubectl.1.27` and `kubectl.1.32` (or later) are
 * run directly; the test is skipped with the reason printed when they are
 * missing. Kubernetes profile.
 */

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectlPath } from './support/kubectl';

function sibling(pick: (minor: number) => boolean): string | undefined {
  if (kubectlPath === undefined) return undefined;
  const dir = dirname(realpathSync(kubectlPath));
  const found = readdirSync(dir)
    .map((f) => /^kubectl\.1\.(\d+)$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null && pick(Number(m[1])))
    .sort((a, b) => Number(a[1]) - Number(b[1]))[0];
  return found === undefined ? undefined : join(dir, found[0]);
}

const jsonKubectl = sibling((minor) => minor >= 27 && minor <= 31);
const protobufKubectl = sibling((minor) => minor >= 32);
const skip =
  jsonKubectl === undefined || protobufKubectl === undefined || !existsSync(protobufKubectl)
    ? 'no kubectl 1.27–1.31 and 1.32+ beside the kubectl on PATH: the protobuf create comparison is skipped'
    : undefined;
if (skip !== undefined) console.warn(`SKIP: ${skip}`);

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      bin,
      args,
      {
        timeout: 30_000,
        env: {
          ...process.env,
          KUBECACHEDIR: join(process.env.TMPDIR ?? '/tmp', `kubectl-pbc-${process.pid}`),
        },
      },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : 1, stdout, stderr }),
    );
  });
}

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
  time?: string;
}

describe.skipIf(skip !== undefined)(
  'kubectl create deployment: protobuf and JSON store the same object',
  () => {
    let host: TestHost;
    beforeAll(async () => {
      host = await startTestHost({ profile: 'kubernetes' });
      for (const ns of ['via-json', 'via-protobuf'])
        await host.request('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        });
    });
    afterAll(async () => {
      await host.close();
    });

    it('stores the same spec and managedFields', async () => {
      const create = (bin: string, ns: string, extra: string[] = []) =>
        run(bin, [
          '--kubeconfig',
          host.kubeconfigPath,
          '-n',
          ns,
          'create',
          'deployment',
          'web',
          '--image=nginx',
          '--port=80',
          ...extra,
        ]);
      const viaJson = await create(jsonKubectl ?? '', 'via-json', ['-v=8']);
      expect(viaJson.code, viaJson.stderr).toBe(0);
      expect(viaJson.stderr).toMatch(/Content-Type: application\/json/);
      const viaProtobuf = await create(protobufKubectl ?? '', 'via-protobuf', ['-v=8']);
      expect(viaProtobuf.code, viaProtobuf.stderr).toBe(0);
      // The request body really was protobuf.
      expect(viaProtobuf.stderr).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf/);

      const get = async (ns: string) =>
        (await host.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/web`)).body as {
          metadata: { generation: number; labels: Record<string, string>; managedFields: Entry[] };
          spec: Record<string, unknown>;
        };
      const a = await get('via-json');
      const b = await get('via-protobuf');
      // Controllers may have written status and annotations since; what kubectl created is compared.
      expect(b.spec).toEqual(a.spec);
      expect(b.metadata.labels).toEqual(a.metadata.labels);
      expect(b.metadata.generation).toBe(1);
      const own = (d: typeof a) =>
        d.metadata.managedFields
          .filter((e) => e.manager === 'kubectl-create')
          .map(({ time: _time, ...rest }) => rest);
      expect(own(b)).toEqual(own(a));
      expect(own(b)).toHaveLength(1);
      // The zero values of plain fields a Go client always writes are not stored.
      expect(b.spec).not.toHaveProperty('minReadySeconds');
      expect(b.spec).not.toHaveProperty('paused');
      expect(JSON.stringify(own(b))).not.toMatch(
        /f:minReadySeconds|f:paused|f:stdin|f:hostNetwork|f:generation/,
      );
    });
  },
);
