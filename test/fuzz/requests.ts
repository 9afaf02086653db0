/**
 * What the HTTP fuzzer sends, as fast-check arbitraries: a method, a path
 * built from real routes with hostile segments spliced in (dot segments,
 * escapes, unknown resources, overlong and non-ASCII names), query
 * parameters the server reads (and garbage), Accept and Content-Type
 * headers, and a body in the format the content type names — valid objects
 * of a few kinds mutated field by field, deep and aliased documents, every
 * patch type, protobuf envelopes, CRDs with hostile schemas and CEL rules.
 * Everything is derived from the seed: a run is reproducible.
 */

import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { protobufCodec } from '../../src/http/protobuf/codec';
import { namingProfile, type ProfileName } from '../../src/machinery/naming';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** What the request addresses, for the no-change check: `namespace/name` or `name`. */
  target?: string;
}

type Json = Record<string, unknown>;

/** The namespace the fuzzer's objects live in (created before the run). */
export const fuzzNamespace = 'fuzz';
/** The group of the fuzzer's own CRD. */
export const fuzzGroup = 'fuzz.example.com';

const names = [
  'a',
  'b',
  'x',
  'victim',
  'kube-system',
  'default',
  fuzzNamespace,
  'Upper',
  'a.b',
  'a-b',
  '名前',
  'a'.repeat(254),
];
const hostileSegments = [
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '.%2e',
  '%2f',
  '%00',
  '%',
  '%zz',
  '%25',
  '%20',
  'a%2fb',
  'a\\b',
  'a"b',
  'a#b',
  '~',
  '%E5%90%8D',
];

function resources(profile: ProfileName): { prefix: string; resource: string; namespaced: boolean }[] {
  const p = namingProfile(profile);
  return [
    { prefix: '/api/v1', resource: 'configmaps', namespaced: true },
    { prefix: '/api/v1', resource: 'secrets', namespaced: true },
    { prefix: '/api/v1', resource: 'pods', namespaced: true },
    { prefix: '/api/v1', resource: 'services', namespaced: true },
    { prefix: '/api/v1', resource: 'namespaces', namespaced: false },
    { prefix: '/apis/apps/v1', resource: 'deployments', namespaced: true },
    { prefix: `/apis/${p.suffixed('rbac.authorization')}/v1`, resource: 'clusterroles', namespaced: false },
    {
      prefix: `/apis/${p.suffixed('apiextensions')}/v1`,
      resource: 'customresourcedefinitions',
      namespaced: false,
    },
    { prefix: `/apis/${fuzzGroup}/v1`, resource: 'widgets', namespaced: true },
    { prefix: '/api/v1', resource: 'nosuchthings', namespaced: true },
  ];
}

const nonResourcePaths = [
  '/',
  '/api',
  '/apis',
  '/api/v1',
  '/apis/apps',
  '/apis/apps/v1',
  '/version',
  '/healthz',
  '/livez',
  '/readyz',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/api/v1',
  '/metrics',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
  '/nope',
];
const subresources = ['', '', '', '', '', '', 'status', 'scale', 'finalize', 'nosuch'];

/** A path: a real route, sometimes with one segment replaced or added by a hostile one. */
type Route = ReturnType<typeof resources>[number];

