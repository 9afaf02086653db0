/**
 * Rule scenarios as data: a schema node, its `x-orch-validations` rules, and
 * either the errors the CRD create must report (compile errors with their
 * position, estimated-cost rejections) or values with the exact messages
 * validation must produce. `scenarios.test.ts` runs them against this
 * module; the CRD layer replays the same table over HTTP (schema under
 * `spec`, or as the whole resource when `resourceRoot`).
 */

import type { JsonValue } from '../api/meta';
import type { SchemaNode, ValidationRule } from '../machinery/schema';

export type ScenarioArea =
  | 'type-mapping'
  | 'escaping'
  | 'library'
  | 'transition'
  | 'message'
  | 'compile-error'
  | 'cost'
  | 'runtime-cost';

export interface ScenarioRejection {
  /** Index of the rule in `rules`. */
  rule: number;
  field: 'rule' | 'messageExpression';
  /** A fragment of the error detail. */
  contains: string;
  /** Position of a compile error (1-based). */
  line?: number;
  column?: number;
}

export interface ScenarioCheck {
  self: JsonValue;
  /** Present for updates. */
  oldSelf?: JsonValue;
  /** The exact messages, in rule order; empty when the value is valid. */
  errors: string[];
}

export interface CelScenario {
  name: string;
  area: ScenarioArea;
  schema: SchemaNode;
  rules: ValidationRule[];
  /** The schema is the resource root (apiVersion, kind, metadata.name, metadata.generateName are visible). */
  resourceRoot?: boolean;
  /** CRD create/update must fail with exactly these errors. */
  rejects?: ScenarioRejection[];
  checks?: ScenarioCheck[];
}

const int: SchemaNode = { type: 'integer' };
const str: SchemaNode = { type: 'string' };
const bounded = (maxLength: number): SchemaNode => ({ type: 'string', maxLength });
const obj = (properties: Record<string, SchemaNode>, extra: Partial<SchemaNode> = {}): SchemaNode => ({
  type: 'object',
  properties,
  ...extra,
});
const list = (items: SchemaNode, extra: Partial<SchemaNode> = {}): SchemaNode => ({
  type: 'array',
  items,
  ...extra,
});

const replicas = obj({ replicas: int, minReplicas: int, maxReplicas: int });
const ports = list(obj({ name: str, port: int }, { required: ['name'] }), {
  listType: 'map',
  listMapKeys: ['name'],
  maxItems: 16,
});
const LONG = 'a'.repeat(200_000);
const REGEX_180 = `^(${'a|'.repeat(88)}a)+$`;
const REGEX_400 = `^(${'a|'.repeat(198)}a)+$`;

