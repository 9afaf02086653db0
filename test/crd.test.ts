/**
 * CustomResourceDefinitions and custom resources over real HTTP against the
 * Node host, table-driven: CRD validation (structural schema rules, names,
 * versions, subresources, printer columns, conversion, validation rules),
 * custom resource validation against the OpenAPI schema in the real
 * server's words, pruning with fieldValidation, defaulting, status and
 * scale subresources, printer columns, several versions, naming conflicts,
 * discovery and OpenAPI, deletion; then every scenario of the CEL module's
 * table replayed as a CRD and its objects; then kubectl (skipped, with the
 * reason printed, when kubectl is not on PATH).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openAPISchema,
  scenarioSchema,
  scenarios as celScenarios,
  type CelScenario,
} from '../src/cel/scenarios';
import type { JsonValue } from '../src/api/meta';
import { startTestHost, type TestHost, type TestResponse } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';
import {
  causes,
  condition,
  crdBody,
  crdsPath,
  createEstablished,
  eventually,
  warnings,
  withSpec,
  type CrdOptions,
  type Json,
} from './support/crd';

const S = 'spec.versions[0].schema.openAPIV3Schema';
const SPEC = `${S}.properties[spec]`;

let host: TestHost;
let groups = 0;
const nextGroup = (): string => `g${++groups}.example.com`;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

function expectCauses(r: TestResponse, expected: readonly string[]): void {
  expect(r.status, r.text).toBe(422);
  const got = causes(r).join('\n');
  for (const e of expected) expect(got).toContain(e);
}

/** A CRD with `spec` (and optional `status`) as given, Established; returns its collection path. */
async function established(spec: Json, o: Partial<CrdOptions> = {}, status?: Json): Promise<string> {
  const group = o.group ?? nextGroup();
  await createEstablished(host, crdBody(withSpec(spec, status), { ...o, group }));
  const plural = o.plural ?? 'widgets';
  return o.scope === 'Cluster'
    ? `/apis/${group}/v1/${plural}`
    : `/apis/${group}/v1/namespaces/default/${plural}`;
}

function widget(group: string, name: string, spec: unknown, extra: Json = {}): Json {
  return { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec, ...extra };
}

function groupOf(path: string): string {
  return path.split('/')[2] ?? '';
}

// ---------------------------------------------------------------------------------------------------------------
// CRD validation

interface CrdRejection {
  name: string;
  schema?: Json;
  options?: Partial<CrdOptions>;
  causes: string[];
}

const object = (properties: Json, extra: Json = {}): Json => ({ type: 'object', properties, ...extra });

