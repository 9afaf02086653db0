/**
 * Smaller differences from a real v1.27 server, table-driven over HTTP
 * (kubernetes profile): object metadata (`as=PartialObjectMetadata[List]`)
 * for lists and single objects, ComponentStatus with its deprecation
 * warning, Node status reports validated no more strictly than the real
 * server, the messages of malformed continue tokens, and a JSON patch whose
 * `test` fails. kubectl's view of ComponentStatus closes (skipped, with the
 * reason printed, when kubectl is not installed).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const cms = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';
let host: TestHost;

const asMeta = (as: string, v = 'v1') => ({ accept: `application/json;as=${as};g=meta.k8s.io;v=${v}` });
const b64 = (text: string) => Buffer.from(text).toString('base64url');

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
  for (const name of ['a', 'b', 'c']) {
    const r = await host.request('POST', cms, { body: { metadata: { name }, data: { k: name } } });
    expect(r.status, r.text).toBe(201);
  }
});

afterAll(() => host.close());

describe('object metadata', () => {
  it.each([['v1'], ['v1beta1']])('a list as PartialObjectMetadataList (%s)', async (v) => {
    const r = await host.request('GET', `${cms}?labelSelector=`, {
      headers: asMeta('PartialObjectMetadataList', v),
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${v}` });
    expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
    const a = r.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'a');
    expect(a).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${v}` });
    expect(a.data).toBeUndefined();
  });

  it('a page of a list keeps its continue token', async () => {
    const r = await host.request('GET', `${cms}?limit=1`, { headers: asMeta('PartialObjectMetadataList') });
    expect(r.status, r.text).toBe(200);
    expect(r.body.items).toHaveLength(1);
    expect(r.body.metadata.continue).not.toBe('');
  });

  it('one object as PartialObjectMetadata', async () => {
    const r = await host.request('GET', `${cms}/a`, { headers: asMeta('PartialObjectMetadata') });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'a' },
    });
  });

  const shapes: [string, string, string, string][] = [
    [
      'PartialObjectMetadata for a list',
      cms,
      'PartialObjectMetadata',
      'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
    ],
    [
      'PartialObjectMetadata for a list of another group',
      deployments,
      'PartialObjectMetadata',
      'you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)',
    ],
    [
      'PartialObjectMetadataList for one object',
      `${cms}/a`,
      'PartialObjectMetadataList',
      'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    ],
  ];
  it.each(shapes)('%s is 406', async (_name, path, as, message) => {
    const r = await host.request('GET', path, { headers: asMeta(as) });
    expect(r.status, r.text).toBe(406);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406, message });
  });
  // A write whose answer cannot take the shape asked for is refused before anything is written (decision 0065).
  const cm = (name: string, v: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { v },
  });
  const writes: { name: string; method: string; path: string; body?: unknown; contentType?: string }[] = [
    { name: 'a create', method: 'POST', path: cms, body: cm('meta-write', '1') },
    { name: 'an update', method: 'PUT', path: `${cms}/a`, body: cm('a', 'changed') },
    {
      name: 'a patch',
      method: 'PATCH',
      path: `${cms}/a`,
      body: { data: { v: 'patched' } },
      contentType: 'application/merge-patch+json',
    },
    {
      name: 'an apply',
      method: 'PATCH',
      path: `${cms}/applied?fieldManager=m`,
      body: cm('applied', '1'),
      contentType: 'application/apply-patch+yaml',
    },
  ];
  it.each(writes)('$name answered as PartialObjectMetadataList is 406 and writes nothing', async (w) => {
    const before = await host.request('GET', cms);
    const r = await host.request(w.method, w.path, {
      body: w.body,
      headers: asMeta('PartialObjectMetadataList'),
      ...(w.contentType === undefined ? {} : { contentType: w.contentType }),
    });
    expect(r.status, r.text).toBe(406);
    expect(r.body.message).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    );
    const after = await host.request('GET', cms);
    const versions = (list: { items: { metadata: { name: string; resourceVersion: string } }[] }) =>
      list.items.map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
    expect(versions(after.body)).toEqual(versions(before.body));
  });
});

describe('ComponentStatus', () => {
  const warning = '299 - "v1 ComponentStatus is deprecated in v1.19+"';

  it('lists the scheduler, the controller manager and the store, with the deprecation warning', async () => {
    const r = await host.request('GET', '/api/v1/componentstatuses');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('warning')).toBe(warning);
    expect(r.body.kind).toBe('ComponentStatusList');
    const byName = new Map<string, { conditions: unknown[] }>(
      r.body.items.map((i: { metadata: { name: string }; conditions: unknown[] }) => [i.metadata.name, i]),
    );
    expect([...byName.keys()].sort()).toEqual(['controller-manager', 'etcd-0', 'scheduler']);
    expect(byName.get('etcd-0')?.conditions).toEqual([
      { type: 'Healthy', status: 'True', message: '{"health":"true","reason":""}' },
    ]);
    expect(byName.get('scheduler')?.conditions).toEqual([
      {
        type: 'Healthy',
        status: 'False',
        message:
          'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused',
      },
    ]);
  });

  const rows: [string, string, number, string | undefined][] = [
    ['/api/v1/componentstatuses/controller-manager', 'controller-manager', 200, undefined],
    ['/api/v1/componentstatuses/etcd-0', 'etcd-0', 200, undefined],
    ['/api/v1/componentstatuses/nope', 'nope', 500, 'Component not found: nope'],
    ['/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0', 'etcd-0', 200, undefined],
  ];
  it.each(rows)('GET %s', async (path, name, status, message) => {
    const r = await host.request('GET', path);
    expect(r.status, r.text).toBe(status);
    expect(r.headers.get('warning')).toBe(warning);
    if (message !== undefined) {
      expect(r.body).toMatchObject({ kind: 'Status', code: 500, message });
      expect(r.body.reason).toBeUndefined();
    } else if (r.body.kind === 'ComponentStatusList') {
      expect(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([name]);
    } else expect(r.body).toMatchObject({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name } });
  });

  it('cannot be written', async () => {
    const r = await host.request('POST', '/api/v1/componentstatuses', { body: { metadata: { name: 'x' } } });
    expect(r.status).toBe(405);
  });
});

describe('Node status reports', () => {
  it('a Node with partial or empty nodeInfo is accepted on create, update and status', async () => {
    const created = await host.request('POST', '/api/v1/nodes', {
      body: { metadata: { name: 'n1' }, status: { nodeInfo: { kubeletVersion: 'v1.27.3' } } },
    });
    expect(created.status, created.text).toBe(201);
    const status = await host.request('PUT', '/api/v1/nodes/n1/status', {
      body: {
        ...created.body,
        status: {
          nodeInfo: { machineID: '', architecture: 'amd64' },
          addresses: [{ type: 'InternalIP' }],
          conditions: [{ type: 'Ready' }],
          daemonEndpoints: { kubeletEndpoint: {} },
        },
      },
    });
    expect(status.status, status.text).toBe(200);
    expect(status.body.status.nodeInfo).toMatchObject({ architecture: 'amd64' });
    const empty = await host.request('POST', '/api/v1/nodes', {
      body: { metadata: { name: 'n2' }, status: { nodeInfo: {} } },
    });
    expect(empty.status, empty.text).toBe(201);
  });
});

describe('malformed continue tokens', () => {
  const v = 'meta.k8s.io/v1';
  const rows: [string, string, string][] = [
    ['not base64', '!!', 'illegal base64 data at input byte 0'],
    ['padded base64', 'YQ==', 'illegal base64 data at input byte 2'],
    ['a lone trailing character', 'abcde', 'illegal base64 data at input byte 4'],
    ['not JSON', b64('x'), "invalid character 'x' looking for beginning of value"],
    ['truncated JSON', b64('{"v":'), 'unexpected end of JSON input'],
    [
      'JSON that is no object',
      b64('[1]'),
      'json: cannot unmarshal array into Go value of type storage.continueToken',
    ],
    [
      'a resource version that is no number',
      b64(JSON.stringify({ v, rv: '5', start: 'a' })),
      'json: cannot unmarshal string into Go struct field continueToken.rv of type int64',
    ],
    [
      'an unknown version',
      b64(JSON.stringify({ v: 'v9', rv: 5, start: 'a' })),
      'server does not recognize this encoded version',
    ],
    [
      'no resource version',
      b64(JSON.stringify({ v, start: 'a' })),
      'incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    ],
    ['no start key', b64(JSON.stringify({ v, rv: 5 })), 'encoded start key empty (version meta.k8s.io/v1)'],
    ['a start key that climbs out', b64(JSON.stringify({ v, rv: 5, start: '../secrets/x' })), '../secrets/x'],
    [
      'a well-formed token the server did not issue',
      b64(JSON.stringify({ v, rv: 5, start: 'a\u0000' })),
      'it was not issued by this server for this collection',
    ],
  ];

  it.each(rows)('%s is 400 with the real message', async (_name, token, why) => {
    const r = await host.request('GET', `${cms}?limit=1&continue=${encodeURIComponent(token)}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: `invalid continue token: continue key is not valid: ${why}`,
    });
  });

  it('an issued token has the real shape and pages on', async () => {
    const first = await host.request('GET', `${cms}?limit=1`);
    const token: string = first.body.metadata.continue;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString());
    expect(decoded).toMatchObject({
      v,
      rv: Number(first.body.metadata.resourceVersion),
      start: `${first.body.items[0].metadata.name}\u0000`,
    });
    const next = await host.request('GET', `${cms}?limit=1&continue=${token}`);
    expect(next.status, next.text).toBe(200);
    expect(next.body.items[0].metadata.name > first.body.items[0].metadata.name).toBe(true);
  });
});

describe('a JSON patch that does not apply', () => {
  const rows: [string, unknown[]][] = [
    ['a failed test', [{ op: 'test', path: '/data/k', value: 'not-a' }]],
    ['a test of a missing path', [{ op: 'test', path: '/data/missing', value: 'x' }]],
    ['removing a missing path', [{ op: 'remove', path: '/data/missing' }]],
  ];
  it.each(rows)('%s is 422 with the generic message and no causes', async (_name, patch) => {
    const r = await host.request('PATCH', `${cms}/a`, {
      body: patch,
      contentType: 'application/json-patch+json',
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
    const after = await host.request('GET', `${cms}/a`);
    expect(after.body.data).toEqual({ k: 'a' });
  });
});

const skip = kubectlSkipReason();
if (skip !== undefined) console.log(`SKIP kubectl part of fidelity-small: ${skip}`);
describe.skipIf(skip !== undefined)('kubectl', () => {
  it('get componentstatuses warns and shows each component', async () => {
    const r = await kubectl(host.kubeconfigPath, ['get', 'componentstatuses']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
    expect(r.stdout).toMatch(/^NAME\s+STATUS\s+MESSAGE\s+ERROR/);
    expect(r.stdout).toMatch(/\netcd-0\s+Healthy\s+\{"health":"true","reason":""\}/);
    expect(r.stdout).toMatch(/\nscheduler\s+Unhealthy\s+Get "https:\/\/127\.0\.0\.1:10259\/healthz"/);
  });
});