export const scenarios: CelScenario[] = [
  // Type mapping
  {
    name: 'object with properties: fields are typed',
    area: 'type-mapping',
    schema: replicas,
    rules: [
      {
        rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
        message: 'replicas must be between minReplicas and maxReplicas',
      },
    ],
    checks: [
      { self: { minReplicas: 1, replicas: 3, maxReplicas: 5 }, errors: [] },
      {
        self: { minReplicas: 1, replicas: 7, maxReplicas: 5 },
        errors: ['replicas must be between minReplicas and maxReplicas'],
      },
    ],
  },
  {
    name: 'object: an undeclared field is a compile error at its position',
    area: 'type-mapping',
    schema: replicas,
    rules: [{ rule: 'self.replicas > 0 && self.replica > 0' }],
    rejects: [{ rule: 0, field: 'rule', contains: "undefined field 'replica'", line: 1, column: 26 }],
  },
  {
    name: 'additionalProperties is a map',
    area: 'type-mapping',
    schema: obj({ labels: { type: 'object', additionalProperties: str } }),
    rules: [
      { rule: "'app' in self.labels && self.labels['app'] != ''" },
      { rule: 'self.labels.all(k, self.labels[k].size() <= 10)' },
    ],
    checks: [
      { self: { labels: { app: 'web' } }, errors: [] },
      {
        self: { labels: { tier: 'a-very-long-label' } },
        errors: [
          "failed rule: 'app' in self.labels && self.labels['app'] != ''",
          'failed rule: self.labels.all(k, self.labels[k].size() <= 10)',
        ],
      },
    ],
  },
  {
    name: 'embedded resource: apiVersion, kind and metadata.name are there implicitly',
    area: 'type-mapping',
    schema: obj({ template: { type: 'object', embeddedResource: true, preserveUnknownFields: true } }),
    rules: [{ rule: "self.template.kind == 'Pod' && self.template.metadata.name.startsWith('web-')" }],
    checks: [
      {
        self: {
          template: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'web-1', labels: { a: 'b' } },
            spec: {},
          },
        },
        errors: [],
      },
      {
        self: { template: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web-1' } } },
        errors: [
          "failed rule: self.template.kind == 'Pod' && self.template.metadata.name.startsWith('web-')",
        ],
      },
    ],
  },
  {
    name: 'embedded resource: other metadata is not visible',
    area: 'type-mapping',
    schema: obj({ template: { type: 'object', embeddedResource: true, preserveUnknownFields: true } }),
    rules: [{ rule: "self.template.metadata.labels['a'] == 'b'" }],
    rejects: [{ rule: 0, field: 'rule', contains: "undefined field 'labels'" }],
  },
  {
    name: 'resource root: metadata.name and apiVersion',
    area: 'type-mapping',
    resourceRoot: true,
    schema: obj({ spec: obj({ size: int }) }),
    rules: [
      {
        rule: 'self.metadata.name.size() <= 10 && self.apiVersion.startsWith("example.com/")',
        message: 'short names only',
      },
    ],
    checks: [
      {
        self: {
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name: 'w1', namespace: 'ns' },
          spec: { size: 1 },
        },
        errors: [],
      },
      {
        self: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a-rather-long-name' } },
        errors: ['short names only'],
      },
    ],
  },
  {
    name: 'preserve-unknown-fields: unknown fields are not accessible',
    area: 'type-mapping',
    schema: obj({ known: str }, { preserveUnknownFields: true }),
    rules: [{ rule: "self.known == 'x'" }, { rule: "self.unknown == 'x'" }],
    rejects: [{ rule: 1, field: 'rule', contains: "undefined field 'unknown'" }],
  },
  {
    name: 'int-or-string is a union of int and string',
    area: 'type-mapping',
    schema: obj({ port: { intOrString: true } }),
    rules: [
      {
        rule: "type(self.port) == int ? self.port < 1024 : self.port.endsWith('%')",
        message: 'port must be below 1024 or a percentage',
      },
    ],
    checks: [
      { self: { port: 80 }, errors: [] },
      { self: { port: '50%' }, errors: [] },
      { self: { port: 8080 }, errors: ['port must be below 1024 or a percentage'] },
      { self: { port: 'http' }, errors: ['port must be below 1024 or a percentage'] },
    ],
  },
  {
    name: 'int-or-string compares with any number (heterogeneous equality)',
    area: 'type-mapping',
    schema: obj({ port: { intOrString: true } }),
    rules: [{ rule: 'self.port == 80.0 || self.port == "http"' }],
    checks: [
      { self: { port: 80 }, errors: [] },
      { self: { port: 'http' }, errors: [] },
      { self: { port: 81 }, errors: ['failed rule: self.port == 80.0 || self.port == "http"'] },
    ],
  },
  {
    name: 'number is double: comparing with an int literal does not compile',
    area: 'type-mapping',
    schema: obj({ ratio: { type: 'number' } }),
    rules: [{ rule: 'self.ratio > 0.5' }, { rule: 'self.ratio == 1' }],
    rejects: [
      {
        rule: 1,
        field: 'rule',
        contains: "found no matching overload for '_==_' applied to '(double, int)'",
      },
    ],
  },
  {
    name: 'number is double, integer is int (64-bit, overflow is an error)',
    area: 'type-mapping',
    schema: obj({ ratio: { type: 'number' }, count: int }),
    rules: [{ rule: 'self.ratio >= 0.5' }, { rule: 'self.count * self.count > 0' }],
    checks: [
      { self: { ratio: 1, count: 3 }, errors: [] },
      {
        self: { ratio: 0.25, count: 3037000500 },
        errors: [
          'failed rule: self.ratio >= 0.5',
          'integer overflow evaluating rule: self.count * self.count > 0',
        ],
      },
    ],
  },
  {
    name: 'atomic lists compare in order',
    area: 'type-mapping',
    schema: obj({ steps: list(str) }),
    rules: [{ rule: 'self.steps == oldSelf.steps', message: 'steps are immutable' }],
    checks: [
      { self: { steps: ['a', 'b'] }, oldSelf: { steps: ['a', 'b'] }, errors: [] },
      { self: { steps: ['b', 'a'] }, oldSelf: { steps: ['a', 'b'] }, errors: ['steps are immutable'] },
    ],
  },
  {
    name: 'set lists compare as sets',
    area: 'type-mapping',
    schema: obj({ tags: list(str, { listType: 'set' }) }),
    rules: [{ rule: 'self.tags == oldSelf.tags', message: 'tags are immutable' }],
    checks: [
      { self: { tags: ['b', 'a'] }, oldSelf: { tags: ['a', 'b'] }, errors: [] },
      { self: { tags: ['a', 'c'] }, oldSelf: { tags: ['a', 'b'] }, errors: ['tags are immutable'] },
    ],
  },
  {
    name: 'map lists compare by key, order ignored',
    area: 'type-mapping',
    schema: obj({ ports }),
    rules: [{ rule: 'self.ports == oldSelf.ports', message: 'ports are immutable' }],
    checks: [
      {
        self: {
          ports: [
            { name: 'b', port: 2 },
            { name: 'a', port: 1 },
          ],
        },
        oldSelf: {
          ports: [
            { name: 'a', port: 1 },
            { name: 'b', port: 2 },
          ],
        },
        errors: [],
      },
      {
        self: {
          ports: [
            { name: 'a', port: 9 },
            { name: 'b', port: 2 },
          ],
        },
        oldSelf: {
          ports: [
            { name: 'a', port: 1 },
            { name: 'b', port: 2 },
          ],
        },
        errors: ['ports are immutable'],
      },
    ],
  },
  {
    name: 'set concatenation is a union keeping the left positions',
    area: 'type-mapping',
    schema: obj({ tags: list(str, { listType: 'set' }) }),
    rules: [
      { rule: "self.tags + ['a', 'z'] == ['b', 'a', 'z'] || self.tags.size() != 2", message: 'union' },
      { rule: "(self.tags + ['b'])[0] == self.tags[0]" },
    ],
    checks: [{ self: { tags: ['b', 'a'] }, errors: [] }],
  },
  {
    name: 'map-list concatenation merges: right values win for equal keys',
    area: 'type-mapping',
    schema: obj({ ports }),
    rules: [
      {
        rule: '(oldSelf.ports + self.ports).size() == self.ports.size()',
        message: 'ports may change but not be removed',
      },
      {
        rule: "(oldSelf.ports + self.ports).exists(p, p.name == 'a' && p.port == self.ports.filter(q, q.name == 'a')[0].port)",
      },
    ],
    checks: [
      {
        self: {
          ports: [
            { name: 'a', port: 9 },
            { name: 'b', port: 2 },
          ],
        },
        oldSelf: {
          ports: [
            { name: 'a', port: 1 },
            { name: 'b', port: 2 },
          ],
        },
        errors: [],
      },
      {
        self: { ports: [{ name: 'a', port: 9 }] },
        oldSelf: {
          ports: [
            { name: 'a', port: 1 },
            { name: 'b', port: 2 },
          ],
        },
        errors: ['ports may change but not be removed'],
      },
    ],
  },
  {
    name: 'string format byte is bytes',
    area: 'type-mapping',
    schema: obj({ data: { type: 'string', format: 'byte' } }),
    rules: [{ rule: 'size(self.data) == 3 && self.data == b"\\x01\\x02\\x03"' }],
    checks: [
      { self: { data: 'AQID' }, errors: [] },
      {
        self: { data: 'AQI=' },
        errors: ['failed rule: size(self.data) == 3 && self.data == b"\\x01\\x02\\x03"'],
      },
    ],
  },
  {
    name: 'string formats date and date-time are timestamps',
    area: 'type-mapping',
    schema: obj({ day: { type: 'string', format: 'date' }, start: { type: 'string', format: 'date-time' } }),
    rules: [{ rule: "self.day < self.start && self.start < timestamp('2030-01-01T00:00:00Z')" }],
    checks: [
      { self: { day: '2024-05-01', start: '2024-05-01T08:00:00+02:00' }, errors: [] },
      {
        self: { day: '2024-05-01', start: '2031-01-01T00:00:00Z' },
        errors: ["failed rule: self.day < self.start && self.start < timestamp('2030-01-01T00:00:00Z')"],
      },
    ],
  },
  {
    name: 'timestamps keep nanoseconds',
    area: 'type-mapping',
    schema: obj({
      start: { type: 'string', format: 'date-time' },
      end: { type: 'string', format: 'date-time' },
    }),
    rules: [{ rule: "self.end - self.start == duration('1ns') && self.start < self.end" }],
    checks: [
      { self: { start: '2024-01-01T00:00:00.123456789Z', end: '2024-01-01T00:00:00.12345679Z' }, errors: [] },
      {
        self: { start: '2024-01-01T00:00:00.123456789Z', end: '2024-01-01T00:00:00.123456789Z' },
        errors: ["failed rule: self.end - self.start == duration('1ns') && self.start < self.end"],
      },
    ],
  },
  {
    name: 'string format duration is a duration',
    area: 'type-mapping',
    schema: obj({ timeout: { type: 'string', format: 'duration' } }),
    rules: [
      {
        rule: "self.timeout <= duration('1h') && self.timeout > duration('0s')",
        message: 'timeout must be within an hour',
      },
    ],
    checks: [
      { self: { timeout: '90s' }, errors: [] },
      { self: { timeout: '2h30m' }, errors: ['timeout must be within an hour'] },
    ],
  },
  {
    name: 'boolean, and has() on optional fields',
    area: 'type-mapping',
    schema: obj({ enabled: { type: 'boolean' }, reason: str }),
    rules: [{ rule: 'self.enabled || has(self.reason)', message: 'a disabled item needs a reason' }],
    checks: [
      { self: { enabled: true }, errors: [] },
      { self: { enabled: false, reason: 'maintenance' }, errors: [] },
      { self: { enabled: false }, errors: ['a disabled item needs a reason'] },
    ],
  },
  // Escaping
  {
    name: 'escaping: dash, dot, slash and double underscore',
    area: 'escaping',
    schema: obj({ 'foo-bar': str, 'a.b': str, 'x/y': str, m__n: str }),
    rules: [
      {
        rule: "self.foo__dash__bar == 'd' && self.a__dot__b == 'o' && self.x__slash__y == 's' && self.m__underscores__n == 'u'",
      },
    ],
    checks: [{ self: { 'foo-bar': 'd', 'a.b': 'o', 'x/y': 's', m__n: 'u' }, errors: [] }],
  },
  {
    name: 'escaping: a property named like a keyword',
    area: 'escaping',
    schema: obj({ namespace: str, if: str, in: int }),
    rules: [{ rule: "self.__namespace__ == 'default' && self.__if__ == 'x' && self.__in__ == 1" }],
    checks: [
      { self: { namespace: 'default', if: 'x', in: 1 }, errors: [] },
      {
        self: { namespace: 'other', if: 'x', in: 1 },
        errors: ["failed rule: self.__namespace__ == 'default' && self.__if__ == 'x' && self.__in__ == 1"],
      },
    ],
  },
  {
    name: 'escaping: names outside the pattern are not accessible',
    area: 'escaping',
    schema: obj({ '1st': str, ok: str }),
    rules: [{ rule: "self.ok == 'x'" }, { rule: "self.__1st__ == 'x'" }],
    rejects: [{ rule: 1, field: 'rule', contains: "undefined field '__1st__'" }],
  },
  // Libraries
  {
    name: 'lists: indexOf and lastIndexOf',
    area: 'library',
    schema: obj({ names: list(bounded(16), { maxItems: 10 }) }),
    rules: [
      {
        rule: "self.names.indexOf('b') == 1 && self.names.lastIndexOf('b') == 3 && self.names.indexOf('z') == -1",
      },
    ],
    checks: [{ self: { names: ['a', 'b', 'c', 'b'] }, errors: [] }],
  },
  {
    name: 'lists: min and max (an empty list is an error)',
    area: 'library',
    schema: obj({ values: list(int, { maxItems: 10 }) }),
    rules: [{ rule: 'self.values.min() >= 0 && self.values.max() <= 100' }],
    checks: [
      { self: { values: [3, 0, 100] }, errors: [] },
      {
        self: { values: [3, 101] },
        errors: ['failed rule: self.values.min() >= 0 && self.values.max() <= 100'],
      },
      {
        self: { values: [] },
        errors: [
          'min called on empty list evaluating rule: self.values.min() >= 0 && self.values.max() <= 100',
        ],
      },
    ],
  },
  {
    name: 'lists: sum of numbers',
    area: 'library',
    schema: obj({ weights: list(int, { maxItems: 10 }), shares: list({ type: 'number' }, { maxItems: 10 }) }),
    rules: [
      { rule: 'self.weights.sum() == 100', message: 'weights must add up to 100' },
      { rule: 'self.shares.sum() <= 1.0' },
    ],
    checks: [
      { self: { weights: [50, 50], shares: [0.5, 0.25] }, errors: [] },
      { self: { weights: [50, 40], shares: [] }, errors: ['weights must add up to 100'] },
    ],
  },
  {
    name: 'lists: sum of durations',
    area: 'library',
    schema: obj({ phases: list({ type: 'string', format: 'duration' }, { maxItems: 10 }) }),
    rules: [{ rule: "self.phases.sum() <= duration('1h')", message: 'phases must fit in an hour' }],
    checks: [
      { self: { phases: ['20m', '30m'] }, errors: [] },
      { self: { phases: ['45m', '30m'] }, errors: ['phases must fit in an hour'] },
    ],
  },
  {
    name: 'lists: isSorted',
    area: 'library',
    schema: obj({ versions: list(int, { maxItems: 10 }) }),
    rules: [{ rule: 'self.versions.isSorted()', message: 'versions must be ascending' }],
    checks: [
      { self: { versions: [1, 2, 2, 5] }, errors: [] },
      { self: { versions: [1, 3, 2] }, errors: ['versions must be ascending'] },
    ],
  },
  {
    name: 'regex: matches with RE2 syntax',
    area: 'library',
    schema: obj({ name: bounded(63) }),
    rules: [{ rule: "self.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')", message: 'must be a DNS label' }],
    checks: [
      { self: { name: 'web-1' }, errors: [] },
      { self: { name: 'Web_1' }, errors: ['must be a DNS label'] },
    ],
  },
  {
    name: 'regex: find and findAll',
    area: 'library',
    schema: obj({ text: bounded(64) }),
    rules: [
      {
        rule: "self.text.find('[0-9]+') == '42' && self.text.findAll('[a-z]+') == ['abc', 'de'] && self.text.findAll('[a-z]+', 1) == ['abc']",
      },
    ],
    checks: [{ self: { text: 'abc 42 de 7' }, errors: [] }],
  },
  {
    name: 'regex: an invalid constant pattern fails at CRD time',
    area: 'library',
    schema: obj({ name: bounded(63) }),
    rules: [{ rule: "self.name.matches('a(b')" }],
    rejects: [{ rule: 0, field: 'rule', contains: 'error parsing regexp: missing closing )' }],
  },
  {
    name: 'regex: a pathological pattern runs in linear time',
    area: 'library',
    schema: obj({ text: bounded(100_000) }),
    rules: [{ rule: "!self.text.matches('^(a+)+$')", message: 'no runs of a' }],
    checks: [{ self: { text: `${'a'.repeat(50_000)}!` }, errors: [] }],
  },
  {
    name: 'url: isURL and the accessors',
    area: 'library',
    schema: obj({ endpoint: bounded(256) }),
    rules: [
      { rule: 'isURL(self.endpoint)', message: 'endpoint must be a URL' },
      {
        rule: "!isURL(self.endpoint) || (url(self.endpoint).getScheme() == 'https' && url(self.endpoint).getHostname() == 'example.com' && url(self.endpoint).getPort() == '8443' && url(self.endpoint).getHost() == 'example.com:8443')",
        message: 'https on example.com:8443',
      },
      {
        rule: "!isURL(self.endpoint) || (url(self.endpoint).getEscapedPath() == '/a%20b' && url(self.endpoint).getQuery()['x'] == ['1', '2'])",
        message: 'path and query',
      },
    ],
    checks: [
      { self: { endpoint: 'https://example.com:8443/a%20b?x=1&x=2' }, errors: [] },
      { self: { endpoint: 'not a url' }, errors: ['endpoint must be a URL'] },
      { self: { endpoint: 'http://example.com/a%20b?x=1&x=2' }, errors: ['https on example.com:8443'] },
    ],
  },
  {
    name: 'url: url() errors on invalid input',
    area: 'library',
    schema: obj({ endpoint: bounded(256) }),
    rules: [{ rule: "url(self.endpoint).getScheme() == 'https'" }],
    checks: [
      { self: { endpoint: 'https://example.com' }, errors: [] },
      {
        self: { endpoint: 'relative/path' },
        errors: [
          'URL parse error during conversion from string: parse "relative/path": invalid URI for request evaluating rule: url(self.endpoint).getScheme() == \'https\'',
        ],
      },
    ],
  },
  {
    name: 'strings extension: replace, split, charAt, lowerAscii, substring, join',
    area: 'library',
    schema: obj({ s: bounded(64) }),
    rules: [
      { rule: "self.s.replace('-', '_') == 'a_b_c'" },
      { rule: "self.s.split('-') == ['a', 'b', 'c']" },
      { rule: "self.s.charAt(2) == 'b' && self.s.substring(2, 3) == 'b'" },
      { rule: "'ABC'.lowerAscii() == 'abc' && ['a', 'b'].join('+') == 'a+b'" },
    ],
    checks: [
      { self: { s: 'a-b-c' }, errors: [] },
      {
        self: { s: 'x+y+z' },
        errors: [
          "failed rule: self.s.replace('-', '_') == 'a_b_c'",
          "failed rule: self.s.split('-') == ['a', 'b', 'c']",
          "failed rule: self.s.charAt(2) == 'b' && self.s.substring(2, 3) == 'b'",
        ],
      },
    ],
  },
  {
    name: 'standard macros: exists_one, filter, map',
    area: 'library',
    schema: obj({ ports }),
    rules: [
      {
        rule: "self.ports.exists_one(p, p.name == 'http') && self.ports.filter(p, p.port > 1000).size() == 1 && self.ports.map(p, p.port).sum() == 8160",
      },
    ],
    checks: [
      {
        self: {
          ports: [
            { name: 'http', port: 80 },
            { name: 'alt', port: 8080 },
          ],
        },
        errors: [],
      },
      {
        self: {
          ports: [
            { name: 'http', port: 80 },
            { name: 'http2', port: 81 },
          ],
        },
        errors: [
          "failed rule: self.ports.exists_one(p, p.name == 'http') && self.ports.filter(p, p.port > 1000).size() == 1 && self.ports.map(p, p.port).sum() == 8160",
        ],
      },
    ],
  },
  {
    name: 'has() on maps and objects',
    area: 'library',
    schema: obj({ labels: { type: 'object', additionalProperties: str }, spec: obj({ size: int }) }),
    rules: [
      { rule: 'has(self.labels.app) == has(self.spec.size)', message: 'an app label goes with a size' },
    ],
    checks: [
      { self: { labels: { app: 'x' }, spec: { size: 1 } }, errors: [] },
      { self: { labels: {}, spec: {} }, errors: [] },
      { self: { labels: { app: 'x' }, spec: {} }, errors: ['an app label goes with a size'] },
    ],
  },
  // Transition rules
  {
    name: 'transition rule: immutability, only on update',
    area: 'transition',
    schema: obj({ id: str }),
    rules: [{ rule: 'self.id == oldSelf.id', message: 'id is immutable' }],
    checks: [
      { self: { id: 'a' }, errors: [] },
      { self: { id: 'a' }, oldSelf: { id: 'a' }, errors: [] },
      { self: { id: 'b' }, oldSelf: { id: 'a' }, errors: ['id is immutable'] },
    ],
  },
  {
    name: 'transition rule: no scaling down by more than half',
    area: 'transition',
    schema: replicas,
    rules: [
      { rule: 'self.replicas >= oldSelf.replicas / 2', message: 'cannot scale down by more than half' },
    ],
    checks: [
      { self: { replicas: 1 }, errors: [] },
      { self: { replicas: 3 }, oldSelf: { replicas: 4 }, errors: [] },
      { self: { replicas: 1 }, oldSelf: { replicas: 4 }, errors: ['cannot scale down by more than half'] },
    ],
  },
  // Messages
  {
    name: 'messageExpression builds the message',
    area: 'message',
    schema: obj({ name: bounded(32), replicas: int, maxReplicas: int }),
    rules: [
      {
        rule: 'self.replicas <= self.maxReplicas',
        message: 'too many replicas',
        messageExpression: "self.name + ' has more replicas than maxReplicas'",
      },
    ],
    checks: [
      {
        self: { name: 'web', replicas: 9, maxReplicas: 5 },
        errors: ['web has more replicas than maxReplicas'],
      },
    ],
  },
  {
    name: 'messageExpression with string(int) is too costly to estimate (its length is unbounded)',
    area: 'message',
    schema: replicas,
    rules: [
      {
        rule: 'self.replicas <= self.maxReplicas',
        messageExpression: "'replicas ' + string(self.replicas) + ' exceeds maxReplicas'",
      },
    ],
    rejects: [
      {
        rule: 0,
        field: 'messageExpression',
        contains: 'estimated messageExpression cost exceeds budget by factor of more than 100x',
      },
    ],
  },
  {
    name: 'messageExpression must be a string',
    area: 'message',
    schema: replicas,
    rules: [{ rule: 'self.replicas <= self.maxReplicas', messageExpression: 'self.replicas' }],
    rejects: [
      { rule: 0, field: 'messageExpression', contains: 'messageExpression must evaluate to a string' },
    ],
  },
  {
    name: 'messageExpression that fails falls back to the message',
    area: 'message',
    schema: obj({ names: list(bounded(16), { maxItems: 4 }) }),
    rules: [
      {
        rule: 'self.names.size() > 0',
        message: 'names must not be empty',
        messageExpression: "self.names[0] + ' comes first'",
      },
    ],
    checks: [{ self: { names: [] }, errors: ['names must not be empty'] }],
  },
  // Compile errors
  {
    name: 'compile error: syntax error with position',
    area: 'compile-error',
    schema: replicas,
    rules: [{ rule: 'self.replicas >' }],
    rejects: [{ rule: 0, field: 'rule', contains: 'Syntax error', line: 1, column: 16 }],
  },
  {
    name: 'compile error: position on a later line',
    area: 'compile-error',
    schema: replicas,
    rules: [{ rule: 'self.replicas > 0 &&\n  self.maxReplicas > self.minReplica', message: 'ordering' }],
    rejects: [{ rule: 0, field: 'rule', contains: "undefined field 'minReplica'", line: 2, column: 26 }],
  },
  {
    name: 'compile error: a rule must be a bool',
    area: 'compile-error',
    schema: replicas,
    rules: [{ rule: 'self.replicas + 1' }],
    rejects: [{ rule: 0, field: 'rule', contains: 'cel expression must evaluate to a bool' }],
  },
  {
    name: 'compile error: unknown function and wrong argument types',
    area: 'compile-error',
    schema: replicas,
    rules: [{ rule: 'frobnicate(self.replicas)' }, { rule: "self.replicas.startsWith('1')" }],
    rejects: [
      { rule: 0, field: 'rule', contains: "found no matching overload for 'frobnicate' applied to '(int)'" },
      {
        rule: 1,
        field: 'rule',
        contains: "found no matching overload for 'startsWith' applied to 'int.(string)'",
      },
    ],
  },
  // Estimated cost
  {
    name: 'cost: nested loops over an unbounded list are rejected (add maxItems)',
    area: 'cost',
    schema: obj({ names: list(str) }),
    rules: [{ rule: 'self.names.all(a, self.names.all(b, a == b || a != b))' }],
    rejects: [
      {
        rule: 0,
        field: 'rule',
        contains:
          'estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      },
    ],
  },
  {
    name: 'cost: the same rule with maxItems and maxLength is accepted',
    area: 'cost',
    schema: obj({ names: list(bounded(64), { maxItems: 100 }) }),
    rules: [{ rule: 'self.names.all(a, self.names.exists_one(b, a == b))', message: 'names must be unique' }],
    checks: [
      { self: { names: ['a', 'b'] }, errors: [] },
      { self: { names: ['a', 'a'] }, errors: ['names must be unique'] },
    ],
  },
  {
    name: 'cost: regex cost grows with the string length (unbounded strings in an unbounded list)',
    area: 'cost',
    schema: obj({ hosts: list(str) }),
    rules: [
      {
        rule: "self.hosts.all(h, h.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'))",
      },
    ],
    rejects: [{ rule: 0, field: 'rule', contains: 'estimated rule cost exceeds budget' }],
  },
  {
    name: 'cost: bounded strings in a bounded list keep the regex affordable',
    area: 'cost',
    schema: obj({ hosts: list(bounded(253), { maxItems: 32 }) }),
    rules: [
      {
        rule: "self.hosts.all(h, h.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'))",
        message: 'hosts must be DNS names',
      },
    ],
    checks: [
      { self: { hosts: ['example.com', 'a.b'] }, errors: [] },
      { self: { hosts: ['Example.com'] }, errors: ['hosts must be DNS names'] },
    ],
  },
  // Runtime cost
  {
    name: 'runtime: one evaluation over the per-call limit stops validation',
    area: 'runtime-cost',
    schema: obj({ text: bounded(50_000) }),
    rules: [{ rule: `self.text.matches('${REGEX_400}')` }],
    checks: [
      {
        self: { text: LONG },
        errors: [
          `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.text.matches('${REGEX_400}')`,
        ],
      },
    ],
  },
  {
    name: 'runtime: the per-object budget runs out across rules',
    area: 'runtime-cost',
    schema: obj({ text: bounded(50_000) }),
    rules: Array.from({ length: 12 }, () => ({ rule: `self.text.matches('${REGEX_180}')` })),
    checks: [
      {
        self: { text: LONG },
        errors: [
          'validation failed due to running out of cost budget, no further validation rules will be run',
        ],
      },
    ],
  },
];