function pathArb(route: Route, collection: boolean): fc.Arbitrary<{ path: string; target?: string }> {
  const routed = fc
    .record({
      r: fc.constant(route),
      ns: fc.oneof(
        { weight: 8, arbitrary: fc.constant(fuzzNamespace) },
        { weight: 1, arbitrary: fc.constantFrom('default', 'missing', ...names) },
      ),
      // POST names the object in its body: mostly a collection path; other verbs mostly a named one.
      name: fc.option(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'x', 'new') },
          { weight: 1, arbitrary: fc.constantFrom(...names) },
        ),
        { nil: undefined, freq: collection ? 1 : 4 },
      ),
      sub: fc.constantFrom(...subresources),
      allNamespaces: fc.boolean(),
    })
    .map(({ r, ns, name, sub, allNamespaces }) => {
      const scope =
        r.namespaced && !(allNamespaces && name === undefined) ? `/namespaces/${encodeURIComponent(ns)}` : '';
      const named = name === undefined ? '' : `/${encodeURIComponent(name)}${sub === '' ? '' : `/${sub}`}`;
      const target =
        name === undefined
          ? undefined
          : r.namespaced
            ? `${ns}/${name}`
            : r.resource === 'namespaces'
              ? name
              : name;
      return { path: `${r.prefix}${scope}/${r.resource}${named}`, target };
    });
  const spliced = fc
    .record({
      base: routed,
      segment: fc.constantFrom(...hostileSegments),
      at: fc.nat(),
      append: fc.boolean(),
    })
    .map(({ base, segment, at, append }) => {
      const parts = base.path.split('/');
      if (append) parts.push(segment);
      else parts[1 + (at % (parts.length - 1))] = segment;
      return { path: parts.join('/'), target: base.target };
    });
  return fc.oneof(
    { weight: 10, arbitrary: routed },
    { weight: 2, arbitrary: spliced },
    { weight: 1, arbitrary: fc.constantFrom(...nonResourcePaths).map((path) => ({ path })) },
  );
}

const queryValues: Record<string, string[]> = {
  limit: ['1', '2', '0', '-1', '500', '4294967296', '1e3', 'abc', '99999999999999999999'],
  continue: ['', 'abc', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJhIn0', '%%'],
  resourceVersion: ['', '0', '1', '2', 'abc', '-1', '1.5'],
  resourceVersionMatch: ['', 'Exact', 'NotOlderThan', 'bogus'],
  labelSelector: ['', 'a=b', 'a in (x,y)', '!a', 'a=', '=b', '((', 'a==b,c!=d', 'a'.repeat(70)],
  fieldSelector: ['', 'metadata.name=a', 'metadata.namespace!=x', 'spec.nope=1', 'a', '=='],
  fieldValidation: ['', 'Strict', 'Warn', 'Ignore', 'strict', 'Bogus'],
  dryRun: ['', 'All', 'all', 'x'],
  fieldManager: ['fuzz', '', 'fuzz-other', 'a'.repeat(200), '名前'],
  force: ['true', 'false', 'x'],
  pretty: ['true', '1', 'false'],
  propagationPolicy: ['Orphan', 'Background', 'Foreground', 'Bogus'],
  gracePeriodSeconds: ['0', '1', '-1', 'x', '99999999999'],
  timeoutSeconds: ['1', '-1', 'x'],
  allowWatchBookmarks: ['true', 'x'],
  sendInitialEvents: ['true', 'false'],
  orphanDependents: ['true', 'false'],
  includeObject: ['None', 'Metadata', 'Object', 'x'],
  hash: ['', 'ABC'],
};

/**
 * Query parameters. Never `watch` (a watch streams until it times out) and
 * never a resourceVersion far ahead unless asked (each waits 3 s before 504).
 */
function queryArb(withFutureVersions: boolean): fc.Arbitrary<string> {
  const keys = Object.keys(queryValues);
  const pair = fc
    .constantFrom(...keys)
    .chain((k) => fc.constantFrom(...(queryValues[k] ?? [''])).map((v) => `${k}=${encodeURIComponent(v)}`));
  const future = fc.constant('resourceVersion=99999999');
  const garbage = fc.constantFrom('a', '=', '&&', 'x=%zz', 'limit=1&limit=2', 'fieldManager');
  const item = withFutureVersions
    ? fc.oneof(
        { weight: 40, arbitrary: pair },
        { weight: 4, arbitrary: garbage },
        { weight: 1, arbitrary: future },
      )
    : fc.oneof({ weight: 10, arbitrary: pair }, { weight: 1, arbitrary: garbage });
  return fc.array(item, { maxLength: 3 }).map((items) => (items.length === 0 ? '' : `?${items.join('&')}`));
}

function mediaTypes(profile: ProfileName): { accept: string[]; content: string[] } {
  const p = namingProfile(profile);
  const table = `application/json;as=Table;v=v1;g=${p.suffixed('meta')}`;
  return {
    accept: [
      '',
      'application/json',
      'application/yaml',
      p.protobufMediaType,
      table,
      `${table}, application/json`,
      'text/html',
      '*/*',
      'application/json;as=PartialObjectMetadataList;v=v1;g=' + p.suffixed('meta'),
      'garbage/;;',
      'application/vnd.kubernetes.protobuf;stream=watch',
    ],
    content: [
      'application/json',
      'application/yaml',
      p.protobufMediaType,
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/json-patch+json',
      'application/apply-patch+yaml',
      'text/plain',
      '',
      'application/json; charset=latin1',
      'garbage',
    ],
  };
}

const jsonLeaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    '',
    'a',
    '名前',
    '..',
    'a\u0000b',
    'x'.repeat(300),
    '1Gi',
    '-1',
    '2024-01-01T00:00:00Z',
    '{',
    '\\',
  ),
  fc.string({ maxLength: 8 }),
);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('a', 'name', 'metadata', 'spec', 'data', 'items', '名前', '$patch', '$retainKeys'),
      tie('v'),
      { maxKeys: 3 },
    ),
  ),
})).v;

