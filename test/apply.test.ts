/**
 * Server-side apply and field ownership over real HTTP against the Node
 * host: apply's status codes (201, 200, 409, 422, 400), the conflict Status
 * in the real server's words, force, create-by-apply, managedFields
 * recorded by create, update, patch and the status and scale
 * subresources, resetting them, and kubectl's `apply --server-side` by two
 * managers (skipped with a printed reason when kubectl is absent).
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost, type TestResponse } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const applyType = 'application/apply-patch+yaml';
const deployments = '/apis/apps/v1/namespaces/default/deployments';
const configmaps = '/api/v1/namespaces/default/configmaps';
const rfc3339Seconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

function deploymentYaml(name: string, replicas: number, image = 'nginx:1.25'): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: web
        image: ${image}
`;
}

interface Entry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

const entries = (r: TestResponse): Entry[] => (r.body.metadata.managedFields ?? []) as Entry[];
const entryOf = (r: TestResponse, manager: string): Entry | undefined =>
  entries(r).find((e) => e.manager === manager);

let host: TestHost;
beforeAll(async () => {
  // Apply's semantics on Deployments, without the Deployment controller writing their status (and so
  // their resourceVersion) between a test's read and its write.
  host = await startTestHost({ profile: 'kubernetes', controllerSelection: ['*', '-deployment'] });
});
afterAll(async () => {
  await host.close();
});

const apply = (path: string, body: string, query: string) =>
  host.request('PATCH', `${path}?${query}`, { body, contentType: applyType });

describe('apply over HTTP', () => {
  it('creates an absent object (201) owned by the applier', async () => {
    const r = await apply(`${deployments}/a1`, deploymentYaml('a1', 2), 'fieldManager=alice');
    expect(r.status).toBe(201);
    expect(r.body.spec.replicas).toBe(2);
    expect(entries(r)).toHaveLength(1);
    const e = entries(r)[0] as Entry;
    expect(e).toMatchObject({
      manager: 'alice',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
    });
    expect(e.time).toMatch(rfc3339Seconds);
    expect(e.fieldsV1).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
  });

  it('applying the same configuration again is 200 and changes nothing', async () => {
    const before = await host.request('GET', `${deployments}/a1`);
    const r = await apply(`${deployments}/a1`, deploymentYaml('a1', 2), 'fieldManager=alice');
    expect(r.status).toBe(200);
    expect(r.body.metadata.resourceVersion).toBe(before.body.metadata.resourceVersion);
  });

  it('a change to a field another manager owns is 409 with one cause per field', async () => {
    const r = await apply(`${deployments}/a1`, deploymentYaml('a1', 3), 'fieldManager=bob');
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
        ],
      },
      code: 409,
    });
  });

  it('several conflicts are listed per field', async () => {
    const r = await apply(`${deployments}/a1`, deploymentYaml('a1', 3, 'nginx:1.26'), 'fieldManager=bob');
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.replicas\n- .spec.template.spec.containers[name="web"].image',
    );
    expect(r.body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      '.spec.replicas',
      '.spec.template.spec.containers[name="web"].image',
    ]);
  });

  it('the same value is shared; force takes a field over', async () => {
    const shared = await apply(`${deployments}/a1`, deploymentYaml('a1', 2), 'fieldManager=bob');
    expect(shared.status).toBe(200);
    expect(entryOf(shared, 'bob')?.fieldsV1).toEqual(entryOf(shared, 'alice')?.fieldsV1);
    const forced = await apply(`${deployments}/a1`, deploymentYaml('a1', 5), 'fieldManager=bob&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.spec.replicas).toBe(5);
    expect(JSON.stringify(entryOf(forced, 'alice')?.fieldsV1)).not.toContain('f:replicas');
    expect(JSON.stringify(entryOf(forced, 'bob')?.fieldsV1)).toContain('f:replicas');
  });

  it('a JSON body is a valid apply configuration', async () => {
    const r = await apply(
      `${configmaps}/json`,
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'json' }, data: { a: '1' } }),
      'fieldManager=alice',
    );
    expect(r.status).toBe(201);
    expect(entryOf(r, 'alice')?.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
  });

  it('fields no longer applied are removed, unless another manager owns them', async () => {
    const cm = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: prune\ndata:\n${data}`;
    expect(
      (await apply(`${configmaps}/prune`, cm('  a: "1"\n  b: "2"\n'), 'fieldManager=alice')).status,
    ).toBe(201);
    expect((await apply(`${configmaps}/prune`, cm('  b: "2"\n'), 'fieldManager=bob')).status).toBe(200);
    const r = await apply(`${configmaps}/prune`, cm('  c: "3"\n'), 'fieldManager=alice');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ b: '2', c: '3' });
  });

  it('unknown fields are dropped with a warning (fieldValidation=Warn) or rejected (Strict)', async () => {
    const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unk\ndata:\n  a: "1"\nbogus: 1\n';
    const warned = await apply(`${configmaps}/unk`, body, 'fieldManager=alice');
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toContain('unknown field \\"bogus\\"');
    expect(warned.body).not.toHaveProperty('bogus');
    const strict = await apply(`${configmaps}/unk`, body, 'fieldManager=alice&fieldValidation=Strict');
    expect(strict.status).toBe(400);
  });

  it('dry run answers the result and stores nothing', async () => {
    const r = await apply(
      `${configmaps}/dry`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\ndata:\n  a: "1"\n',
      'fieldManager=alice&dryRun=All',
    );
    expect(r.status).toBe(201);
    expect(entryOf(r, 'alice')?.operation).toBe('Apply');
    expect((await host.request('GET', `${configmaps}/dry`)).status).toBe(404);
  });
});

describe('apply rejections', () => {
  it('without fieldManager: 422 Invalid naming fieldManager', async () => {
    const r = await apply(`${deployments}/a1`, deploymentYaml('a1', 2), '');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: is required for apply patch',
            field: 'fieldManager',
          },
        ],
      },
      code: 422,
    });
  });

  it('a fieldManager longer than 128 bytes: 422', async () => {
    const r = await apply(`${deployments}/a1`, deploymentYaml('a1', 2), `fieldManager=${'x'.repeat(129)}`);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes',
    );
  });

  it('force on a non-apply patch: 422', async () => {
    const r = await host.request('PATCH', `${deployments}/a1?force=true`, {
      body: { spec: {} },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  });

  it('managedFields in the configuration: 400', async () => {
    const r = await apply(
      `${configmaps}/mf`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mf\n  managedFields: []\n',
      'fieldManager=alice',
    );
    expect([r.status, r.body.reason, r.body.message]).toEqual([
      400,
      'BadRequest',
      'metadata.managedFields must be nil',
    ]);
  });

  it('a configuration of another kind: 400', async () => {
    const r = await apply(
      `${deployments}/a1`,
      deploymentYaml('a1', 2).replace('kind: Deployment', 'kind: ReplicaSet'),
      'fieldManager=alice',
    );
    expect([r.status, r.body.message]).toEqual([400, 'invalid object type: apps/v1, Kind=ReplicaSet']);
  });

  it('unreadable YAML: 400', async () => {
    const r = await apply(`${configmaps}/bad`, 'apiVersion: v1\nkind: [ConfigMap\n', 'fieldManager=alice');
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^error decoding YAML: /);
  });

  it('a name that differs from the URL: 400', async () => {
    const r = await apply(
      `${configmaps}/one`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n',
      'fieldManager=alice',
    );
    expect([r.status, r.body.message]).toEqual([
      400,
      'the name of the object (two) does not match the name on the URL (one)',
    ]);
  });

  it('duplicate keys of a map list: 500 as the real server answers', async () => {
    const body = `apiVersion: v1\nkind: Service\nmetadata:\n  name: dup\nspec:\n  ports:\n  - port: 80\n  - port: 80\n`;
    const r = await apply('/api/v1/namespaces/default/services/dup', body, 'fieldManager=alice');
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'failed to create typed patch object (/dup; /v1, Kind=Service): .spec.ports: duplicate entries for key [port=80,protocol="TCP"]',
    );
  });
});

describe('managedFields of other writes', () => {
  it('create records the User-Agent prefix as an Update manager', async () => {
    const r = await host.request('POST', configmaps, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made' }, data: { a: '1' } },
      headers: { 'user-agent': 'kubectl-create/v1.27.3 (linux/amd64) kubernetes/25b4e43' },
    });
    expect(r.status).toBe(201);
    expect(entries(r)).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: expect.stringMatching(rfc3339Seconds) as unknown as string,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
      },
    ]);
  });

  it('update records fieldManager; an apply then conflicts with it, named with its apiVersion', async () => {
    const got = await host.request('GET', `${configmaps}/made`);
    const put = await host.request('PUT', `${configmaps}/made?fieldManager=editor`, {
      body: { ...got.body, data: { a: '2' } },
    });
    expect(put.status).toBe(200);
    expect(entryOf(put, 'editor')?.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
    // the creator keeps `.data` itself: a member without owned children is written `{}`
    expect(entryOf(put, 'kubectl-create')?.fieldsV1).toEqual({ 'f:data': {} });
    const r = await apply(
      `${configmaps}/made`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made\ndata:\n  a: "3"\n',
      'fieldManager=alice',
    );
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('Apply failed with 1 conflict: conflict with "editor" using v1: .data.a');
  });

  it('merge, JSON and strategic patches take ownership of what they change', async () => {
    const merge = await host.request('PATCH', `${configmaps}/made?fieldManager=merger`, {
      body: { data: { m: '1' } },
      contentType: 'application/merge-patch+json',
    });
    expect(entryOf(merge, 'merger')?.fieldsV1).toEqual({ 'f:data': { 'f:m': {} } });
    const json = await host.request('PATCH', `${configmaps}/made?fieldManager=jsonpatcher`, {
      body: [{ op: 'add', path: '/data/j', value: '1' }],
      contentType: 'application/json-patch+json',
    });
    expect(entryOf(json, 'jsonpatcher')?.fieldsV1).toEqual({ 'f:data': { 'f:j': {} } });
    const smp = await host.request('PATCH', `${configmaps}/made`, {
      body: { data: { s: '1' } },
      contentType: 'application/strategic-merge-patch+json',
      headers: { 'user-agent': 'kubectl-patch/v1.27.3' },
    });
    expect(entryOf(smp, 'kubectl-patch')?.fieldsV1).toEqual({ 'f:data': { 'f:s': {} } });
  });

  it('a status write is recorded with its subresource', async () => {
    const created = await apply(`${deployments}/st`, deploymentYaml('st', 1), 'fieldManager=alice');
    // Without a resourceVersion: the Deployment controller may have written the status since the apply.
    const { resourceVersion: _since, ...metadata } = created.body.metadata;
    const r = await host.request('PUT', `${deployments}/st/status?fieldManager=controller`, {
      // Values the controller never writes: an unchanged field would not be taken over.
      body: { ...created.body, metadata, status: { observedGeneration: 5, replicas: 7 } },
    });
    expect(r.status).toBe(200);
    expect(entryOf(r, 'controller')).toMatchObject({
      operation: 'Update',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } },
    });
    expect(entryOf(r, 'alice')?.fieldsV1).not.toHaveProperty('f:status');
  });

  it('a scale write takes spec.replicas as the scale subresource, and apply then conflicts with it', async () => {
    const scale = await host.request('GET', `${deployments}/st/scale`);
    const put = await host.request('PUT', `${deployments}/st/scale?fieldManager=scaler`, {
      body: { ...scale.body, spec: { replicas: 4 } },
    });
    expect(put.status).toBe(200);
    const got = await host.request('GET', `${deployments}/st`);
    expect(entryOf(got, 'scaler')).toMatchObject({
      operation: 'Update',
      apiVersion: 'apps/v1',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    const r = await apply(`${deployments}/st`, deploymentYaml('st', 1), 'fieldManager=alice');
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using apps/v1: .spec.replicas',
    );
  });

  it('apply through /scale owns spec.replicas as the scale subresource', async () => {
    const r = await apply(
      `${deployments}/st/scale`,
      'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: st\nspec:\n  replicas: 6\n',
      'fieldManager=hpa&force=true',
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Scale', spec: { replicas: 6 } });
    const got = await host.request('GET', `${deployments}/st`);
    expect(entryOf(got, 'hpa')).toMatchObject({
      operation: 'Apply',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    expect(entryOf(got, 'scaler')).toBeUndefined();
  });

  it('a single empty entry resets managedFields; the writer owns what it changed in the same request', async () => {
    const r = await host.request('PATCH', `${configmaps}/made?fieldManager=resetter`, {
      body: { metadata: { managedFields: [{}] }, data: { r: '1' } },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(200);
    expect(entries(r).map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['resetter', { 'f:data': { 'f:r': {} } }],
    ]);
  });

  it('an empty managedFields list does not reset', async () => {
    const r = await host.request('PATCH', `${configmaps}/made?fieldManager=other`, {
      body: { metadata: { managedFields: [] }, data: { o: '1' } },
      contentType: 'application/merge-patch+json',
    });
    expect(
      entries(r)
        .map((e) => e.manager)
        .sort(),
    ).toEqual(['other', 'resetter']);
  });
});

describe('kubectl apply --server-side', () => {
  const skip = kubectlSkipReason();
  const dir = mkdtempSync(join(tmpdir(), 'orch-apply-'));
  const file = join(dir, 'web.yaml');
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);

  it.skipIf(skip !== undefined)(
    'two managers: the second gets the conflict message, then forces',
    async () => {
      writeFileSync(file, deploymentYaml('ssa', 2));
      const alice = await k('apply', '--server-side', '--field-manager', 'alice', '-f', file);
      expect([alice.code, alice.stdout.trim()]).toEqual([0, 'deployment.apps/ssa serverside-applied']);
      writeFileSync(file, deploymentYaml('ssa', 3));
      const bob = await k('apply', '--server-side', '--field-manager', 'bob', '-f', file);
      expect(bob.code).not.toBe(0);
      expect(bob.stderr).toContain('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
      const forced = await k(
        'apply',
        '--server-side',
        '--field-manager',
        'bob',
        '--force-conflicts',
        '-f',
        file,
      );
      expect([forced.code, forced.stdout.trim()]).toEqual([0, 'deployment.apps/ssa serverside-applied']);
      const got = await host.request('GET', `${deployments}/ssa`);
      expect(got.body.spec.replicas).toBe(3);
      expect(JSON.stringify(entryOf(got, 'bob')?.fieldsV1)).toContain('f:replicas');
      expect(JSON.stringify(entryOf(got, 'alice')?.fieldsV1)).not.toContain('f:replicas');
    },
  );

  it.skipIf(skip !== undefined)(
    'after client-side apply, kubectl takes its fields over without conflict',
    async () => {
      writeFileSync(file, deploymentYaml('csa', 2));
      const csa = await k('apply', '-f', file);
      expect([csa.code, csa.stdout.trim()]).toEqual([0, 'deployment.apps/csa created']);
      writeFileSync(file, deploymentYaml('csa', 4));
      const ssa = await k('apply', '--server-side', '-f', file);
      expect([ssa.code, ssa.stdout.trim()]).toEqual([0, 'deployment.apps/csa serverside-applied']);
      const got = await host.request('GET', `${deployments}/csa`);
      expect(got.body.spec.replicas).toBe(4);
      expect(JSON.stringify(entryOf(got, 'kubectl')?.fieldsV1)).toContain('f:replicas');
      // the client-side record follows, so a later client-side apply sees the same configuration
      expect(got.body.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain(
        '"replicas":4',
      );
    },
  );

  it.skipIf(skip !== undefined)('kubectl shows managedFields as the real server records them', async () => {
    const r = await k(
      'get',
      'deployment',
      'ssa',
      '--show-managed-fields',
      '-o',
      'jsonpath={.metadata.managedFields[*].manager}',
    );
    // The Deployment controller's status writes add its own entry, as on a real cluster.
    expect(
      r.stdout
        .split(' ')
        .filter((m) => m !== 'kube-controller-manager')
        .sort(),
    ).toEqual(['alice', 'bob']);
  });
});
