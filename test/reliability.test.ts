/**
 * Regression tests of issue #10 (reliability), through HTTP against the
 * Node host: every malformed or hostile input gets a 4xx Status in the real
 * server's words — never a 500, never a change the client was not told
 * about. Paths go out verbatim (see fuzz/raw-http), since `fetch` would
 * resolve the dot segments these tests are about.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { createEstablished, crdBody, crdsPath, withSpec, type Json } from './support/crd';
import { rawRequest, rawSocket, type RawResponse } from './fuzz/raw-http';
import {
  validateConfigMapSize,
  validateEventNoteSize,
  validateSecretSize,
} from '../src/registry/validation/size-limits';
import { warningHeaderValue } from '../src/http/respond';
import { escapeDotSegments, parseRequestInfo } from '../src/http/request-info';

function expectStatus(r: RawResponse, code: number, reason?: string): Json {
  expect(r.status, r.text.slice(0, 300)).toBe(code);
  const body = r.json as Json;
  expect(body?.kind, r.text.slice(0, 300)).toBe('Status');
  expect(body.code).toBe(code);
  if (reason !== undefined) expect(body.reason).toBe(reason);
  return body;
}

/** A schema nested `depth` levels of objects under `spec`. */
function nestedSchema(depth: number): Json {
  let s: Json = { type: 'string' };
  for (let i = 0; i < depth; i++) s = { type: 'object', properties: { a: s } };
  return s;
}