function templates(profile: ProfileName): Record<string, Json> {
  const p = namingProfile(profile);
  const container = {
    name: 'c',
    image: 'nginx',
    ports: [{ containerPort: 80 }],
    resources: { limits: { cpu: '1' } },
  };
  return {
    configmaps: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', labels: { a: 'b' } },
      data: { k: 'v' },
    },
    secrets: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'a' },
      data: { k: 'dg==' },
      stringData: { s: 'x' },
    },
    pods: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [container] } },
    services: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { ports: [{ port: 80 }] } },
    namespaces: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } },
    deployments: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'a' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container] } },
      },
    },
    clusterroles: {
      apiVersion: `${p.suffixed('rbac.authorization')}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'a' },
      rules: [{ verbs: ['get'], resources: ['pods'], apiGroups: [''] }],
    },
    widgets: {
      apiVersion: `${fuzzGroup}/v1`,
      kind: 'Widget',
      metadata: { name: 'a' },
      spec: { size: 1, name: 'n', tags: ['a'], extra: { any: 1 } },
    },
  };
}

/** Sets `value` at a path of keys inside a copy of `obj` (creating objects on the way). */
function setPath(obj: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(obj);
  let at: Json = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[key] = {};
    at = at[key] as Json;
  }
  const last = path[path.length - 1];
  if (last !== undefined) at[last] = value;
  return copy;
}

const fieldPaths = [
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
  ['metadata', 'labels'],
  ['metadata', 'labels', 'a'],
  ['metadata', 'annotations'],
  ['metadata', 'finalizers'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'managedFields'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'uid'],
  ['metadata', 'deletionTimestamp'],
  ['spec'],
  ['spec', 'replicas'],
  ['spec', 'containers'],
  ['spec', 'size'],
  ['spec', 'tags'],
  ['data'],
  ['data', 'k'],
  ['stringData'],
  ['rules'],
  ['status'],
  ['kind'],
  ['apiVersion'],
  ['名前'],
  ['unknown'],
];

/** An object of some kind, valid or with one or two fields replaced by arbitrary JSON. */
function objectArb(profile: ProfileName, resource?: string): fc.Arbitrary<Json> {
  const all = templates(profile);
  const own = resource === undefined ? undefined : all[resource];
  const any = fc.constantFrom(...Object.values(all));
  const base =
    own === undefined
      ? any
      : fc.oneof({ weight: 6, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: any });
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'x', 'new', 'n1', 'n2') },
    { weight: 1, arbitrary: fc.constantFrom(...names) },
  );
  const named = fc
    .record({ obj: base, name })
    .map(({ obj, name: n }) => setPath(obj, ['metadata', 'name'], n));
  const mutated = fc
    .record({
      obj: named,
      edits: fc.array(fc.record({ path: fc.constantFrom(...fieldPaths), value: jsonValue }), {
        maxLength: 2,
      }),
    })
    .map(({ obj, edits }) => edits.reduce((o, e) => setPath(o, e.path, e.value), obj));
  return fc.oneof({ weight: 4, arbitrary: named }, { weight: 3, arbitrary: mutated });
}

/** A CRD for the fuzzer's group (or another), with a schema that may be deep, odd or carry costly CEL. */
function crdArb(profile: ProfileName): fc.Arbitrary<Json> {
  const p = namingProfile(profile);
  const rules = [
    'self.size > 0',
    'self.size < 10',
    'self.name.matches("^[a-z]+$")',
    'self.tags.all(t, t.size() < 5)',
    'self.tags.map(t, self.tags.map(u, t + u)).size() < 100',
    'oldSelf == self',
    'self.nope',
    '1 +',
    'size(self.tags) == 1 ? true : false',
    '"a".repeat(1000000) == ""',
  ];
  const leaf = fc.constantFrom<Json>(
    { type: 'string' },
    { type: 'integer' },
    { type: 'string', pattern: '^(a+)+$' },
    { type: 'string', maxLength: 3 },
    { type: 'number', minimum: 0 },
    { 'x-kubernetes-int-or-string': true },
    { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    { type: 'bogus' },
    {},
  );
  const schema = fc
    .record({
      leaf,
      depth: fc.constantFrom(0, 1, 3, 20, 120, 600),
      rule: fc.option(fc.constantFrom(...rules), { nil: undefined }),
    })
    .map(({ leaf: l, depth, rule }) => {
      let s: Json = l;
      for (let i = 0; i < depth; i++) s = { type: 'object', properties: { n: s } };
      const spec: Json = {
        type: 'object',
        properties: {
          size: { type: 'integer' },
          name: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          deep: s,
        },
      };
      if (rule !== undefined) spec['x-kubernetes-validations'] = [{ rule }];
      return spec;
    });
  return fc
    .record({
      spec: schema,
      plural: fc.constantFrom('widgets', 'gadgets', 'Bad', ''),
      scope: fc.constantFrom('Namespaced', 'Cluster', 'Bogus'),
    })
    .map(({ spec, plural, scope }) => ({
      apiVersion: `${p.suffixed('apiextensions')}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${fuzzGroup}` },
      spec: {
        group: fuzzGroup,
        scope,
        names: { plural, kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
          },
        ],
      },
    }));
}

/** YAML text of a value; JSON text (YAML too) when the value is too deep for the YAML writer. */
function yamlText(value: unknown): string {
  try {
    return toYaml(value);
  } catch {
    return JSON.stringify(value);
  }
}

/** JSON text nested `n` levels, spliced as text (JSON.stringify cannot write it). */
function deepText(n: number): string {
  return `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
}

