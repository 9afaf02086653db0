/**
 * Objects shaped as the real server's Go encoder writes them: the field
 * orders observed on a real v1.28 server (issue 31), the zero values Go
 * writes, custom resources sorted at every depth, embedded objects shaped
 * by their own kind, in both naming profiles.
 */

import { describe, expect, it } from 'vitest';
import { PROFILES, type ProfileName } from '../../machinery/naming';
import { builtInDefinitions } from '../builtins';
import { goFieldOrder } from '../go-field-order';
import { runNow } from '../../machinery/cooperative';
import { rememberWide } from '../../machinery/json';
import { jsonTextWork } from '../../machinery/json-text';
import { goJsonFor, goOrderFor, sortedDeep } from './go-json';

type Obj = Record<string, unknown>;

/** The keys of the object at `path` (dotted, numbers index lists) in the order they would be written. */
function keysAt(value: unknown, path = ''): string[] {
  let v = value;
  for (const part of path === '' ? [] : path.split('.'))
    v = (v as Obj)[/^\d+$/.test(part) ? Number(part) : part];
  return Object.keys(v as Obj);
}

const template = {
  metadata: { labels: { app: 'x' } },
  spec: {
    schedulerName: 'default-scheduler',
    securityContext: {},
    dnsPolicy: 'ClusterFirst',
    terminationGracePeriodSeconds: 30,
    restartPolicy: 'Always',
    containers: [
      {
        imagePullPolicy: 'Always',
        terminationMessagePolicy: 'File',
        terminationMessagePath: '/dev/termination-log',
        resources: {},
        image: 'nginx',
        name: 'c',
      },
    ],
  },
};

const meta = {
  managedFields: [
    {
      fieldsV1: { 'f:data': {} },
      fieldsType: 'FieldsV1',
      time: '2024-01-01T00:00:00Z',
      apiVersion: 'v1',
      operation: 'Update',
      manager: 'kubectl',
    },
  ],
  creationTimestamp: '2024-01-01T00:00:00Z',
  uid: 'u',
  namespace: 'default',
  name: 'n',
  resourceVersion: '7',
};

