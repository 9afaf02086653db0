// Strategic merge patch against the generated v1.27 schema facts of a
// Deployment: one row per directive and list strategy, with the result or
// the status and message the real server answers.
import { describe, expect, it } from 'vitest';
import { StatusError } from '../machinery/errors';
import { strategicMergePatch } from './strategic-merge-patch';
import { generatedDefinitions } from '../../test/support/generated-definitions';

const defs = generatedDefinitions;
const root = { ref: 'api.apps.v1.Deployment' };

function deployment(): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', labels: { a: '1', b: '2' }, finalizers: ['x', 'y'] },
    spec: {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'x' } },
        spec: {
          containers: [
            { name: 'a', image: 'a:1', args: ['x'], ports: [{ containerPort: 80, protocol: 'TCP' }] },
            { name: 'b', image: 'b:1' },
          ],
          volumes: [{ name: 'v1', emptyDir: {} }],
          tolerations: [{ key: 'k1' }],
        },
      },
    },
  };
}

type Obj = Record<string, unknown>;
const podSpec = (patch: Obj): Obj => ({ spec: { template: { spec: patch } } });
const get = (o: Obj, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v as Obj | undefined)?.[k], o);
const names = (list: unknown): unknown[] => (list as Obj[]).map((c) => c.name ?? c.containerPort ?? c.key);

interface Row {
  name: string;
  patch: unknown;
  original?: Obj;
  /** Path into the result and the expected value there. */
  expect?: [string, unknown][];
  /** For lists of maps: the order of merge keys. */
  order?: [string, unknown[]];
  error?: [number, string];
}