describe.each(['memory', 'dexie'] as const)('reliability over HTTP (%s store)', (storage) => {
  let host: TestHost;
  const send = (method: string, path: string, body?: string, contentType = 'application/json') =>
    rawRequest(host.port, method, path, {
      body,
      headers: {
        authorization: `Bearer ${host.token}`,
        ...(body !== undefined ? { 'content-type': contentType } : {}),
      },
    });

  beforeAll(async () => {
    host = await startTestHost({ storage });
    await createEstablished(
      host,
      crdBody(withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), {
        group: 'fuzz.example.com',
      }),
    );
    await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'victim' } } });
    await host.request('POST', '/api/v1/namespaces/victim/configmaps', {
      body: { metadata: { name: 'x' }, data: { a: 'b' } },
    });
  });
  afterAll(() => host.close());

  describe('item 1: dot segments are never resolved', () => {
    const base = ['api', 'v1', 'namespaces', 'victim', 'configmaps', 'x'];
    const variants = ['.', '..', '%2e', '%2E%2e', '%2f', '.%2e', 'x/..', 'x/../..'];
    const paths: string[] = [];
    for (const v of variants) {
      for (let i = 0; i < base.length; i++) {
        const parts = [...base];
        parts[i] = v;
        paths.push(`/${parts.join('/')}`);
      }
      paths.push(`/${base.join('/')}/${v}`);
    }
    const verbs = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { a: 'changed' },
    });

    it.each(verbs)('%s with ., .., %2e, %2E%2e, %2f in every position changes nothing', async (verb) => {
      const before = await host.request('GET', '/api/v1/namespaces/victim/configmaps/x');
      for (const path of paths) {
        const r = await send(
          verb,
          path,
          verb === 'GET' || verb === 'HEAD' || verb === 'DELETE' ? undefined : body,
          verb === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
        );
        expect(r.status, `${verb} ${path}: ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${verb} ${path}`).toBeLessThan(500);
        if (verb !== 'HEAD') expect((r.json as Json | undefined)?.kind, `${verb} ${path}`).toBe('Status');
      }
      const ns = await host.request('GET', '/api/v1/namespaces/victim');
      expect(ns.body.status.phase).toBe('Active');
      expect(ns.body.metadata.deletionTimestamp).toBeUndefined();
      const after = await host.request('GET', '/api/v1/namespaces/victim/configmaps/x');
      expect(after.body.metadata.resourceVersion).toBe(before.body.metadata.resourceVersion);
      expect(after.body.data).toEqual({ a: 'b' });
    });

    it('a name `..` never addresses the namespace', async () => {
      const r = await send('GET', '/api/v1/namespaces/default/configmaps/%2e%2e');
      expect([400, 404]).toContain(r.status);
      expect((r.json as Json).kind).toBe('Status');
    });
  });

  it('item 2: a warning about a field named outside Latin-1 goes out as UTF-8 and the write succeeds', async () => {
    const r = await send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"uni"},"名前":1}',
    );
    expect(r.status, r.text).toBe(201);
    const warning = Buffer.from(String(r.headers.warning), 'latin1').toString('utf8');
    expect(warning).toBe('299 - "unknown field \\"名前\\""');
    const control = await send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ctl"},"a\\u0001b":1}',
    );
    expect(control.status, control.text).toBe(201);
    expect(control.headers.warning).toBeUndefined();
  });

  describe('item 7: type confusion is a 400 at decode (422 for a patch result)', () => {
    const cases: {
      name: string;
      method: string;
      path: string;
      body: string;
      type?: string;
      code: number;
      message: string;
    }[] = [
      {
        name: 'generateName: 123',
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":123}}',
        code: 400,
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.generateName of type string',
      },
      {
        name: 'ClusterRole name: 123',
        method: 'POST',
        path: '/apis/rbac.authorization.orch.io/v1/clusterroles',
        body: '{"metadata":{"name":123}}',
        code: 400,
        message:
          'ClusterRole in version "v1" cannot be handled as a ClusterRole: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
      },
      {
        name: 'Namespace spec: "x"',
        method: 'POST',
        path: '/api/v1/namespaces',
        body: '{"metadata":{"name":"tc"},"spec":"x"}',
        code: 400,
        message:
          'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field Namespace.spec of type v1.NamespaceSpec',
      },
      {
        name: 'metadata: 1',
        method: 'POST',
        path: '/api/v1/namespaces/default/pods',
        body: '{"metadata":1}',
        code: 400,
        message:
          'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Pod.metadata of type v1.ObjectMeta',
      },
      {
        name: 'an annotation holding an object',
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: `{"metadata":{"name":"ann","annotations":{"a":${'{"a":'.repeat(50)}1${'}'.repeat(50)}}}}`,
        code: 400,
        message:
          'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.annotations of type string',
      },
      {
        name: 'a list item of the wrong type',
        method: 'POST',
        path: '/api/v1/namespaces/default/pods',
        body: '{"metadata":{"name":"p"},"spec":{"containers":[1]}}',
        code: 400,
        message:
          'json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type v1.Container',
      },
      {
        name: 'a fraction for an int32',
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/deployments',
        body: '{"metadata":{"name":"d"},"spec":{"replicas":1.5}}',
        code: 400,
        message:
          'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
      },
      {
        name: 'apply creating a Pod with metadata: 1',
        method: 'PATCH',
        path: '/api/v1/namespaces/default/pods/applied?fieldManager=m',
        body: '{"apiVersion":"v1","kind":"Pod","metadata":1}',
        type: 'application/apply-patch+yaml',
        code: 422,
        message: 'json: cannot unmarshal number into Go struct field Pod.metadata of type v1.ObjectMeta',
      },
      {
        name: 'apply on an existing ConfigMap with metadata: 1',
        method: 'PATCH',
        path: '/api/v1/namespaces/victim/configmaps/x?fieldManager=m',
        body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":1}',
        type: 'application/apply-patch+yaml',
        code: 422,
        message:
          'json: cannot unmarshal number into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
      },
      {
        name: 'a custom resource with generateName: true (found by the fuzzer, seed 2002)',
        method: 'POST',
        path: '/apis/fuzz.example.com/v1/namespaces/default/widgets',
        body: '{"apiVersion":"fuzz.example.com/v1","kind":"Widget","metadata":{"name":"b","generateName":true}}',
        code: 400,
        message:
          'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal bool into Go struct field ObjectMeta.generateName of type string',
      },
      {
        name: 'merge patch setting generateName: 123',
        method: 'PATCH',
        path: '/api/v1/namespaces/victim/configmaps/x',
        body: '{"metadata":{"generateName":123}}',
        type: 'application/merge-patch+json',
        code: 422,
        message:
          'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.generateName of type string',
      },
    ];
    it.each(cases)('$name', async (c) => {
      const before = await host.request('GET', '/api/v1/namespaces/victim/configmaps/x');
      const r = await send(c.method, c.path, c.body, c.type);
      const status = expectStatus(r, c.code, c.code === 400 ? 'BadRequest' : 'Invalid');
      expect(status.message).toContain(c.message);
      const after = await host.request('GET', '/api/v1/namespaces/victim/configmaps/x');
      expect(after.body.metadata.resourceVersion).toBe(before.body.metadata.resourceVersion);
    });

    it('a custom resource with generateName: null is created, null being the zero value (fuzzer, memory seed 101)', async () => {
      const r = await send(
        'POST',
        '/apis/fuzz.example.com/v1/namespaces/default/widgets',
        '{"apiVersion":"fuzz.example.com/v1","kind":"Widget","metadata":{"name":"null-generate-name","generateName":null}}',
      );
      expect(r.status, r.text).toBe(201);
      expect(JSON.parse(r.text).metadata.generateName).toBeUndefined();
    });
  });

  describe('item 5: nesting depth is bounded at decode', () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    it.each([
      [
        'JSON nested 10,000 deep in an unknown field',
        'application/json',
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${deep(10_000)}}`,
        "invalid character '{' exceeded max depth",
      ],
      [
        'YAML flow nested 5,000 deep',
        'application/yaml',
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deepy\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
        'error converting YAML to JSON: yaml: exceeded max depth of',
      ],
    ])('%s', async (_name, type, body, message) => {
      const r = await send('POST', '/api/v1/namespaces/default/configmaps', body, type);
      expect(String(expectStatus(r, 400, 'BadRequest').message)).toContain(message);
    });

    it.each([3000, 1000])('a CRD schema nested %i levels is a 400, and nothing is stored', async (levels) => {
      // Spliced as text: JSON.stringify itself cannot write a value this deep.
      const schema = `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`;
      const shell = JSON.stringify(
        crdBody(withSpec({ type: 'object' }), { group: `deep${levels}.example.com` }),
      );
      const r = await send(
        'POST',
        crdsPath(),
        shell.replace('"properties":{"spec":{"type":"object"}}', `"properties":{"spec":${schema}}`),
      );
      expect(String(expectStatus(r, 400, 'BadRequest').message)).toContain('exceeded max depth');
      const list = await host.request('GET', crdsPath());
      expect(
        (list.body.items as Json[]).some(
          (i) => (i.metadata as Json).name === `widgets.deep${levels}.example.com`,
        ),
      ).toBe(false);
    });
  });

  describe('item 4: YAML aliases are bounded as go-yaml bounds them', () => {
    let laughs = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\nx:\n';
    laughs += '  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 9; i++)
      laughs += `  a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]\n`;
    it.each([
      ['POST application/yaml', 'POST', '/api/v1/namespaces/default/configmaps', 'application/yaml'],
      [
        'apply',
        'PATCH',
        '/api/v1/namespaces/default/configmaps/lol?fieldManager=m',
        'application/apply-patch+yaml',
      ],
    ])('a billion laughs on %s is a 400', async (_name, method, path, type) => {
      const r = await send(method, path, laughs, type);
      expect(String(expectStatus(r, 400, 'BadRequest').message)).toContain(
        'yaml: document contains excessive aliasing',
      );
    });
    it.each([
      [
        'an unknown anchor',
        'POST',
        '/api/v1/namespaces/default/configmaps',
        'application/yaml',
        '*x',
        "yaml: unknown anchor 'x' referenced",
      ],
      [
        'an unknown anchor',
        'PUT',
        '/api/v1/namespaces/default/configmaps/a',
        'application/yaml',
        'a: *x',
        "yaml: unknown anchor 'x' referenced",
      ],
      [
        'an anchor holding itself',
        'PATCH',
        '/api/v1/namespaces/default/configmaps/a?fieldManager=m',
        'application/apply-patch+yaml',
        'data: &d {k: *d}',
        "yaml: anchor 'd' value contains itself",
      ],
    ])('%s on %s is a 400', async (_name, method, path, type, yaml, message) => {
      const r = await send(method, path, yaml, type);
      expect(String(expectStatus(r, 400, 'BadRequest').message)).toContain(message);
    });
    it('101 aliases in a small document are fine (the limit is a ratio, not a count)', async () => {
      let yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aliases\ndata:\n  a0: &v value\n';
      for (let i = 1; i <= 101; i++) yaml += `  a${i}: *v\n`;
      const r = await send('POST', '/api/v1/namespaces/default/configmaps', yaml, 'application/yaml');
      expect(r.status, r.text.slice(0, 300)).toBe(201);
    });
  });

  it('item 12: a body over 3 MiB is 413 in the real words', async () => {
    const big = `{"metadata":{"name":"huge"},"data":{"a":"${'x'.repeat(3 * 1024 * 1024)}"}}`;
    const r = await send('POST', '/api/v1/namespaces/default/configmaps', big);
    expect(expectStatus(r, 413, 'RequestEntityTooLarge').message).toBe(
      'Request entity too large: limit is 3145728',
    );
  });

  it('item 11: OpenAPI documents answer an unacceptable Accept with a 406 Status', async () => {
    const index = await host.request('GET', '/openapi/v3');
    const gv = Object.keys(index.body.paths as Json)[0] ?? 'api/v1';
    for (const path of [`/openapi/v3/${gv}`, '/openapi/v2']) {
      const r = await rawRequest(host.port, 'GET', path, {
        headers: { accept: 'application/yaml', authorization: `Bearer ${host.token}` },
      });
      expect(String(expectStatus(r, 406, 'NotAcceptable').message)).toContain(
        'only the following media types are accepted',
      );
    }
  });

  it('item 8: a page size beyond 32 bits lists normally', async () => {
    const r = await send('GET', '/api/v1/namespaces/victim/configmaps?limit=4294967296');
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(((r.json as Json).items as Json[]).map((i) => (i.metadata as Json).name)).toContain('x');
  });

  describe('item 10: what Node refuses before the server sees it is still a Status', () => {
    const auth = () => `Authorization: Bearer ${host.token}\r\n`;
    it.each([
      [
        'a raw non-ASCII byte',
        Buffer.concat([
          Buffer.from('GET /api/v1/namespaces/default/configmaps/a'),
          Buffer.from([0xc3, 0xa9]),
          Buffer.from(' HTTP/1.1\r\n'),
        ]),
      ],
      ['a control character', Buffer.from('GET /api/v1/namespaces/default/configmaps/a\u0001b HTTP/1.1\r\n')],
    ])('%s in the path: 400 with a Status body', async (_name, line) => {
      const r = await rawSocket(
        host.port,
        Buffer.concat([line, Buffer.from(`Host: x\r\n${auth()}Connection: close\r\n\r\n`)]),
      );
      expectStatus(r, 400, 'BadRequest');
    });
    it.each([
      ['a backslash', 'a\\b'],
      ['a double quote', 'a"b'],
      ['a hash', 'a#b'],
    ])('%s in a name reaches the server as part of the name', async (_name, segment) => {
      const r = await rawSocket(
        host.port,
        `GET /api/v1/namespaces/default/configmaps/${segment} HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
      );
      const status = expectStatus(r, 404, 'NotFound');
      expect((status.details as Json).name).toBe(segment);
    });
    it('bytes after a complete request do not turn its answer into a 400 (found by the fuzzer, seed 7)', async () => {
      await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'unframed' } } });
      // A DELETE whose body has no Content-Length: the request ends at the head, the body is garbage after it.
      const r = await rawSocket(
        host.port,
        `DELETE /api/v1/namespaces/unframed HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n{"kind":"DeleteOptions"}`,
      );
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      const ns = await host.request('GET', '/api/v1/namespaces/unframed');
      expect(ns.status === 404 || ns.body.metadata.deletionTimestamp !== undefined).toBe(true);
    });
    it('headers of 100 KiB are served (the limit is 1 MiB, as in Go)', async () => {
      const r = await rawSocket(
        host.port,
        `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth()}X-Big: ${'a'.repeat(100 * 1024)}\r\nConnection: close\r\n\r\n`,
      );
      expect(r.status).toBe(200);
    });
    it('a request head over 1 MiB is 431 with a Status body', async () => {
      // The server answers while the client is still writing the rest of the head; over TLS the client's
      // failing write can occasionally discard the answer (status 0), which says nothing about the server.
      let r;
      for (let attempt = 0; attempt < 5; attempt++) {
        r = await rawSocket(
          host.port,
          `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth()}X-Big: ${'a'.repeat(1100 * 1024)}\r\nConnection: close\r\n\r\n`,
        );
        if (r.status !== 0) break;
      }
      expectStatus(r as NonNullable<typeof r>, 431);
    });
  });
});