const crdRejections: CrdRejection[] = [
  {
    name: 'structural: every specified field has a type',
    schema: withSpec(object({ a: {} })),
    causes: [`${SPEC}.properties[a].type: Required value: must not be empty for specified object fields`],
  },
  {
    name: 'structural: array items have a type, arrays have items',
    schema: withSpec(object({ l: { type: 'array', items: {} }, m: { type: 'array' } })),
    causes: [
      `${SPEC}.properties[l].items.type: Required value: must not be empty for specified array items`,
      `${SPEC}.properties[m].items: Required value: must be specified`,
    ],
  },
  {
    name: 'structural: the root is an object without additionalProperties',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    causes: [`${S}.additionalProperties: Forbidden: must not be used at the root`],
  },
  {
    name: 'structural: the root type is object',
    schema: { type: 'integer' },
    causes: [`${S}.type: Invalid value: "integer": must be object at the root`],
  },
  {
    name: 'int-or-string: only the exact anyOf pattern may carry types',
    schema: withSpec(
      object({ port: { 'x-orch-int-or-string': true, anyOf: [{ type: 'string' }, { type: 'integer' }] } }),
    ),
    causes: [
      `${SPEC}.properties[port].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${SPEC}.properties[port].anyOf[1].type: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'int-or-string excludes preserve-unknown-fields',
    schema: withSpec(object({ p: { 'x-orch-int-or-string': true, 'x-orch-preserve-unknown-fields': true } })),
    causes: [
      `${SPEC}.properties[p].x-orch-preserve-unknown-fields: Invalid value: true: must be false if x-orch-int-or-string is true`,
    ],
  },
  {
    name: 'preserve-unknown-fields is true or absent',
    schema: withSpec(object({}, { 'x-orch-preserve-unknown-fields': false })),
    causes: [`${SPEC}.x-orch-preserve-unknown-fields: Invalid value: false: must be true or undefined`],
  },
  {
    name: 'embedded resources: objects, with properties or preserving unknown fields',
    schema: withSpec(
      object({
        a: { type: 'object', 'x-orch-embedded-resource': true },
        b: {
          type: 'array',
          items: { type: 'string' },
          'x-orch-embedded-resource': true,
          'x-orch-preserve-unknown-fields': true,
        },
      }),
    ),
    causes: [
      `${SPEC}.properties[a].properties: Required value: must not be empty if x-orch-embedded-resource is true without x-orch-preserve-unknown-fields`,
      `${SPEC}.properties[b].type: Invalid value: "array": must be object if x-orch-embedded-resource is true`,
    ],
  },
  {
    name: 'metadata at the root restricts only name and generateName',
    schema: object({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } }),
    causes: [
      `${S}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  },
  {
    name: 'metadata is not specified in a nested context',
    schema: object({ spec: { type: 'object' } }, { allOf: [{ properties: { metadata: {} } }] }),
    causes: [`${S}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`],
  },
  {
    name: 'value validations carry no types, descriptions or defaults',
    schema: withSpec(
      object(
        { x: { type: 'string' } },
        { anyOf: [{ properties: { x: { type: 'string', description: 'd' } } }] },
      ),
    ),
    causes: [
      `${SPEC}.anyOf[0].properties[x].type: Forbidden: must be empty to be structural`,
      `${SPEC}.anyOf[0].properties[x].description: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'value validations only reach fields specified outside them',
    schema: withSpec(object({ x: { type: 'string' } }, { oneOf: [{ properties: { y: { pattern: 'a' } } }] })),
    causes: [
      `${SPEC}.properties[y]: Required value: because it is defined in ${SPEC}.oneOf[0].properties[y]`,
    ],
  },
  {
    name: 'list-type map needs keys that are item properties',
    schema: withSpec(
      object({
        a: { type: 'array', 'x-orch-list-type': 'map', items: object({ name: { type: 'string' } }) },
        b: {
          type: 'array',
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['id'],
          items: object({ name: { type: 'string' } }),
        },
      }),
    ),
    causes: [
      `${SPEC}.properties[a].x-orch-list-map-keys: Required value: must not be empty if x-orch-list-type is map`,
      `${SPEC}.properties[b].x-orch-list-map-keys: Invalid value: []string{"id"}: entries must all be names of item properties`,
    ],
  },
  {
    name: 'list-type map keys are required or defaulted, and not nullable',
    schema: withSpec(
      object({
        l: {
          type: 'array',
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['name'],
          items: object({ name: { type: 'string', nullable: true } }),
        },
      }),
    ),
    causes: [
      `${SPEC}.properties[l].items.properties[name].default: Required value: this property is in x-orch-list-map-keys, so it must have a default or be a required property`,
      `${SPEC}.properties[l].items.properties[name].nullable: Forbidden: this property is in x-orch-list-map-keys, so it cannot be nullable`,
    ],
  },
  {
    name: 'list-type set items are atomic; markers fit their type',
    schema: withSpec(
      object({
        s: { type: 'array', 'x-orch-list-type': 'set', items: object({ a: { type: 'string' } }) },
        t: { type: 'string', 'x-orch-list-type': 'set' },
        u: { type: 'array', 'x-orch-list-type': 'bag', items: { type: 'string' } },
      }),
    ),
    causes: [
      `${SPEC}.properties[s].items.x-orch-map-type: Invalid value: "null": must be atomic as item of a list with x-orch-list-type=set`,
      `${SPEC}.properties[t].type: Invalid value: "string": must be array if x-orch-list-type is specified`,
      `${SPEC}.properties[u].x-orch-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ],
  },
  {
    name: 'defaults are pruned and valid against their schema',
    schema: withSpec(
      object({
        o: object({ a: { type: 'string' } }, { default: { a: 'x', b: 'y' } }),
        n: { type: 'integer', default: 'three' },
        m: { type: 'integer', minimum: 5, default: 1 },
      }),
    ),
    causes: [
      `${SPEC}.properties[o].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields`,
      `${SPEC}.properties[n].default: Invalid value: "string":  in body must be of type integer: "string"`,
      `${SPEC}.properties[m].default: Invalid value: 1:  in body should be greater than or equal to 5`,
    ],
  },
  {
    name: 'no defaults in top-level metadata, no uniqueItems, no $ref, no nullable root',
    schema: object(
      {
        metadata: { type: 'object', default: {} },
        spec: object({
          l: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          r: { type: 'string', $ref: '#/x' },
        }),
      },
      { nullable: true },
    ),
    causes: [
      `${S}.nullable: Forbidden: nullable cannot be true at the root`,
      `${S}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
      `${SPEC}.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${SPEC}.properties[r].$ref: Forbidden: $ref is not supported`,
    ],
  },
  {
    name: 'patterns are RE2 and must compile',
    schema: withSpec(object({ s: { type: 'string', pattern: '+' } })),
    causes: [
      `${SPEC}.properties[s].pattern: Invalid value: "+": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: \`+\``,
    ],
  },
  {
    name: 'names: DNS-1035 plural, kind differs from listKind, name is <plural>.<group>',
    schema: withSpec(object({})),
    options: { plural: 'Widgets', names: { listKind: 'Widget' }, metadata: { name: 'wrong.example.com' } },
    causes: [
      'metadata.name: Invalid value: "wrong.example.com": must be spec.names.plural+"."+spec.group',
      'spec.names.plural: Invalid value: "Widgets": a DNS-1035 label must consist of lower case alphanumeric characters',
      'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ],
  },
  {
    name: 'group is a domain with a dot; scope is Cluster or Namespaced',
    schema: withSpec(object({})),
    options: { group: 'widgets', scope: 'Global' as 'Cluster', metadata: { name: 'widgets.widgets' } },
    causes: [
      'spec.group: Invalid value: "widgets": should be a domain with at least one dot',
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ],
  },
  {
    name: 'versions: exactly one storage version, unique names, every schema present',
    options: {
      versions: [
        { name: 'v1', served: true, storage: true },
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: withSpec(object({})) } },
      ],
    },
    causes: [
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
      'must contain unique version names',
      'must have exactly one version marked as storage version',
    ],
  },
  {
    name: 'subresources: scale JSONPaths under .spec and .status',
    schema: withSpec(object({})),
    options: {
      version: {
        subresources: { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'replicas' } },
      },
    },
    causes: [
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.versions[0].subresources.scale.statusReplicasPath: Invalid value: "replicas": must be a simple json path starting with .',
    ],
  },
  {
    name: 'printer columns: known types and formats, simple JSONPaths',
    schema: withSpec(object({})),
    options: {
      version: {
        additionalPrinterColumns: [
          { name: 'X', type: 'text', format: 'money', jsonPath: 'spec.x' },
          { name: 'Y', type: 'string' },
        ],
      },
    },
    causes: [
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
      'spec.versions[0].additionalPrinterColumns[0].format: Invalid value: "money": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
      'spec.versions[0].additionalPrinterColumns[1].JSONPath: Required value',
    ],
  },
  {
    name: 'conversion: a Webhook strategy needs its client config and review versions',
    schema: withSpec(object({})),
    options: { spec: { conversion: { strategy: 'Webhook' } } },
    causes: [
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ],
  },
  {
    name: 'with the status subresource only some fields may sit at the root',
    schema: object({ spec: { type: 'object' } }, { minProperties: 1 }),
    options: { version: { subresources: { status: {} } } },
    causes: [`${S}: Invalid value: apiextensions.JSONSchemaProps{...}: only [Description Type Format Title`],
  },
  {
    name: 'validation rules: reason, fieldPath and message are checked',
    schema: withSpec(
      object(
        { a: { type: 'integer' } },
        {
          'x-orch-validations': [
            { rule: 'self.a > 0', reason: 'Nope' },
            { rule: 'self.a > 0', fieldPath: '.b' },
            { rule: 'self.a > 0 &&\nself.a < 9' },
          ],
        },
      ),
    ),
    causes: [
      `${SPEC}.x-orch-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${SPEC}.x-orch-validations[1].fieldPath: Invalid value: ".b": fieldPath must be a valid path`,
      `${SPEC}.x-orch-validations[2].message: Required value: message must be specified if rule contains line breaks`,
    ],
  },
  {
    name: 'validation rules: oldSelf only where old values correlate',
    schema: withSpec(
      object({
        l: { type: 'array', items: { type: 'string', 'x-orch-validations': [{ rule: 'self == oldSelf' }] } },
      }),
    ),
    causes: [
      `${SPEC}.properties[l].items.x-orch-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${SPEC}.properties[l]`,
    ],
  },
  {
    name: 'validation rules: a compile error names the rule and its position',
    schema: withSpec(
      object({ replicas: { type: 'integer' } }, { 'x-orch-validations': [{ rule: 'self.replicas >' }] }),
    ),
    causes: [
      `${SPEC}.x-orch-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas >", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: compilation failed: ERROR: <input>:1:16: Syntax error`,
    ],
  },
  {
    name: 'validation rules: too costly in total for the CRD, with what to bound',
    schema: withSpec(
      object({
        names: {
          type: 'array',
          items: { type: 'string' },
          'x-orch-validations': [{ rule: 'self.all(a, self.all(b, a == b || a != b))' }],
        },
      }),
    ),
    causes: [
      `${SPEC}.properties[names].x-orch-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      `${SPEC}.properties[names].x-orch-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${S}: Forbidden: x-orch-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x`,
    ],
  },
  {
    name: 'protected groups need the approval annotation',
    schema: withSpec(object({})),
    options: { group: 'widgets.orch.io' },
    causes: [
      'metadata.annotations[api-approved.orch.io]: Required value: protected groups must have approval annotation "api-approved.orch.io"',
    ],
  },
];

describe('CRD validation (422 with one cause per problem)', () => {
  for (const s of crdRejections) {
    it(s.name, async () => {
      const body = crdBody(s.schema, { group: nextGroup(), ...s.options });
      const r = await host.request('POST', crdsPath(), { body });
      expectCauses(r, s.causes);
      expect(r.body.message).toMatch(/^CustomResourceDefinition\.apiextensions\.orch\.io ".*" is invalid: /);
    });
  }

  it('accepts the int-or-string forms the real server accepts', async () => {
    const schema = withSpec(
      object({
        a: { 'x-orch-int-or-string': true },
        b: {
          'x-orch-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
          allOf: [{ pattern: 'abc' }],
        },
        c: {
          'x-orch-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: 'abc' }],
        },
      }),
    );
    const r = await host.request('POST', crdsPath(), { body: crdBody(schema, { group: nextGroup() }) });
    expect(r.status, r.text).toBe(201);
  });

  it('accepts a Webhook conversion strategy (the sandbox calls no webhook: versions relabel apiVersion)', async () => {
    const group = nextGroup();
    const schema = { openAPIV3Schema: withSpec(object({ size: { type: 'integer' } })) };
    const crd = await createEstablished(
      host,
      crdBody(undefined, {
        group,
        versions: [
          { name: 'v1', served: true, storage: true, schema },
          { name: 'v2', served: true, storage: false, schema },
        ],
        spec: {
          conversion: {
            strategy: 'Webhook',
            webhook: {
              clientConfig: { service: { namespace: 'default', name: 'conv' } },
              conversionReviewVersions: ['v1'],
            },
          },
        },
      }),
    );
    expect(((crd.spec as Json).conversion as Json).webhook).toMatchObject({
      clientConfig: { service: { namespace: 'default', name: 'conv', port: 443 } },
    });
    const created = await host.request('POST', `/apis/${group}/v2/namespaces/default/widgets`, {
      body: { apiVersion: `${group}/v2`, kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } },
    });
    expect(created.status).toBe(201);
    const read = await host.request('GET', `/apis/${group}/v1/namespaces/default/widgets/w1`);
    expect(read.body).toMatchObject({ apiVersion: `${group}/v1`, spec: { size: 1 } });
  });

  it('defaults the CRD as the real server does and records the storage version', async () => {
    const group = nextGroup();
    const crd = await createEstablished(host, crdBody(withSpec(object({})), { group }));
    const spec = crd.spec as Json;
    expect(spec.conversion).toEqual({ strategy: 'None' });
    expect(spec.names).toMatchObject({
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
    });
    const status = crd.status as Json;
    expect(status.storedVersions).toEqual(['v1']);
    expect(status.acceptedNames).toEqual({
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
    });
    expect(condition(crd, 'NamesAccepted')).toMatchObject({
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    });
    expect(condition(crd, 'Established')).toMatchObject({
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
  });

  it('keeps group and plural immutable, and appends a new storage version to storedVersions', async () => {
    const group = nextGroup();
    const versions = (storage: string): Json[] =>
      ['v1beta1', 'v1'].map((name) => ({
        name,
        served: true,
        storage: name === storage,
        schema: { openAPIV3Schema: withSpec(object({})) },
      }));
    const crd = await createEstablished(host, crdBody(undefined, { group, versions: versions('v1beta1') }));
    const path = `${crdsPath()}/widgets.${group}`;
    const bad = await host.request('PUT', path, {
      body: { ...crd, spec: { ...(crd.spec as Json), group: 'other.example.com' } },
    });
    expectCauses(bad, ['spec.group: Invalid value: "other.example.com": field is immutable']);
    const ok = await host.request('PUT', path, {
      body: { ...crd, spec: { ...(crd.spec as Json), versions: versions('v1') } },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status.storedVersions).toEqual(['v1beta1', 'v1']);
    expect(ok.body.metadata.generation).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Custom resource validation

interface ValueScenario {
  name: string;
  spec: Json;
  value: unknown;
  /** Expected causes (substrings), or empty for an accepted object. */
  causes: string[];
  /** For accepted objects: what the stored spec must contain. */
  stored?: Json;
}

const valueScenarios: ValueScenario[] = [
  {
    name: 'types: string, integer, number, boolean, array, object',
    spec: object({
      s: { type: 'string' },
      i: { type: 'integer' },
      f: { type: 'integer' },
      n: { type: 'number' },
      b: { type: 'boolean' },
      a: { type: 'array', items: { type: 'string' } },
      o: { type: 'object' },
    }),
    value: { s: 1, i: '5', f: 1.5, n: 'x', b: 'yes', a: {}, o: [] },
    causes: [
      'spec.s: Invalid value: "integer": spec.s in body must be of type string: "integer"',
      'spec.i: Invalid value: "string": spec.i in body must be of type integer: "string"',
      'spec.f: Invalid value: "number": spec.f in body must be of type integer: "number"',
      'spec.n: Invalid value: "string": spec.n in body must be of type number: "string"',
      'spec.b: Invalid value: "string": spec.b in body must be of type boolean: "string"',
      'spec.a: Invalid value: "object": spec.a in body must be of type array: "object"',
      'spec.o: Invalid value: "array": spec.o in body must be of type object: "array"',
    ],
  },
  {
    name: 'types: numbers accept integers',
    spec: object({ n: { type: 'number' } }),
    value: { n: 3 },
    causes: [],
    stored: { n: 3 },
  },
  {
    name: 'formats: date-time, date, duration, byte, uuid (int32 is not range-checked, as in the real server)',
    spec: object({
      t: { type: 'string', format: 'date-time' },
      d: { type: 'string', format: 'date' },
      du: { type: 'string', format: 'duration' },
      by: { type: 'string', format: 'byte' },
      u: { type: 'string', format: 'uuid' },
      i: { type: 'integer', format: 'int32' },
    }),
    value: { t: 'yesterday', d: '2024-02-30', du: 'forever', by: '***', u: 'not-a-uuid', i: 99999999999 },
    causes: [
      'spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"',
      'spec.d: Invalid value: "2024-02-30": spec.d in body must be of type date: "2024-02-30"',
      'spec.du: Invalid value: "forever": spec.du in body must be of type duration: "forever"',
      'spec.by: Invalid value: "***": spec.by in body must be of type byte: "***"',
      'spec.u: Invalid value: "not-a-uuid": spec.u in body must be of type uuid: "not-a-uuid"',
    ],
  },
  {
    name: 'formats: valid values pass',
    spec: object({
      t: { type: 'string', format: 'date-time' },
      du: { type: 'string', format: 'duration' },
      u: { type: 'string', format: 'uuid' },
    }),
    value: { t: '2024-05-01T08:00:00.5+02:00', du: '1h30m', u: '123e4567-e89b-12d3-a456-426614174000' },
    causes: [],
  },
  {
    name: 'enum',
    spec: object({ color: { type: 'string', enum: ['red', 'blue'] } }),
    value: { color: 'green' },
    causes: ['spec.color: Unsupported value: "green": supported values: "red", "blue"'],
  },
  {
    name: 'pattern (RE2)',
    spec: object({ name: { type: 'string', pattern: '^[a-z0-9-]+$' } }),
    value: { name: 'Web_1' },
    causes: [`spec.name: Invalid value: "Web_1": spec.name in body should match '^[a-z0-9-]+$'`],
  },
  {
    name: 'pattern: a pathological pattern runs in linear time (no backtracking)',
    spec: object({ s: { type: 'string', pattern: '^(a+)+$' } }),
    value: { s: `${'a'.repeat(50_000)}!` },
    causes: [`spec.s in body should match '^(a+)+$'`],
  },
  {
    name: 'minimum, maximum and their exclusive forms, multipleOf',
    spec: object({
      lo: { type: 'integer', minimum: 1 },
      hi: { type: 'integer', maximum: 10, exclusiveMaximum: true },
      big: { type: 'number', minimum: 1000000 },
      m: { type: 'integer', multipleOf: 5 },
    }),
    value: { lo: 0, hi: 10, big: 5, m: 7 },
    causes: [
      'spec.lo: Invalid value: 0: spec.lo in body should be greater than or equal to 1',
      'spec.hi: Invalid value: 10: spec.hi in body should be less than 10',
      'spec.big: Invalid value: 5: spec.big in body should be greater than or equal to 1e+06',
      'spec.m: Invalid value: 7: spec.m in body should be a multiple of 5',
    ],
  },
  {
    name: 'minLength and maxLength count characters',
    spec: object({ s: { type: 'string', minLength: 3 }, t: { type: 'string', maxLength: 4 } }),
    value: { s: 'ab', t: 'héllo' },
    causes: [
      'spec.s: Invalid value: "ab": spec.s in body should be at least 3 chars long',
      'spec.t: Too long: may not be longer than 4',
    ],
  },
  {
    name: 'minItems, maxItems, minProperties, maxProperties',
    spec: object({
      l: { type: 'array', items: { type: 'string' }, minItems: 1 },
      k: { type: 'array', items: { type: 'string' }, maxItems: 2 },
      p: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 },
      q: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 },
    }),
    value: { l: [], k: ['a', 'b', 'c'], p: {}, q: { a: 'x', b: 'y' } },
    causes: [
      'spec.l: Invalid value: 0: spec.l in body should have at least 1 items',
      'spec.k: Too many: 3: must have at most 2 items',
      'spec.p: Invalid value: 0: spec.p in body should have at least 1 properties',
      'spec.q: Too many: 2: must have at most 1 items',
    ],
  },
  {
    name: 'required',
    spec: object({ name: { type: 'string' } }, { required: ['name'] }),
    value: {},
    causes: ['spec.name: Required value'],
  },
  {
    name: 'list items are addressed with dots, as the real validator names them',
    spec: object({ list: { type: 'array', items: object({ port: { type: 'integer' } }) } }),
    value: { list: [{ port: 1 }, { port: 'http' }] },
    causes: [
      'spec.list.1.port: Invalid value: "string": spec.list.1.port in body must be of type integer: "string"',
    ],
  },
  {
    name: 'nullable keeps null; other nulls are dropped (or defaulted)',
    spec: object({
      a: { type: 'string', nullable: true },
      b: { type: 'string' },
      c: { type: 'string', default: 'x' },
    }),
    value: { a: null, b: null, c: null },
    causes: [],
    stored: { a: null, c: 'x' },
  },
  {
    name: 'int-or-string is an integer or a string',
    spec: object({ port: { 'x-orch-int-or-string': true }, other: { 'x-orch-int-or-string': true } }),
    value: { port: true, other: '80%' },
    causes: [
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ],
  },
  {
    name: 'embedded resources need apiVersion and kind; their metadata is pruned to ObjectMeta',
    spec: object({
      template: { type: 'object', 'x-orch-embedded-resource': true, 'x-orch-preserve-unknown-fields': true },
    }),
    value: { template: { apiVersion: 'v1', metadata: { name: 'x' }, spec: {} } },
    causes: ['spec.template.kind: Required value: must not be empty'],
  },
  {
    name: 'preserve-unknown-fields keeps what the schema does not name',
    spec: object({ known: { type: 'string' } }, { 'x-orch-preserve-unknown-fields': true }),
    value: { known: 'a', extra: { deep: [1, 2] } },
    causes: [],
    stored: { known: 'a', extra: { deep: [1, 2] } },
  },
  {
    name: 'list-type set items are unique',
    spec: object({ tags: { type: 'array', 'x-orch-list-type': 'set', items: { type: 'string' } } }),
    value: { tags: ['a', 'b', 'a'] },
    causes: ['spec.tags[2]: Duplicate value: "a"'],
  },
  {
    name: 'list-type map keys are unique',
    spec: object({
      ports: {
        type: 'array',
        'x-orch-list-type': 'map',
        'x-orch-list-map-keys': ['name'],
        items: object({ name: { type: 'string' }, port: { type: 'integer' } }, { required: ['name'] }),
      },
    }),
    value: {
      ports: [
        { name: 'http', port: 80 },
        { name: 'http', port: 8080 },
      ],
    },
    causes: ['spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}'],
  },
  {
    name: 'anyOf failures are reported as the real server reports them',
    spec: object({ x: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] } }),
    value: { x: 'c' },
    causes: [
      `<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`,
      `spec.x in body should match '^a'`,
    ],
  },
];

describe('custom resource validation against the OpenAPI schema', () => {
  for (const s of valueScenarios) {
    it(s.name, async () => {
      const path = await established(s.spec);
      const r = await host.request('POST', path, { body: widget(groupOf(path), 'w1', s.value) });
      if (s.causes.length === 0) {
        expect(r.status, r.text).toBe(201);
        if (s.stored !== undefined) expect(r.body.spec).toEqual(s.stored);
        return;
      }
      expectCauses(r, s.causes);
      expect(r.body.message).toMatch(
        new RegExp(`^Widget\\.${groupOf(path).replace(/\./g, '\\.')} "w1" is invalid: `),
      );
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Serving custom resources

describe('custom resources', () => {
  it('appear in discovery and OpenAPI as soon as the CRD is Established, and go with it', async () => {
    const group = nextGroup();
    const schema = withSpec(
      object({ size: { type: 'integer', description: 'How big.' } }, { description: 'The spec.' }),
    );
    await createEstablished(
      host,
      crdBody(schema, {
        group,
        names: { shortNames: ['wd'], categories: ['all'] },
        version: { subresources: { status: {} } },
      }),
    );
    const list = await host.request('GET', `/apis/${group}/v1`);
    expect(list.status).toBe(200);
    expect(list.body.resources.map((r: Json) => r.name)).toEqual(['widgets', 'widgets/status']);
    expect(list.body.resources[0]).toMatchObject({
      kind: 'Widget',
      namespaced: true,
      shortNames: ['wd'],
      categories: ['all'],
    });
    const groupsList = await host.request('GET', '/apis');
    expect(groupsList.body.groups.map((g: Json) => g.name)).toContain(group);
    const index = await host.request('GET', '/openapi/v3');
    expect(Object.keys(index.body.paths)).toContain(`apis/${group}/v1`);
    const doc = await host.request('GET', `/openapi/v3/apis/${group}/v1`);
    const name = `${group.split('.').reverse().join('.')}.v1.Widget`;
    expect(doc.body.components.schemas[name].properties.spec).toMatchObject({
      type: 'object',
      description: 'The spec.',
      properties: { size: { type: 'integer', description: 'How big.' } },
    });
    expect(doc.body.components.schemas[name]['x-orch-group-version-kind']).toEqual([
      { group, kind: 'Widget', version: 'v1' },
    ]);

    const del = await host.request('DELETE', `${crdsPath()}/widgets.${group}`);
    expect(del.status).toBe(200);
    await eventually(
      async () => ((await host.request('GET', `/apis/${group}/v1`)).status === 404 ? true : undefined),
      'the group to go',
    );
    expect(Object.keys((await host.request('GET', '/openapi/v3')).body.paths)).not.toContain(
      `apis/${group}/v1`,
    );
  });

  it('prunes unknown fields: dropped silently (Ignore), with a Warning (Warn), or a 400 (Strict)', async () => {
    const path = await established(
      object({ known: { type: 'string' }, nested: object({ a: { type: 'string' } }) }),
    );
    const group = groupOf(path);
    const body = (name: string): Json => ({
      ...widget(group, name, { known: 'k', unknown: 1, nested: { a: 'x', b: 2 } }),
      bogus: true,
    });
    const ignore = await host.request('POST', `${path}?fieldValidation=Ignore`, { body: body('a') });
    expect(ignore.status).toBe(201);
    expect(warnings(ignore)).toEqual([]);
    expect(ignore.body.spec).toEqual({ known: 'k', nested: { a: 'x' } });
    expect(ignore.body.bogus).toBeUndefined();
    const warn = await host.request('POST', path, { body: body('b') });
    expect(warn.status).toBe(201);
    expect(warnings(warn)).toEqual([
      'unknown field "bogus"',
      'unknown field "spec.nested.b"',
      'unknown field "spec.unknown"',
    ]);
    const strict = await host.request('POST', `${path}?fieldValidation=Strict`, { body: body('c') });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "bogus", unknown field "spec.nested.b", unknown field "spec.unknown"',
    );
  });

  it('defaults on create, on update and on read (after the schema gains a default)', async () => {
    const group = nextGroup();
    const spec = (withDefault: boolean): Json =>
      object({
        replicas: { type: 'integer', default: 1 },
        tier: { type: 'string', ...(withDefault ? { default: 'gold' } : {}) },
        nested: object({ a: { type: 'string', default: 'x' } }, { default: {} }),
      });
    const crd = await createEstablished(host, crdBody(withSpec(spec(false)), { group }));
    const path = `/apis/${group}/v1/namespaces/default/widgets`;
    const created = await host.request('POST', path, { body: widget(group, 'w1', {}) });
    expect(created.body.spec).toEqual({ replicas: 1, nested: { a: 'x' } });
    const updated = await host.request('PUT', `${path}/w1`, {
      body: { ...created.body, spec: { replicas: 3 } },
    });
    expect(updated.body.spec).toEqual({ replicas: 3, nested: { a: 'x' } });
    const fresh = (await host.request('GET', `${crdsPath()}/widgets.${group}`)).body as Json;
    const versions = [
      { ...((fresh.spec as Json).versions as Json[])[0], schema: { openAPIV3Schema: withSpec(spec(true)) } },
    ];
    const changed = await host.request('PUT', `${crdsPath()}/widgets.${group}`, {
      body: { ...fresh, spec: { ...(fresh.spec as Json), versions } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(crd.metadata).toBeDefined();
    const read = await host.request('GET', `${path}/w1`);
    expect(read.body.spec).toEqual({ replicas: 3, tier: 'gold', nested: { a: 'x' } });
  });

  it('status subresource: the main resource ignores status, /status changes only status; generation follows spec', async () => {
    const path = await established(
      object({ size: { type: 'integer' } }),
      { version: { subresources: { status: {} } } },
      object({ ready: { type: 'boolean' } }),
    );
    const group = groupOf(path);
    const created = await host.request('POST', path, {
      body: widget(group, 'w1', { size: 1 }, { status: { ready: true } }),
    });
    expect(created.body.status).toBeUndefined();
    expect(created.body.metadata.generation).toBe(1);
    const status = await host.request('PUT', `${path}/w1/status`, {
      body: { ...created.body, spec: { size: 9 }, status: { ready: true } },
    });
    expect(status.body.spec).toEqual({ size: 1 });
    expect(status.body.status).toEqual({ ready: true });
    expect(status.body.metadata.generation).toBe(1);
    const labelled = await host.request('PUT', `${path}/w1`, {
      body: {
        ...status.body,
        metadata: { ...status.body.metadata, labels: { a: 'b' } },
        status: { ready: false },
      },
    });
    expect(labelled.body.metadata.generation).toBe(1);
    expect(labelled.body.status).toEqual({ ready: true });
    const grown = await host.request('PUT', `${path}/w1`, { body: { ...labelled.body, spec: { size: 2 } } });
    expect(grown.body.metadata.generation).toBe(2);
  });

  it('scale subresource maps the CRD JSONPaths to an autoscaling/v1 Scale', async () => {
    const path = await established(
      object({ replicas: { type: 'integer' }, selector: { type: 'string' } }),
      {
        version: {
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
        },
      },
      object({ replicas: { type: 'integer' }, selector: { type: 'string' } }),
    );
    const group = groupOf(path);
    const created = await host.request('POST', path, { body: widget(group, 'w1', { replicas: 2 }) });
    await host.request('PUT', `${path}/w1/status`, {
      body: { ...created.body, status: { replicas: 2, selector: 'app=web' } },
    });
    const scale = await host.request('GET', `${path}/w1/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 2, selector: 'app=web' },
    });
    const put = await host.request('PUT', `${path}/w1/scale`, {
      body: { ...scale.body, spec: { replicas: 5 } },
    });
    expect(put.status, put.text).toBe(200);
    expect((await host.request('GET', `${path}/w1`)).body.spec.replicas).toBe(5);
    const negative = await host.request('PUT', `${path}/w1`, {
      body: { ...(await host.request('GET', `${path}/w1`)).body, spec: { replicas: -1 } },
    });
    expectCauses(negative, ['.spec.replicas: Invalid value: -1: should be a non-negative integer']);
  });

  it('Table: Name and the additionalPrinterColumns, or Name and Age by default', async () => {
    const path = await established(
      object({ replicas: { type: 'integer' }, image: { type: 'string' }, ratio: { type: 'number' } }),
      {
        version: {
          additionalPrinterColumns: [
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            {
              name: 'Image',
              type: 'string',
              jsonPath: '.spec.image',
              priority: 1,
              description: 'The image.',
            },
            { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
            { name: 'Missing', type: 'string', jsonPath: '.spec.none' },
          ],
        },
      },
    );
    const group = groupOf(path);
    await host.request('POST', path, {
      body: widget(group, 'w1', { replicas: 3, image: 'nginx', ratio: 0.5 }),
    });
    const accept = { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' };
    const table = await host.request('GET', path, { headers: accept });
    expect(table.body.kind).toBe('Table');
    expect(table.body.columnDefinitions.map((c: Json) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Replicas', 'integer', 0],
      ['Image', 'string', 1],
      ['Ratio', 'number', 0],
      ['Missing', 'string', 0],
    ]);
    expect(table.body.columnDefinitions[2].description).toBe('The image.');
    expect(table.body.columnDefinitions[1].description).toBe(
      'Custom resource definition column (in JSONPath format): .spec.replicas',
    );
    expect(table.body.rows[0].cells).toEqual(['w1', 3, 'nginx', 0.5, null]);
    const plain = await established(object({}));
    await host.request('POST', plain, { body: widget(groupOf(plain), 'w2', {}) });
    const byDefault = await host.request('GET', plain, { headers: accept });
    expect(byDefault.body.columnDefinitions.map((c: Json) => c.name)).toEqual(['Name', 'Age']);
    expect(byDefault.body.rows[0].cells[0]).toBe('w2');
    expect(byDefault.body.rows[0].cells[1]).toMatch(/^\d+s$/);
  });

  it('several versions with conversion None: the apiVersion is relabelled, storage stays in the storage version', async () => {
    const group = nextGroup();
    const schema = { openAPIV3Schema: withSpec(object({ size: { type: 'integer' } })) };
    await createEstablished(
      host,
      crdBody(undefined, {
        group,
        versions: [
          { name: 'v1beta1', served: true, storage: false, schema, deprecated: true },
          { name: 'v1', served: true, storage: true, schema },
          { name: 'v1alpha1', served: false, storage: false, schema },
        ],
      }),
    );
    const discovery = await host.request('GET', `/apis/${group}`);
    expect(discovery.body.versions.map((v: Json) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(discovery.body.preferredVersion.version).toBe('v1');
    const created = await host.request('POST', `/apis/${group}/v1beta1/namespaces/default/widgets`, {
      body: { apiVersion: `${group}/v1beta1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe(`${group}/v1beta1`);
    expect(warnings(created)).toEqual([`${group}/v1beta1 Widget is deprecated`]);
    const read = await host.request('GET', `/apis/${group}/v1/namespaces/default/widgets/w1`);
    expect(read.body.apiVersion).toBe(`${group}/v1`);
    expect(read.body.spec).toEqual({ size: 1 });
    expect((await host.request('GET', `/apis/${group}/v1alpha1/namespaces/default/widgets`)).status).toBe(
      404,
    );
  });

  it('naming: a name another CRD of the group accepted is a NamesAccepted=False conflict until it is free', async () => {
    const group = nextGroup();
    await createEstablished(
      host,
      crdBody(withSpec(object({})), { group, plural: 'widgets', kind: 'Widget' }),
    );
    const second = crdBody(withSpec(object({})), {
      group,
      plural: 'gadgets',
      kind: 'Widget',
      names: { listKind: 'GadgetList' },
    });
    expect((await host.request('POST', crdsPath(), { body: second })).status).toBe(201);
    const conflicted = await eventually(async () => {
      const r = await host.request('GET', `${crdsPath()}/gadgets.${group}`);
      return condition(r.body as Json, 'NamesAccepted')?.status === 'False' ? (r.body as Json) : undefined;
    }, 'the kind conflict');
    expect(condition(conflicted, 'NamesAccepted')).toMatchObject({
      reason: 'KindConflict',
      message: '"Widget" is already in use',
    });
    expect(condition(conflicted, 'Established')).toMatchObject({
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    });
    expect((await host.request('GET', `/apis/${group}/v1/namespaces/default/gadgets`)).status).toBe(404);
    await host.request('DELETE', `${crdsPath()}/widgets.${group}`);
    await eventually(async () => {
      const r = await host.request('GET', `${crdsPath()}/gadgets.${group}`);
      return condition(r.body as Json, 'Established')?.status === 'True' ? true : undefined;
    }, 'the conflict to clear');
  });

  it('naming: a built-in resource of the same group is a conflict too (the built-in keeps being served)', async () => {
    const clash = crdBody(withSpec(object({})), {
      group: 'rbac.authorization.orch.io',
      plural: 'roles',
      kind: 'Rolle',
      metadata: { annotations: { 'api-approved.orch.io': 'unapproved, testing' } },
    });
    expect((await host.request('POST', crdsPath(), { body: clash })).status).toBe(201);
    const crd = await eventually(async () => {
      const r = await host.request('GET', `${crdsPath()}/roles.rbac.authorization.orch.io`);
      return condition(r.body as Json, 'NamesAccepted')?.status === 'False' ? (r.body as Json) : undefined;
    }, 'the plural conflict');
    expect(condition(crd, 'NamesAccepted')).toMatchObject({
      reason: 'PluralConflict',
      message: '"roles" is already in use',
    });
    expect((await host.request('GET', '/apis/rbac.authorization.orch.io/v1/roles')).body.kind).toBe(
      'RoleList',
    );
  });

  it('deleting the CRD deletes its objects first (Terminating), then the CRD; new objects are refused meanwhile', async () => {
    const path = await established(object({ size: { type: 'integer' } }));
    const group = groupOf(path);
    for (const n of ['a', 'b'])
      expect((await host.request('POST', path, { body: widget(group, n, { size: 1 }) })).status).toBe(201);
    const blocker = await host.request('POST', path, {
      body: widget(group, 'c', {}, { metadata: { name: 'c', finalizers: ['example.com/hold'] } }),
    });
    expect(blocker.status).toBe(201);
    const del = await host.request('DELETE', `${crdsPath()}/widgets.${group}`);
    expect(del.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.orch.io']);
    expect(condition(del.body as Json, 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionPending',
    });
    const waiting = await eventually(async () => {
      const r = await host.request('GET', `${crdsPath()}/widgets.${group}`);
      return condition(r.body as Json, 'Terminating')?.reason === 'InstanceDeletionInProgress'
        ? r
        : undefined;
    }, 'deletion in progress');
    expect(waiting.status).toBe(200);
    const refused = await host.request('POST', path, { body: widget(group, 'd', {}) });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('create not allowed while custom resource definition is terminating');
    await eventually(
      async () => ((await host.request('GET', path)).body.items?.length === 1 ? true : undefined),
      'a and b to go',
    );
    const held = (await host.request('GET', `${path}/c`)).body;
    await host.request('PUT', `${path}/c`, {
      body: { ...held, metadata: { ...held.metadata, finalizers: [] } },
    });
    await eventually(
      async () =>
        (await host.request('GET', `${crdsPath()}/widgets.${group}`)).status === 404 ? true : undefined,
      'the CRD to go',
    );
    expect((await host.request('GET', path)).status).toBe(404);
  });

  it('custom resources are JSON only: 406 when protobuf is the only acceptable type, 415 for strategic merge patch', async () => {
    const path = await established(object({ size: { type: 'integer' } }));
    await host.request('POST', path, { body: widget(groupOf(path), 'w1', { size: 1 }) });
    const pb = await host.request('GET', `${path}/w1`, {
      headers: { accept: 'application/vnd.orch.protobuf' },
    });
    expect(pb.status).toBe(406);
    const either = await host.request('GET', `${path}/w1`, {
      headers: { accept: 'application/vnd.orch.protobuf, application/json' },
    });
    expect(either.status).toBe(200);
    expect(either.headers.get('content-type')).toContain('application/json');
    const smp = await host.request('PATCH', `${path}/w1`, {
      body: { spec: { size: 2 } },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(smp.status).toBe(415);
    const merge = await host.request('PATCH', `${path}/w1`, {
      body: { spec: { size: 2 } },
      contentType: 'application/merge-patch+json',
    });
    expect(merge.body.spec).toEqual({ size: 2 });
  });

  it('server-side apply merges lists by the x-orch-list-map-keys the schema declares', async () => {
    const path = await established(
      object({
        ports: {
          type: 'array',
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['name'],
          items: object({ name: { type: 'string' }, port: { type: 'integer' } }, { required: ['name'] }),
        },
      }),
    );
    const group = groupOf(path);
    const apply = (manager: string, ports: Json[]) =>
      host.request('PATCH', `${path}/w1?fieldManager=${manager}`, {
        body: JSON.stringify(widget(group, 'w1', { ports })),
        contentType: 'application/apply-patch+yaml',
      });
    expect((await apply('one', [{ name: 'http', port: 80 }])).status).toBe(201);
    const second = await apply('two', [{ name: 'https', port: 443 }]);
    expect(second.status, second.text).toBe(200);
    expect(second.body.spec.ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The CEL module's scenario table, replayed as CRDs and objects

/** Runtime-cost scenarios feed 200k-character strings; the HTTP replay lets the schema hold them. */
function httpSchema(s: CelScenario): Json {
  const schema = openAPISchema(scenarioSchema(s)) as Json;
  if (s.area !== 'runtime-cost') return schema;
  const props = { ...(schema.properties as Json) };
  props.text = { ...(props.text as Json), maxLength: 200_000 };
  return { ...schema, properties: props };
}

describe('CEL validation rules (the CEL scenario table over HTTP)', () => {
  let n = 0;
  for (const s of celScenarios) {
    it(`${s.area}: ${s.name}`, async () => {
      const root = s.resourceRoot === true;
      const group = root ? 'example.com' : `cel${++n}.example.com`;
      const schema = root ? httpSchema(s) : withSpec(httpSchema(s));
      const body = crdBody(schema, { group, scope: root ? 'Cluster' : 'Namespaced' });
      const rulesAt = root ? S : SPEC;
      if (s.rejects !== undefined) {
        const r = await host.request('POST', crdsPath(), { body });
        expect(r.status, r.text).toBe(422);
        const list = (r.body.details.causes as Json[]).map((c) => ({
          field: c.field as string,
          message: c.message as string,
        }));
        for (const want of s.rejects) {
          const at = `${rulesAt}.x-orch-validations[${want.rule}].${want.field}`;
          const got = list.find((c) => c.field === at && c.message.includes(want.contains));
          expect(got, `${at}: ${want.contains}\n${JSON.stringify(list, null, 1)}`).toBeDefined();
          if (want.line !== undefined)
            expect(got?.message).toContain(`<input>:${want.line}:${want.column ?? 0}:`);
        }
        return;
      }
      await createEstablished(host, body);
      const base = root ? `/apis/${group}/v1/widgets` : `/apis/${group}/v1/namespaces/default/widgets`;
      let i = 0;
      for (const check of s.checks ?? []) {
        const name = `c${++i}`;
        const make = (value: JsonValue): Json =>
          root
            ? { ...(value as Json), metadata: { name, ...((value as Json).metadata as Json) } }
            : widget(group, name, value);
        let r: TestResponse;
        if (check.oldSelf !== undefined) {
          const first = await host.request('POST', base, { body: make(check.oldSelf) });
          expect(first.status, first.text).toBe(201);
          r = await host.request('PUT', `${base}/${(first.body.metadata as Json).name as string}`, {
            body: { ...make(check.self), metadata: { ...first.body.metadata } },
          });
        } else r = await host.request('POST', base, { body: make(check.self) });
        if (check.errors.length === 0) {
          expect(r.status, r.text).toBeLessThan(300);
          continue;
        }
        expect(r.status, r.text).toBe(422);
        const messages = (r.body.details.causes as Json[]).map((c) => c.message as string);
        for (const e of check.errors)
          expect(
            messages.some((m) => m.includes(e)),
            `${e}\n${messages.join('\n')}`,
          ).toBe(true);
      }
    });
  }

  it('transition rules run only on update, with the old value', async () => {
    const path = await established(
      object({
        mode: {
          type: 'string',
          'x-orch-validations': [{ rule: 'self == oldSelf', message: 'mode is immutable' }],
        },
      }),
    );
    const created = await host.request('POST', path, { body: widget(groupOf(path), 'w1', { mode: 'a' }) });
    expect(created.status).toBe(201);
    const changed = await host.request('PUT', `${path}/w1`, {
      body: { ...created.body, spec: { mode: 'b' } },
    });
    expectCauses(changed, ['spec.mode: Invalid value: "string": mode is immutable']);
  });

  it('reason and fieldPath shape the error, messageExpression builds its text', async () => {
    const path = await established(
      object(
        { replicas: { type: 'integer' }, max: { type: 'integer' } },
        {
          'x-orch-validations': [
            {
              rule: 'self.replicas <= self.max',
              messageExpression: "'replicas must be at most ' + (self.max < 10 ? 'a small' : 'the') + ' max'",
              reason: 'FieldValueForbidden',
              fieldPath: '.replicas',
            },
          ],
        },
      ),
    );
    const r = await host.request('POST', path, {
      body: widget(groupOf(path), 'w1', { replicas: 9, max: 5 }),
    });
    expectCauses(r, ['spec.replicas: Forbidden: replicas must be at most a small max']);
    expect(r.body.details.causes[0].reason).toBe('FieldValueForbidden');
  });

  it('rules do not run on an object that fails its schema', async () => {
    const path = await established(
      object({ n: { type: 'integer' } }, { 'x-orch-validations': [{ rule: 'self.n > 0' }] }),
    );
    const r = await host.request('POST', path, { body: widget(groupOf(path), 'w1', { n: 'x' }) });
    expectCauses(r, [
      'spec.n: Invalid value: "string": spec.n in body must be of type integer: "string"',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// kubectl

const skip = kubectlSkipReason();

describe.skipIf(skip !== undefined)('kubectl against custom resources (profile kubernetes)', () => {
  let kube: TestHost;
  const k = (args: string[], input?: string) => kubectl(kube.kubeconfigPath, args, input);
  beforeAll(async () => {
    kube = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(async () => {
    await kube.close();
  });

  const crdYaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct]}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the cron tab runs and when.
            x-kubernetes-validations:
            - rule: self.replicas <= 10
              message: at most 10 replicas
            properties:
              cronSpec: {type: string, pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', description: The schedule.}
              replicas: {type: integer, minimum: 1, maximum: 100}
`;

  it('apply a CRD, then a valid and an invalid custom resource; get with printer columns; explain', async () => {
    const applied = await k(['apply', '-f', '-'], crdYaml);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain(
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created',
    );
    await eventually(async () => {
      const r = await kube.request(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com',
      );
      return condition(r.body as Json, 'Established')?.status === 'True' ? true : undefined;
    }, 'crontabs to be Established');
    const good = await k(
      ['apply', '-f', '-'],
      'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: nightly, namespace: default}\nspec: {cronSpec: "0 2 * * *", replicas: 2}\n',
    );
    expect(good.stdout).toContain('crontab.stable.example.com/nightly created');
    const bad = await k(
      ['apply', '-f', '-'],
      'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: broken, namespace: default}\nspec: {cronSpec: "whenever", replicas: 0}\n',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('The CronTab "broken" is invalid');
    expect(bad.stderr).toContain(
      'spec.cronSpec: Invalid value: "whenever": spec.cronSpec in body should match',
    );
    expect(bad.stderr).toContain(
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    );
    const tooMany = await k(
      ['apply', '-f', '-'],
      'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: big, namespace: default}\nspec: {cronSpec: "* * * * *", replicas: 20}\n',
    );
    expect(tooMany.stderr).toContain('spec: Invalid value: "object": at most 10 replicas');
    const unknown = await k(
      ['apply', '-f', '-'],
      'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: odd, namespace: default}\nspec: {cronSpec: "* * * * *", replicas: 1, color: red}\n',
    );
    expect(unknown.stderr).toContain('unknown field "spec.color"');
    const get = await k(['get', 'crontabs']);
    expect(get.stdout.split('\n')[0]).toMatch(/^NAME\s+SPEC\s+REPLICAS$/);
    expect(get.stdout).toMatch(/nightly\s+0 2 \* \* \*\s+2/);
    const short = await k(['get', 'ct', '-o', 'name']);
    expect(short.stdout.trim()).toBe('crontab.stable.example.com/nightly');
    const explain = await k(['explain', 'crontab.spec']);
    expect(explain.stdout).toContain('What the cron tab runs and when.');
    expect(explain.stdout).toMatch(/cronSpec\s+<string>/);
    expect(explain.stdout).toContain('The schedule.');
    const deleted = await k(['delete', '-f', '-'], crdYaml);
    expect(deleted.stdout).toContain(
      'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted',
    );
    expect(
      (await kube.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs')).status,
    ).toBe(404);
  });
});