const rows: Row[] = [
  {
    name: 'maps merge key by key',
    patch: { metadata: { labels: { c: '3' } } },
    expect: [['metadata.labels', { a: '1', b: '2', c: '3' }]],
  },
  {
    name: 'null deletes a field',
    patch: { metadata: { labels: { a: null } } },
    expect: [['metadata.labels', { b: '2' }]],
  },
  {
    name: 'null for a missing field is ignored',
    patch: { spec: { paused: null } },
    expect: [['spec.paused', undefined]],
  },
  { name: 'scalars replace', patch: { spec: { replicas: 3 } }, expect: [['spec.replicas', 3]] },
  {
    name: 'containers merge by name',
    patch: podSpec({ containers: [{ name: 'b', image: 'b:2' }] }),
    order: ['spec.template.spec.containers', ['a', 'b']],
    expect: [
      [
        'spec.template.spec.containers',
        [
          { name: 'a', image: 'a:1', args: ['x'], ports: [{ containerPort: 80, protocol: 'TCP' }] },
          { name: 'b', image: 'b:2' },
        ],
      ],
    ],
  },
  {
    name: 'a new container goes before the live ones',
    patch: podSpec({ containers: [{ name: 'c', image: 'c:1' }] }),
    order: ['spec.template.spec.containers', ['c', 'a', 'b']],
  },
  {
    name: '$patch: delete removes a list item',
    patch: podSpec({ containers: [{ name: 'a', $patch: 'delete' }] }),
    order: ['spec.template.spec.containers', ['b']],
  },
  {
    name: '$patch: replace makes the rest of the patch list the list',
    patch: podSpec({ containers: [{ name: 'z', image: 'z' }, { $patch: 'replace' }] }),
    expect: [['spec.template.spec.containers', [{ name: 'z', image: 'z' }]]],
  },
  {
    name: '$patch: replace on a map',
    patch: { spec: { strategy: { $patch: 'replace', type: 'Recreate' } } },
    expect: [['spec.strategy', { type: 'Recreate' }]],
  },
  {
    name: '$patch: delete on a map leaves it empty',
    patch: { spec: { strategy: { $patch: 'delete' } } },
    expect: [['spec.strategy', {}]],
  },
  {
    name: '$setElementOrder orders the merged list',
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
      containers: [{ name: 'a', image: 'a:2' }],
    }),
    order: ['spec.template.spec.containers', ['b', 'a']],
    expect: [
      [
        'spec.template.spec.containers',
        [
          { name: 'b', image: 'b:1' },
          { name: 'a', image: 'a:2', args: ['x'], ports: [{ containerPort: 80, protocol: 'TCP' }] },
        ],
      ],
    ],
  },
  {
    name: '$setElementOrder without the list reorders the live list',
    patch: podSpec({ '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] }),
    order: ['spec.template.spec.containers', ['b', 'a']],
  },
  {
    name: '$retainKeys clears keys it does not list',
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    expect: [['spec.strategy', { type: 'Recreate' }]],
  },
  {
    name: '$retainKeys inside a list item (volumes)',
    patch: podSpec({
      volumes: [{ name: 'v1', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }],
    }),
    expect: [['spec.template.spec.volumes', [{ name: 'v1', configMap: { name: 'cm' } }]]],
  },
  {
    name: '$retainKeys that the patch contradicts',
    patch: { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 1 } } } },
    error: [400, 'invalid patch format of retainKeys'],
  },
  {
    name: '$retainKeys that is not a list',
    patch: { spec: { strategy: { $retainKeys: 'type' } } },
    error: [400, 'invalid patch format of retainKeys'],
  },
  {
    name: '$deleteFromPrimitiveList removes scalars',
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } },
    expect: [['metadata.finalizers', ['y']]],
  },
  {
    name: '$deleteFromPrimitiveList of a missing list does nothing',
    patch: { metadata: { '$deleteFromPrimitiveList/ownerReferences': ['x'] } },
    expect: [['metadata.ownerReferences', undefined]],
  },
  {
    name: 'a merge list of scalars is a set, patch items first',
    patch: { metadata: { finalizers: ['z', 'x'] } },
    expect: [['metadata.finalizers', ['z', 'x', 'y']]],
  },
  {
    name: 'lists without a strategy are replaced',
    patch: podSpec({ tolerations: [{ key: 'k2' }] }),
    expect: [['spec.template.spec.tolerations', [{ key: 'k2' }]]],
  },
  {
    name: 'container ports merge by containerPort',
    patch: podSpec({ containers: [{ name: 'a', ports: [{ containerPort: 81 }] }] }),
    expect: [
      [
        'spec.template.spec.containers',
        [
          {
            name: 'a',
            image: 'a:1',
            args: ['x'],
            ports: [{ containerPort: 81 }, { containerPort: 80, protocol: 'TCP' }],
          },
          { name: 'b', image: 'b:1' },
        ],
      ],
    ],
  },
  {
    name: 'a changed type replaces',
    patch: { spec: { strategy: 'Recreate' } },
    expect: [['spec.strategy', 'Recreate']],
  },
  {
    name: 'a whole object with $patch: replace',
    patch: { $patch: 'replace', kind: 'Deployment' },
    expect: [
      ['kind', 'Deployment'],
      ['spec', undefined],
    ],
  },
  {
    name: 'a list item without its merge key',
    patch: podSpec({ containers: [{ image: 'x' }] }),
    error: [400, 'map: map[image:x] does not contain declared merge key: name'],
  },
  {
    name: '$patch: merge on a list item',
    patch: podSpec({ containers: [{ name: 'a', $patch: 'merge' }] }),
    error: [400, 'merging lists cannot yet be specified in the patch'],
  },
  {
    name: 'an unknown $patch on a map',
    patch: { spec: { strategy: { $patch: 'foo' } } },
    error: [400, 'Unknown patch type: foo in map: map[$patch:foo]'],
  },
  {
    name: 'list of lists',
    original: { ...deployment(), metadata: { name: 'd', finalizers: [] } },
    patch: { metadata: { finalizers: [['a']] } },
    error: [422, 'lists of lists are not supported'],
  },
  {
    name: 'mixed element types',
    patch: { metadata: { finalizers: [1] } },
    error: [400, 'list element types are not identical: [[x y] [1]]'],
  },
  {
    name: 'a $setElementOrder key without a list name',
    patch: podSpec({ $setElementOrderx: [] }),
    error: [400, 'invalid patch format of setElementOrder list'],
  },
  {
    name: 'a $deleteFromPrimitiveList key without a list name',
    patch: { metadata: { $deleteFromPrimitiveList: ['x'] } },
    error: [400, 'invalid patch format of primitive list'],
  },
  {
    name: 'a patch list out of $setElementOrder',
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'a' }],
      containers: [{ name: 'b', image: 'b:3' }],
    }),
    error: [
      400,
      "The order in patch list:\n[map[image:b:3 name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n",
    ],
  },
  {
    name: 'a $setElementOrder for a field the kind lacks',
    patch: { spec: { '$setElementOrder/nothing': [] } },
    error: [400, 'unable to find api field in struct DeploymentSpec for the json field "nothing"'],
  },
  {
    name: 'a patch that is not an object',
    patch: [1],
    error: [400, 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
  },
];

describe('strategic merge patch', () => {
  for (const row of rows) {
    it(row.name, () => {
      const original = row.original ?? deployment();
      const before = JSON.stringify(original);
      const run = () => strategicMergePatch(defs, root, original, row.patch);
      if (row.error !== undefined) {
        let caught: unknown;
        try {
          run();
        } catch (e) {
          caught = e;
        }
        expect(caught).toBeInstanceOf(StatusError);
        expect((caught as StatusError).code).toBe(row.error[0]);
        const status = (caught as StatusError).status;
        if (row.error[0] === 422) {
          // v1.27 drops the merge's text from a 422 and sends no cause.
          expect(status.message).toBe('the server rejected our request due to an error in our request');
          expect(status.details?.causes).toBeUndefined();
          expect((caught as { mergeError?: string }).mergeError).toBe(row.error[1]);
        } else expect(status.message).toBe(row.error[1]);
        return;
      }
      const result = run();
      expect(JSON.stringify(original)).toBe(before);
      for (const [path, value] of row.expect ?? []) expect(get(result, path)).toEqual(value);
      if (row.order !== undefined) expect(names(get(result, row.order[0]))).toEqual(row.order[1]);
    });
  }

  it('answers 400 BadRequest for failures the real server answers 500 (docs/decisions/0013)', () => {
    let caught: unknown;
    try {
      strategicMergePatch(defs, root, deployment(), podSpec({ containers: [{ image: 'x' }] }));
    } catch (e) {
      caught = e;
    }
    expect((caught as StatusError).reason).toBe('BadRequest');
  });
});