function yamlLaughs(levels: number): string {
  let y = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  a0: &a0 [x,x,x,x,x,x,x,x,x]\n';
  for (let i = 1; i < levels; i++)
    y += `  a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(',')}]\n`;
  return y;
}

const jsonPatchArb = fc.array(
  fc.record(
    {
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
      path: fc.constantFrom(
        '/metadata/labels/a',
        '/metadata/name',
        '/metadata',
        '/spec/replicas',
        '/data/k',
        '/data',
        '/spec/containers/0',
        '/spec/containers/-',
        '',
        '/a~1b',
        '/metadata/generateName',
        '/spec/deep/n/n',
      ),
      value: jsonValue,
      from: fc.constantFrom('/metadata/labels', '/data/k', '/nope'),
    },
    { requiredKeys: ['op', 'path'] },
  ),
  { maxLength: 3 },
);

/** The body for a content type: mostly what the type names, sometimes anything at all. */
function bodyArb(
  profile: ProfileName,
  contentType: string,
  resource: string,
): fc.Arbitrary<string | Uint8Array | undefined> {
  const obj = objectArb(profile, resource);
  const codec = protobufCodec(namingProfile(profile));
  const hostile = fc.oneof(
    fc.constant(''),
    fc.constantFrom(
      '{',
      '[1,2]',
      'null',
      '"x"',
      '{"a":1,"a":2}',
      '{"metadata":{"name":"a","name":"b"}}',
      '\u0000',
      'a: b: c',
      '---\n---',
      '- a\n- b',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u"},"名前":1}',
    ),
    fc
      .constantFrom(900, 1001, 10_001)
      .map((n) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${deepText(n)}}`),
    fc.constantFrom(3, 9).map(yamlLaughs),
    fc.uint8Array({ maxLength: 64 }),
    fc.string({ maxLength: 40 }),
  );
  let typed: fc.Arbitrary<string | Uint8Array | undefined>;
  if (contentType.includes('json-patch')) typed = jsonPatchArb.map((ops) => JSON.stringify(ops));
  else if (contentType.includes('merge-patch'))
    typed = fc.oneof(obj, jsonValue).map((v) => JSON.stringify(v) ?? 'null');
  else if (contentType.includes('yaml')) typed = fc.oneof(obj, crdArb(profile)).map(yamlText);
  else if (contentType.includes('protobuf'))
    typed = obj.map((o) => {
      try {
        return codec.encode(o) ?? new Uint8Array([0x6b, 0x38, 0x73, 0x00, 1, 2, 3]);
      } catch {
        return new Uint8Array([0x6b, 0x38, 0x73, 0x00]);
      }
    });
  else if (resource === 'customresourcedefinitions') typed = crdArb(profile).map((o) => JSON.stringify(o));
  else
    typed = fc
      .oneof({ weight: 8, arbitrary: obj }, { weight: 1, arbitrary: crdArb(profile) })
      .map((o) => JSON.stringify(o));
  return fc.oneof(
    { weight: 12, arbitrary: typed },
    { weight: 1, arbitrary: hostile },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

export interface RequestOptions {
  profile: ProfileName;
  /** Include reads at a resourceVersion far ahead (each waits for the 504). */
  futureVersions?: boolean;
}

/** One fuzz request. */
export function requestArb(options: RequestOptions): fc.Arbitrary<FuzzRequest> {
  const { profile } = options;
  const media = mediaTypes(profile);
  const nonResource = fc.constantFrom(...nonResourcePaths).map((path) => ({ path, resource: '' }));
  const routed = (method: string) =>
    fc
      .constantFrom(...resources(profile))
      .chain((route) => pathArb(route, method === 'POST').map((p) => ({ ...p, resource: route.resource })));
  const contentFor = (method: string) =>
    method === 'PATCH'
      ? fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...media.content.filter((c) => c.includes('patch'))) },
          { weight: 1, arbitrary: fc.constantFrom(...media.content) },
        )
      : fc.oneof(
          {
            weight: 8,
            arbitrary: fc.constantFrom(
              'application/json',
              'application/yaml',
              namingProfile(profile).protobufMediaType,
            ),
          },
          { weight: 1, arbitrary: fc.constantFrom(...media.content) },
        );
  const method = fc.oneof(
    {
      weight: 20,
      arbitrary: fc.constantFrom(
        'GET',
        'GET',
        'POST',
        'POST',
        'POST',
        'PUT',
        'PUT',
        'PATCH',
        'PATCH',
        'PATCH',
        'DELETE',
        'HEAD',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('OPTIONS', 'BREW') },
  );
  // Hostile credentials and impersonation headers now and then; the runner sends the admin token otherwise.
  const jwtish = fc
    .tuple(
      fc.base64String({ maxLength: 40 }),
      fc.base64String({ maxLength: 80 }),
      fc.base64String({ maxLength: 40 }),
    )
    .map(([a, b, c]) => `${a}.${b}.${c}`.replace(/=/g, ''));
  const authorization = fc.oneof(
    fc.constant('Bearer'),
    fc.constant('Bearer  x'),
    fc.constant('Basic YWRtaW46YWRtaW4='),
    fc.constant('Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'),
    jwtish.map((t) => `Bearer ${t}`),
    fc.string({ minLength: 1, maxLength: 60 }).map((t) => `Bearer ${t.replace(/[^\x21-\x7e]/g, 'x')}`),
    fc.constant(`Bearer ${'a'.repeat(5000)}`),
    fc.constant('Bearer abcdef.0123456789abcdef'),
  );
  const impersonation = fc.record(
    {
      'impersonate-user': fc.constantFrom(
        'alice',
        'system:anonymous',
        'system:serviceaccount:default:x',
        '',
        'system:serviceaccount:bad',
      ),
      'impersonate-group': fc.constantFrom('system:masters', 'devs', ''),
      'impersonate-uid': fc.constantFrom('1234', ''),
      'impersonate-extra-scopes%2Fx': fc.constantFrom('a', '%zz', ''),
    },
    { requiredKeys: [] },
  );
  const credentials = fc.oneof(
    { weight: 8, arbitrary: fc.constant({} as Record<string, string>) },
    { weight: 1, arbitrary: authorization.map((a) => ({ authorization: a })) },
    { weight: 1, arbitrary: impersonation.map((h) => h as Record<string, string>) },
  );
  return method
    .chain((m) =>
      fc.record({
        credentials,
        method: fc.constant(m),
        path: fc.oneof({ weight: 12, arbitrary: routed(m) }, { weight: 1, arbitrary: nonResource }),
        query: queryArb(options.futureVersions === true),
        accept: fc.oneof(
          { weight: 3, arbitrary: fc.constant('application/json') },
          { weight: 2, arbitrary: fc.constantFrom(...media.accept) },
        ),
      }),
    )
    .chain(({ credentials, method, path, query, accept }) =>
      contentFor(method).chain((contentType) =>
        bodyArb(profile, contentType, path.resource).map((body) => {
          const headers: Record<string, string> = { 'user-agent': 'orch-fuzz/1.0', ...credentials };
          if (accept !== '') headers.accept = accept;
          if (body !== undefined && method !== 'GET' && method !== 'HEAD' && contentType !== '')
            headers['content-type'] = contentType;
          return {
            method,
            path: path.path + query,
            headers,
            body: method === 'GET' || method === 'HEAD' ? undefined : body,
            target: 'target' in path ? path.target : undefined,
          };
        }),
      ),
    );
}

/** The objects and the CRD a run starts from. */
export function seedObjects(profile: ProfileName): { path: string; body: Json }[] {
  const all = templates(profile);
  const p = namingProfile(profile);
  const out: { path: string; body: Json }[] = [
    { path: '/api/v1/namespaces', body: { metadata: { name: fuzzNamespace } } },
    { path: '/api/v1/namespaces', body: { metadata: { name: 'victim' } } },
  ];
  for (const name of ['a', 'b', 'x']) {
    for (const [resource, template] of Object.entries(all)) {
      if (resource === 'widgets' || resource === 'namespaces') continue;
      const prefix =
        resource === 'deployments'
          ? '/apis/apps/v1'
          : resource === 'clusterroles'
            ? `/apis/${p.suffixed('rbac.authorization')}/v1`
            : '/api/v1';
      const scope = resource === 'clusterroles' ? '' : `/namespaces/${fuzzNamespace}`;
      out.push({
        path: `${prefix}${scope}/${resource}`,
        body: setPath(template, ['metadata', 'name'], `${name}`),
      });
    }
  }
  return out;
}

/** The fuzzer's own CRD, with a CEL rule and an open field. */
export function seedCrd(profile: ProfileName): Json {
  const p = namingProfile(profile);
  return {
    apiVersion: `${p.suffixed('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${fuzzGroup}` },
    spec: {
      group: fuzzGroup,
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
          },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': [{ rule: 'self.size <= 10', message: 'too big' }],
                  properties: {
                    size: { type: 'integer' },
                    name: { type: 'string', maxLength: 20 },
                    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
                status: { type: 'object', properties: { size: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  };
}
