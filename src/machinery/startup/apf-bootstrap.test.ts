import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../naming';
import { apfFlowSchemas, apfPriorityLevels, planApfEnsure } from './apf-bootstrap';
import { builtInApiServices } from './api-services';

const profile = namingProfile('kubernetes');
const key = 'apf.kubernetes.io/autoupdate-spec';
const flowSchemas = apfFlowSchemas(profile);

/** The configuration as stored, with the given changes to one object. */
function stored(change: (o: KubeObject) => void, name: string): KubeObject[] {
  return [...flowSchemas.mandatory, ...flowSchemas.suggested].map((o) => {
    const copy = structuredClone(o);
    copy.metadata = {
      ...copy.metadata,
      generation: 1,
      uid: `uid-${o.metadata?.name}`,
      resourceVersion: '5',
      annotations: { [key]: 'true' },
    };
    if (o.metadata?.name === name) change(copy);
    return copy;
  });
}

describe('the APF bootstrap configuration', () => {
  it('holds 13 FlowSchemas and 8 priority levels, named under the profile', () => {
    expect(flowSchemas.mandatory.length + flowSchemas.suggested.length).toBe(13);
    const levels = apfPriorityLevels(profile);
    expect(levels.mandatory.length + levels.suggested.length).toBe(8);
    expect(flowSchemas.suggested.map((o) => o.metadata?.name)).toContain('kube-system-service-accounts');
    expect(apfFlowSchemas(namingProfile('orch')).suggested.map((o) => o.metadata?.name)).toContain(
      'orch-system-service-accounts',
    );
  });

  it('creates what is missing, with the autoupdate annotation', () => {
    const ops = planApfEnsure(flowSchemas, [], profile);
    expect(ops).toHaveLength(13);
    for (const op of ops) {
      expect(op.op).toBe('create');
      if (op.op === 'create') expect(op.object.metadata?.annotations).toEqual({ [key]: 'true' });
    }
  });

  it('does nothing when everything is as configured', () => {
    expect(
      planApfEnsure(
        flowSchemas,
        stored(() => undefined, ''),
        profile,
      ),
    ).toEqual([]);
  });

  const edit = (annotation: string | undefined, generation: number) => (o: KubeObject) => {
    (o['spec'] as Record<string, unknown>)['matchingPrecedence'] = 42;
    o.metadata = { ...o.metadata, generation };
    if (annotation === undefined) delete o.metadata.annotations;
    else o.metadata.annotations = { [key]: annotation };
  };

  it.each([
    ['a mandatory object marked false', 'catch-all', 'false', 2, true],
    ['a suggested object marked true', 'global-default', 'true', 2, true],
    ['a suggested object marked false', 'global-default', 'false', 2, false],
    ['a suggested object marked "0" (Go ParseBool)', 'global-default', '0', 2, false],
    ['a suggested object without the annotation, never changed', 'global-default', undefined, 1, true],
    ['a suggested object without the annotation, changed', 'global-default', undefined, 2, false],
    ['a suggested object with a non-boolean annotation, changed', 'global-default', 'maybe', 2, false],
  ] as const)('%s: updated = %s', (_what, name, annotation, generation, updated) => {
    const ops = planApfEnsure(flowSchemas, stored(edit(annotation, generation), name), profile);
    if (!updated) return expect(ops).toEqual([]);
    expect(ops).toHaveLength(1);
    const op = ops[0];
    expect(op?.op).toBe('update');
    if (op?.op !== 'update') return;
    expect((op.object['spec'] as Record<string, unknown>)['matchingPrecedence']).not.toBe(42);
    expect(op.object.metadata?.annotations?.[key]).toBe('true');
  });

  it('deletes an object claiming autoupdate that the configuration no longer has, and only that', () => {
    const extra = (name: string, annotation?: string): KubeObject => ({
      metadata: {
        name,
        uid: `u-${name}`,
        resourceVersion: '9',
        ...(annotation !== undefined ? { annotations: { [key]: annotation } } : {}),
      },
      spec: {},
    });
    const ops = planApfEnsure(
      flowSchemas,
      [...stored(() => undefined, ''), extra('old-bootstrap', 'true'), extra('mine'), extra('kept', 'false')],
      profile,
    );
    expect(ops).toEqual([
      { op: 'delete', name: 'old-bootstrap', uid: 'u-old-bootstrap', resourceVersion: '9' },
    ]);
  });
});

describe('the built-in APIServices', () => {
  it('skip apiregistration and group/versions missing from the priority table', () => {
    const list = builtInApiServices(profile, [
      { group: '', version: 'v1' },
      { group: 'apiregistration.k8s.io', version: 'v1' },
      { group: 'apps', version: 'v1' },
      { group: 'nope.k8s.io', version: 'v1' },
    ]);
    expect(list.map((o) => o.metadata?.name)).toEqual(['v1.', 'v1.apps']);
    expect(list[0]?.['spec']).toEqual({
      service: null,
      group: '',
      version: 'v1',
      groupPriorityMinimum: 18000,
      versionPriority: 1,
    });
  });
});