/**
 * A scenario schema as OpenAPI v3 JSON for a CRD, with the naming profile's marker prefix (`x-orch` or
 * `x-kubernetes`) and the rules as `<prefix>-validations`.
 */
export function openAPISchema(node: SchemaNode, prefix = 'x-orch'): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  if (node.type !== undefined) out.type = node.type;
  if (node.format !== undefined) out.format = node.format;
  if (node.nullable !== undefined) out.nullable = node.nullable;
  if (node.enum !== undefined) out.enum = node.enum;
  if (node.required !== undefined) out.required = node.required;
  for (const key of ['maxItems', 'maxLength', 'maxProperties'] as const)
    if (node[key] !== undefined) out[key] = node[key];
  if (node.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([k, v]) => [k, openAPISchema(v, prefix)]),
    );
  }
  if (node.items !== undefined) out.items = openAPISchema(node.items, prefix);
  if (node.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof node.additionalProperties === 'boolean'
        ? node.additionalProperties
        : openAPISchema(node.additionalProperties, prefix);
  }
  if (node.listType !== undefined) out[`${prefix}-list-type`] = node.listType;
  if (node.listMapKeys !== undefined) out[`${prefix}-list-map-keys`] = node.listMapKeys;
  if (node.intOrString === true) out[`${prefix}-int-or-string`] = true;
  if (node.preserveUnknownFields === true) out[`${prefix}-preserve-unknown-fields`] = true;
  if (node.embeddedResource === true) out[`${prefix}-embedded-resource`] = true;
  if (node.validations !== undefined) out[`${prefix}-validations`] = node.validations as unknown as JsonValue;
  return out;
}

/** A scenario's schema with its rules attached, ready for `openAPISchema`. */
export function scenarioSchema(scenario: CelScenario): SchemaNode {
  return { ...scenario.schema, validations: scenario.rules };
}