describe.each<ProfileName>(['kubernetes', 'orch'])('Go JSON (%s profile)', (name) => {
  const profile = PROFILES[name];
  const g = goJsonFor(profile);
  const rbac = profile.suffixed('rbac.authorization');

  it('writes the field orders a real server writes', () => {
    const cm = g.shape({ data: { b: '1', a: '2' }, metadata: meta, apiVersion: 'v1', kind: 'ConfigMap' });
    expect(keysAt(cm)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    expect(keysAt(cm, 'metadata')).toEqual([
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'managedFields',
    ]);
    expect(keysAt(cm, 'metadata.managedFields.0')).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
    ]);
    // Go sorts map keys.
    expect(keysAt(cm, 'data')).toEqual(['a', 'b']);

    const svc = g.shape({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 's' },
      spec: {
        internalTrafficPolicy: 'Cluster',
        ipFamilyPolicy: 'SingleStack',
        ipFamilies: ['IPv4'],
        sessionAffinity: 'None',
        type: 'ClusterIP',
        clusterIPs: ['10.0.0.9'],
        clusterIP: '10.0.0.9',
        selector: { app: 'x' },
        ports: [{ targetPort: 80, port: 80, protocol: 'TCP', name: 'http' }],
      },
    });
    expect(keysAt(svc, 'spec')).toEqual([
      'ports',
      'selector',
      'clusterIP',
      'clusterIPs',
      'type',
      'sessionAffinity',
      'ipFamilies',
      'ipFamilyPolicy',
      'internalTrafficPolicy',
    ]);
    expect(keysAt(svc, 'spec.ports.0')).toEqual(['name', 'protocol', 'port', 'targetPort']);
    expect(keysAt(svc, 'status')).toEqual(['loadBalancer']);

    const slice = g.shape({
      kind: 'EndpointSlice',
      apiVersion: `${profile.suffixed('discovery')}/v1`,
      addressType: 'IPv4',
      endpoints: [],
      ports: [{ port: 80, protocol: 'TCP', name: 'http' }],
    });
    expect(keysAt(slice, 'ports.0')).toEqual(['name', 'protocol', 'port']);

    const deployment = g.shape({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd' },
      spec: { template, selector: { matchLabels: { app: 'x' } }, replicas: 1 },
    });
    // DeploymentStrategy is a plain struct: Go writes it even when empty.
    expect(keysAt(deployment, 'spec')).toEqual(['replicas', 'selector', 'template', 'strategy']);
    expect(keysAt(deployment, 'spec.template.spec')).toEqual([
      'containers',
      'restartPolicy',
      'terminationGracePeriodSeconds',
      'dnsPolicy',
      'securityContext',
      'schedulerName',
    ]);
    expect(keysAt(deployment, 'spec.template.spec.containers.0')).toEqual([
      'name',
      'image',
      'resources',
      'terminationMessagePath',
      'terminationMessagePolicy',
      'imagePullPolicy',
    ]);

    const role = g.shape({
      rules: [{ verbs: ['get'], resources: ['pods'], apiGroups: [''] }],
      metadata: { name: 'r' },
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
    });
    expect(keysAt(role)).toEqual(['kind', 'apiVersion', 'metadata', 'rules']);
    expect(keysAt(role, 'rules.0')).toEqual(['verbs', 'apiGroups', 'resources']);
  });

  it("writes the zero values Go writes: a template's metadata has creationTimestamp: null", () => {
    const workloads: [string, string, (t: Obj) => Obj, string][] = [
      ['apps/v1', 'Deployment', (t) => ({ template: t }), 'spec.template.metadata'],
      ['apps/v1', 'ReplicaSet', (t) => ({ template: t }), 'spec.template.metadata'],
      ['apps/v1', 'StatefulSet', (t) => ({ template: t }), 'spec.template.metadata'],
      ['apps/v1', 'DaemonSet', (t) => ({ template: t }), 'spec.template.metadata'],
      ['batch/v1', 'Job', (t) => ({ template: t }), 'spec.template.metadata'],
      [
        'batch/v1',
        'CronJob',
        (t) => ({ schedule: '* * * * *', jobTemplate: { spec: { template: t } } }),
        'spec.jobTemplate.spec.template.metadata',
      ],
    ];
    for (const [apiVersion, kind, spec, at] of workloads) {
      const shaped = g.shape({ kind, apiVersion, metadata: { name: 'w' }, spec: spec(template) }) as Obj;
      let m: unknown = shaped;
      for (const part of at.split('.')) m = (m as Obj)[part];
      expect(m, kind).toEqual({ creationTimestamp: null, labels: { app: 'x' } });
      expect(keysAt(m), kind).toEqual(['creationTimestamp', 'labels']);
    }
    const podTemplate = g.shape({ kind: 'PodTemplate', apiVersion: 'v1', metadata: { name: 'p' }, template });
    expect((podTemplate as { template: { metadata: unknown } }).template.metadata).toEqual({
      creationTimestamp: null,
      labels: { app: 'x' },
    });
    // Plain structs, non-pointer times and scalars without omitempty.
    expect(g.shape({ kind: 'Event', apiVersion: 'v1', metadata: { name: 'e' }, involvedObject: {} })).toEqual(
      {
        kind: 'Event',
        apiVersion: 'v1',
        metadata: { name: 'e', creationTimestamp: null },
        involvedObject: {},
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: null,
        reportingComponent: '',
        reportingInstance: '',
      },
    );
    // A required list without omitempty is null when unset (a Pod bookmark's `spec.containers`).
    expect(g.shape({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '5' } })).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { resourceVersion: '5', creationTimestamp: null },
      spec: { containers: null },
      status: {},
    });
  });

  it('orders without adding zero values for exports, whose objects are stored again', () => {
    const o = goOrderFor(profile);
    const shaped = o.shape({
      spec: { template, selector: { matchLabels: { b: '1', a: '2' } } },
      metadata: meta,
      apiVersion: 'apps/v1',
      kind: 'Deployment',
    });
    expect(keysAt(shaped)).toEqual(['kind', 'apiVersion', 'metadata', 'spec']);
    expect(keysAt(shaped, 'spec')).toEqual(['selector', 'template']);
    expect(keysAt(shaped, 'spec.selector.matchLabels')).toEqual(['a', 'b']);
    expect(keysAt(shaped, 'spec.template.metadata')).toEqual(['labels']);
    expect(keysAt(shaped, 'spec.template.spec.containers.0').slice(0, 3)).toEqual([
      'name',
      'image',
      'resources',
    ]);
    expect(o.shape({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' } })).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p' },
    });
    // The answers' shaper keeps its zero values.
    expect(keysAt(g.shape(shaped), 'spec.template.metadata')).toEqual(['creationTimestamp', 'labels']);
  });

  it('sorts a custom resource at every depth, metadata included', () => {
    const cr = g.shape({
      kind: 'Foo',
      apiVersion: 'company.com/v1',
      metadata: { resourceVersion: '3', name: 'f', uid: 'u', labels: { z: '1', a: '2' } },
      zeta: 1,
      alpha: { y: 1, b: [{ d: 1, c: 2 }] },
    });
    expect(JSON.stringify(cr)).toBe(
      '{"alpha":{"b":[{"c":2,"d":1}],"y":1},"apiVersion":"company.com/v1","kind":"Foo","metadata":{"labels":{"a":"2","z":"1"},"name":"f","resourceVersion":"3","uid":"u"},"zeta":1}',
    );
    expect(sortedDeep({ b: 1, a: null })).toEqual({ a: null, b: 1 });
  });

  it("orders a map's keys by code point (Go's UTF-8 byte order), surrogate pairs and integer-like keys included", () => {
    // UTF-16 order puts U+1F600 (a surrogate pair, 0xD83D…) before U+FF5E; code point order after.
    const keys = ['b', '\u{1F600}', '\uFF5E', '10', '9', 'a', 'B', '\u00e9'];
    const data = Object.fromEntries(keys.map((k) => [k, 'v']));
    const sorted = [...keys].sort((a, b) => Buffer.from(a).compare(Buffer.from(b)));
    // Integer-like keys come first in any JavaScript object (the Go encoder's text is written elsewhere).
    const byCodePoint = Object.keys(Object.fromEntries(sorted.map((k) => [k, 1])));
    const shaped = g.shape({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data }) as Obj;
    expect(Object.keys(shaped['data'] as Obj)).toEqual(byCodePoint);
    const plain = keys.filter((k) => !/[\uD800-\uDFFF]/.test(k));
    const shapedPlain = g.shape({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: Object.fromEntries(plain.map((k) => [k, 'v'])),
    }) as Obj;
    expect(Object.keys(shapedPlain['data'] as Obj)).toEqual(byCodePoint.filter((k) => plain.includes(k)));
  });

  it('writes a wide map through the sliced encoder in the same order as the shaped copy, without copying it', () => {
    const data: Obj = {};
    for (let i = 6000; i > 0; i--)
      data[i % 7 === 0 ? String(i) : `k${i}${i % 11 === 0 ? '\u{1F600}' : ''}`] = `v${i}`;
    data['\uFF5E'] = 'x';
    data['4294967295'] = 'not an index';
    rememberWide(data); // as the store's sliced copy of a wide value is
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w', labels: { b: '1', a: '2' } },
      data,
    };
    const { value, keyOrder } = g.shapeForSlicedText(cm);
    expect((value as Obj)['data']).toBe(data);
    for (const pretty of [false, true])
      expect(runNow(jsonTextWork(value, pretty, keyOrder))).toBe(
        JSON.stringify(g.shape(cm), null, pretty ? 2 : 0),
      );
  });

  it("shapes a Table's and a watch event's objects by their own kind, and leaves raw values as written", () => {
    const table = g.shape({
      rows: [
        {
          object: {
            metadata: { uid: 'u', name: 'x' },
            apiVersion: `${profile.metaGroup}/v1`,
            kind: 'PartialObjectMetadata',
          },
          cells: ['x'],
        },
      ],
      columnDefinitions: [{ priority: 0, description: 'd', format: 'name', type: 'string', name: 'Name' }],
      metadata: { resourceVersion: '9' },
      apiVersion: `${profile.metaGroup}/v1`,
      kind: 'Table',
    });
    expect(keysAt(table)).toEqual(['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
    expect(keysAt(table, 'columnDefinitions.0')).toEqual([
      'name',
      'type',
      'format',
      'description',
      'priority',
    ]);
    expect(keysAt(table, 'rows.0')).toEqual(['cells', 'object']);
    expect(keysAt(table, 'rows.0.object')).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(keysAt(table, 'rows.0.object.metadata')).toEqual(['name', 'uid', 'creationTimestamp']);
    // ControllerRevision data is raw JSON kept as the client wrote it.
    const revision = g.shape({
      kind: 'ControllerRevision',
      apiVersion: 'apps/v1',
      metadata: { name: 'r' },
      revision: 1,
      data: { spec: { z: 1, a: 2 } },
    });
    expect(keysAt(revision, 'data.spec')).toEqual(['z', 'a']);
  });

  it("spells a CRD schema's markers in the profile and writes them in JSONSchemaProps' order", () => {
    const ext = (n: string) => profile.ext(n);
    const crd = g.shape({
      kind: 'CustomResourceDefinition',
      apiVersion: `${profile.suffixed('apiextensions')}/v1`,
      metadata: { name: 'foos.company.com' },
      spec: {
        versions: [
          {
            schema: {
              openAPIV3Schema: {
                [ext('preserve-unknown-fields')]: true,
                properties: { b: { type: 'string' }, a: { default: { z: 1, y: 2 }, type: 'object' } },
                type: 'object',
              },
            },
            storage: true,
            served: true,
            name: 'v1',
          },
        ],
        scope: 'Namespaced',
        names: { kind: 'Foo', plural: 'foos' },
        group: 'company.com',
      },
    });
    expect(keysAt(crd, 'spec')).toEqual(['group', 'names', 'scope', 'versions']);
    expect(keysAt(crd, 'spec.versions.0')).toEqual(['name', 'served', 'storage', 'schema']);
    const schema = 'spec.versions.0.schema.openAPIV3Schema';
    expect(keysAt(crd, schema)).toEqual(['type', 'properties', ext('preserve-unknown-fields')]);
    expect(keysAt(crd, `${schema}.properties`)).toEqual(['a', 'b']);
    // A schema's default is raw JSON, written as given.
    expect(keysAt(crd, `${schema}.properties.a.default`)).toEqual(['z', 'y']);
  });

  it('leaves values without a kind, and kinds of the server’s own groups without facts, as they are', () => {
    const plain = { z: 1, a: 2 };
    expect(g.shape(plain)).toBe(plain);
    const discovery = {
      kind: 'APIGroupDiscoveryList',
      apiVersion: `${profile.suffixed('apidiscovery')}/v2beta1`,
      z: 1,
      a: 1,
    };
    expect(g.shape(discovery)).toBe(discovery);
  });
});

describe('the generated field order', () => {
  it('places every property of every definition that has properties', () => {
    for (const [name, def] of Object.entries(builtInDefinitions)) {
      const props = Object.keys(def.properties ?? {});
      if (props.length === 0) continue;
      expect([...(goFieldOrder(name) ?? [])].sort(), name).toEqual([...props].sort());
    }
  });

  it('is Go’s struct order, not the sorted one', () => {
    expect(goFieldOrder('api.core.v1.Pod')).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(goFieldOrder('api.core.v1.ServiceSpec')?.slice(0, 4)).toEqual([
      'ports',
      'selector',
      'clusterIP',
      'clusterIPs',
    ]);
    expect(goFieldOrder('api.core.v1.NoSuchType')).toBeUndefined();
  });
});