describe.each(['orch', 'kubernetes'] as const)(
  'item 6: a deep CRD schema encodes as protobuf (%s profile)',
  (profile) => {
    let host: TestHost;
    beforeAll(async () => {
      host = await startTestHost({ profile });
    });
    afterAll(() => host.close());

    it('GET and LIST of CRDs in protobuf answer 200 with a 100-level schema', async () => {
      const { namingProfile } = await import('../src/machinery/naming');
      const p = namingProfile(profile);
      const apiGroup = p.suffixed('apiextensions');
      await createEstablished(
        host,
        crdBody(withSpec(nestedSchema(100)), { group: 'deep.example.com', apiGroup }),
        apiGroup,
      );
      const accept = { accept: p.protobufMediaType };
      const one = await host.request('GET', `${crdsPath(apiGroup)}/widgets.deep.example.com`, {
        headers: accept,
      });
      expect(one.status, one.text.slice(0, 200)).toBe(200);
      expect(one.headers.get('content-type')).toBe(p.protobufMediaType);
      const all = await host.request('GET', crdsPath(apiGroup), { headers: accept });
      expect(all.status, all.text.slice(0, 200)).toBe(200);
    });
  },
);

describe('pure checks the lead wires into kinds and dispatch', () => {
  it.each([
    [
      'ConfigMap data of 3,000,000 bytes',
      validateConfigMapSize({ data: { a: 'x'.repeat(3_000_000) } }),
      '[]: Too long: must have at most 1048576 bytes',
    ],
    [
      'ConfigMap data plus binaryData over 1 MiB',
      validateConfigMapSize({ data: { a: 'x'.repeat(600_000) }, binaryData: { b: 'A'.repeat(800_000) } }),
      '[]: Too long: must have at most 1048576 bytes',
    ],
    [
      'ConfigMap of exactly 1 MiB',
      validateConfigMapSize({ data: { a: 'x'.repeat(1024 * 1024) } }),
      undefined,
    ],
    [
      'Secret data over 1 MiB decoded',
      validateSecretSize({ data: { a: 'A'.repeat(1_400_000) } }),
      'data: Too long: must have at most 1048576 bytes',
    ],
    [
      'Secret stringData over 1 MiB',
      validateSecretSize({ stringData: { a: 'x'.repeat(1_100_000) } }),
      'data: Too long: must have at most 1048576 bytes',
    ],
    [
      'Secret of 1 MiB base64 (768 KiB decoded)',
      validateSecretSize({ data: { a: 'A'.repeat(1024 * 1024) } }),
      undefined,
    ],
    [
      'Event note over 1 KiB',
      validateEventNoteSize({ note: 'n'.repeat(1025) }),
      'note: Too long: must have at most 1024 bytes',
    ],
  ])('%s', (_name, errors, expected) => {
    const messages = errors.map((e) => `${e.field}: Too long: ${e.detail ?? ''}`);
    expect(messages).toEqual(expected === undefined ? [] : [expected]);
  });

  it('warning values: UTF-8 bytes as Latin-1 code units, control characters dropped', () => {
    expect(warningHeaderValue('plain "q"')).toBe('299 - "plain \\"q\\""');
    expect(Buffer.from(warningHeaderValue('é') ?? '', 'latin1').toString('utf8')).toBe('299 - "é"');
    expect(warningHeaderValue('a\nb')).toBeUndefined();
  });

  it.each([
    ['/api/v1/namespaces/a/configmaps/..', '..'],
    ['/api/v1/namespaces/a/configmaps/%2E%2e', '..'],
    ['/api/v1/namespaces/a/configmaps/.', '.'],
  ])('escapeDotSegments keeps %s addressing the name %s', (target, name) => {
    const info = parseRequestInfo('GET', new URL(`http://h${escapeDotSegments(target)}`));
    expect(info.isResourceRequest && info.name).toBe(name);
  });
});

// Enabled once the lead wires the exported checks (see the report of issue #10):
// `pathNameError` in dispatch after routing, the size validators in the ConfigMap and Secret strategies.
describe('after wiring: the real server answers exactly', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  it.each([
    ['/api/v1/namespaces/default/configmaps/%2e%2e', 'Name parameter invalid: "..": may not be \'..\''],
    ['/api/v1/namespaces/default/configmaps/.', 'Name parameter invalid: ".": may not be \'.\''],
    ['/api/v1/namespaces/%2e%2e', 'Name parameter invalid: "..": may not be \'..\''],
    ['/api/v1/namespaces/default/configmaps/a%25b', 'Name parameter invalid: "a%b": may not contain \'%\''],
  ])('GET %s is 400 %s', async (path, message) => {
    const r = await rawRequest(host.port, 'GET', path, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    expect(expectStatus(r, 400, 'BadRequest').message).toBe(message);
  });

  it('a ConfigMap of 3,000,000 bytes is 422', async () => {
    const r = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'big' }, data: { a: 'x'.repeat(3_000_000) } },
    });
    expect([r.status, r.body.message]).toEqual([
      422,
      'ConfigMap "big" is invalid: []: Too long: must have at most 1048576 bytes',
    ]);
  });
});
