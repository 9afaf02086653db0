/**
 * The protobuf codec: a sample object of every built-in kind (generated
 * from its schema facts, every field filled) survives JSON → protobuf →
 * JSON unchanged, the special wire forms come out as the real server
 * writes them, and malformed input is a 400.
 */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../machinery/schema';
import { builtInDefinitions } from '../../registry/builtins';
import { StatusError } from '../../machinery/errors';
import { decodeWatchFrames, protobufCodec } from './codec';
import { lookupMessage } from './descriptor';
import { protobufLibrary } from './library';

// The codec is used directly here, outside a request: load it as the request pipeline would.
await protobufLibrary.load();

const profile = namingProfile('kubernetes');
const codec = protobufCodec(profile);
const defs: DefinitionSet = builtInDefinitions;

const special: Record<string, unknown> = {
  'apimachinery.pkg.apis.meta.v1.Time': '2024-01-02T03:04:05Z',
  'apimachinery.pkg.apis.meta.v1.MicroTime': '2024-01-02T03:04:05.123456Z',
  'apimachinery.pkg.api.resource.Quantity': '500m',
  'apimachinery.pkg.runtime.RawExtension': { kind: 'Thing', n: 1 },
  'apimachinery.pkg.apis.meta.v1.FieldsV1': { 'f:spec': { 'f:replicas': {} } },
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': { x: [1, 'a'] },
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': { type: 'string' },
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': true,
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': ['a', 'b'],
};

/** A value for every field of a schema; undefined where recursion would not end. */
function sample(node: SchemaNode | undefined, stack: string[], nested: boolean): unknown {
  if (node === undefined) return undefined;
  if (node.ref !== undefined) {
    if (node.ref in special) return special[node.ref];
    if (node.ref === 'apimachinery.pkg.util.intstr.IntOrString') return stack.length % 2 === 0 ? 5 : '25%';
    if (stack.includes(node.ref)) return undefined;
    return sample(resolveSchema(defs, { ref: node.ref }), [...stack, node.ref], true);
  }
  switch (node.type) {
    case 'string':
      return node.format === 'byte' ? 'aGVsbG8=' : node.format === 'date-time' ? '2024-01-02T03:04:05Z' : 'v';
    case 'integer':
      return 3;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array': {
      const item = sample(node.items, stack, true);
      return item === undefined ? undefined : [item];
    }
    default: {
      if (node.properties === undefined) {
        if (typeof node.additionalProperties !== 'object') return {};
        const v = sample(node.additionalProperties, stack, true);
        return v === undefined ? undefined : { k: v };
      }
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(node.properties)) {
        // Kinds nested in lists carry no apiVersion/kind on the wire (the envelope names the list's).
        if (nested && (name === 'apiVersion' || name === 'kind') && isKindDefinition(stack)) continue;
        const v = sample(child, stack, true);
        if (v !== undefined) out[name] = v;
      }
      return out;
    }
  }
}

function isKindDefinition(stack: string[]): boolean {
  const top = stack[stack.length - 1];
  return top !== undefined && (defs[top]?.gvk?.length ?? 0) > 0;
}

const kinds = Object.entries(defs).flatMap(([name, def]) => {
  const g = def.gvk?.[0];
  if (g === undefined) return [];
  const group = g.groupSuffixed === true ? profile.suffixed(g.group) : g.group;
  const apiVersion = group === '' ? g.version : `${group}/${g.version}`;
  return codec.canEncode(apiVersion, g.kind) ? [{ name, apiVersion, kind: g.kind }] : [];
});

describe('every built-in kind round-trips through protobuf', () => {
  it('covers the kinds with a message', () => {
    expect(kinds.length).toBeGreaterThan(140);
    expect(codec.canEncode('meta.k8s.io/v1', 'Table')).toBe(false);
  });
  it.each(kinds)('$apiVersion $kind', ({ name, apiVersion, kind }) => {
    const body = sample({ ref: name }, [], false) as Record<string, unknown>;
    const obj = { ...body, apiVersion, kind };
    const bytes = codec.encode(obj);
    expect(bytes).toBeDefined();
    expect(codec.decode(bytes ?? new Uint8Array())).toEqual(obj);
  });
});

describe('wire forms', () => {
  const pod = (spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec,
  });

  it('starts with the magic and names the type in the envelope', () => {
    const bytes =
      codec.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }) ?? new Uint8Array();
    expect([...bytes.slice(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    const unknown = lookupMessage('apimachinery.pkg.runtime.Unknown')?.decode(bytes.slice(4)) as unknown as {
      typeMeta: unknown;
    };
    expect(unknown.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it('keeps embedded structs inline and int-or-string as written', () => {
    const p = pod({
      containers: [
        {
          name: 'c',
          livenessProbe: { httpGet: { port: 'http' }, periodSeconds: 3 },
          readinessProbe: { tcpSocket: { port: 8080 } },
        },
      ],
    });
    // As the Go types marshal it: plain structs (`resources`, `status`) are always present.
    expect(codec.decode(codec.encode(p) ?? new Uint8Array())).toEqual({
      ...p,
      spec: {
        containers: [
          {
            name: 'c',
            resources: {},
            livenessProbe: { httpGet: { port: 'http' }, periodSeconds: 3 },
            readinessProbe: { tcpSocket: { port: 8080 } },
          },
        ],
      },
      status: {},
    });
  });

  it('decodes as the Go types marshal: plain zero scalars with omitempty dropped, pointer zeros kept', () => {
    const p = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', generateName: '', generation: 0 },
      spec: { replicas: 0, paused: false, minReadySeconds: 0 },
    };
    const goShaped = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { replicas: 0, template: { metadata: {}, spec: {} }, strategy: {} },
      status: {},
    };
    expect(codec.decode(codec.encode(p) ?? new Uint8Array())).toEqual(goShaped);
    // A Go client writes every plain field, zero or not: the decoded object is the same.
    expect(codec.decode(codec.encode(p, { asGoClient: true }) ?? new Uint8Array())).toEqual(goShaped);
    // Fields without omitempty are present even as zero; required pointers only when set.
    const port = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 0 }], storageClassName: '' },
    };
    expect(codec.decode(codec.encode(port, { asGoClient: true }) ?? new Uint8Array())).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 0, targetPort: 0 }] },
      status: { loadBalancer: {} },
    });
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { storageClassName: '', volumeName: '' },
    };
    expect(codec.decode(codec.encode(pvc, { asGoClient: true }) ?? new Uint8Array())).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { storageClassName: '', resources: {} },
      status: {},
    });
  });

  it('truncates Time to seconds and MicroTime to microseconds, in UTC', () => {
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e' },
      involvedObject: {},
      firstTimestamp: '2024-01-02T05:04:05.9+02:00',
      eventTime: '2024-01-02T03:04:05.1234567Z',
    };
    const back = codec.decode(codec.encode(ev) ?? new Uint8Array()) as Record<string, unknown>;
    expect(back.firstTimestamp).toBe('2024-01-02T03:04:05Z');
    expect(back.eventTime).toBe('2024-01-02T03:04:05.123456Z');
  });

  it('spells schema markers of custom resource definitions in the profile', () => {
    const orch = protobufCodec(namingProfile('orch'));
    const crd = {
      apiVersion: 'apiextensions.orch.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.example.com' },
      spec: {
        group: 'example.com',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-orch-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    expect(orch.decode(orch.encode(crd) ?? new Uint8Array())).toEqual({
      ...crd,
      // Plain fields without omitempty, as the Go type marshals them.
      spec: { ...crd.spec, names: { plural: '', kind: '' }, scope: '' },
      status: { acceptedNames: { plural: '', kind: '' } },
    });
  });

  it('frames watch events with a big-endian length and the object as an envelope', () => {
    const frame =
      codec.watchFrame('ADDED', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c' },
        data: { a: 'b' },
      }) ?? new Uint8Array();
    expect(new DataView(frame.buffer).getUint32(0, false)).toBe(frame.length - 4);
    expect(decodeWatchFrames(profile, frame)).toEqual([
      {
        type: 'ADDED',
        object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } },
      },
    ]);
  });

  it('rejects input without the magic or of an unknown kind as 400', () => {
    const bad = (bytes: Uint8Array): number => {
      try {
        codec.decode(bytes);
        return 0;
      } catch (e) {
        return e instanceof StatusError ? e.code : -1;
      }
    };
    expect(bad(new TextEncoder().encode('{"kind":"Pod"}'))).toBe(400);
    expect(bad(new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x04, 0x0a, 0x02, 0x76, 0x39]))).toBe(400);
    expect(bad(new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0xff, 0xff]))).toBe(400);
  });
});
