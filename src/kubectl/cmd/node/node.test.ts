import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/meta';
import { grouped, verdict, type DrainOptions } from './filters';
import { conflicts, parseTaints, reorganizeTaints, splitTaintArgs } from './taint-spec';

const none: DrainOptions = { force: false, ignoreDaemonSets: false, deleteEmptyDirData: false };
const pod = (name: string, extra: Record<string, unknown> = {}, owner?: string): KubeObject =>
  ({
    metadata: {
      name,
      namespace: 'default',
      ...(owner !== undefined
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: owner, name: 'o', uid: 'u', controller: true }] }
        : {}),
      ...((extra['metadata'] as object) ?? {}),
    },
    spec: (extra['spec'] as object) ?? {},
    status: (extra['status'] as object) ?? {},
  }) as KubeObject;

describe('drain filters', () => {
  it('refuses bare pods unless forced, with a warning when forced', () => {
    expect(verdict(pod('a'), none)).toMatchObject({ delete: false, reason: 'error' });
    expect(verdict(pod('a'), { ...none, force: true })).toMatchObject({ delete: true, reason: 'warning' });
    expect(verdict(pod('a', { status: { phase: 'Succeeded' } }), none)).toMatchObject({ delete: true });
  });

  it('refuses or skips DaemonSet pods, and evicts an orphan only when forced', () => {
    const ds = pod('d', {}, 'DaemonSet');
    expect(verdict(ds, none).message).toContain('--ignore-daemonsets');
    expect(verdict(ds, { ...none, ignoreDaemonSets: true })).toMatchObject({
      delete: false,
      reason: 'warning',
    });
    // Later filters pass it and, as in kubectl, their verdict replaces the orphan's warning.
    expect(verdict(ds, { ...none, force: true }, false)).toMatchObject({ delete: true });
    expect(verdict(ds, none, false)).toMatchObject({ delete: false, reason: 'error' });
  });

  it('needs --delete-emptydir-data for emptyDir volumes, and skips mirror pods', () => {
    const scratch = pod('s', { spec: { volumes: [{ name: 'v', emptyDir: {} }] } }, 'ReplicaSet');
    expect(verdict(scratch, none).message).toContain('--delete-emptydir-data');
    expect(verdict(scratch, { ...none, deleteEmptyDirData: true }).delete).toBe(true);
    const mirror = pod('m', { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } } });
    expect(verdict(mirror, none)).toMatchObject({ delete: false, reason: 'skip' });
  });

  it('groups messages with the pods they name', () => {
    const verdicts = [pod('a'), pod('b')].map((p) => verdict(p, none));
    expect(grouped(verdicts, 'error')).toEqual([
      'cannot delete Pods declare no controller (use --force to override): default/a, default/b',
    ]);
  });
});

describe('taints', () => {
  it('parses additions and removals, refusing bad effects and specs', () => {
    expect(parseTaints(['k=v:NoSchedule', 'x:NoExecute-', 'y-'])).toEqual({
      add: [{ key: 'k', value: 'v', effect: 'NoSchedule' }],
      remove: [{ key: 'x', effect: 'NoExecute' }, { key: 'y' }],
    });
    expect(() => parseTaints(['k=v:Wrong'])).toThrow('invalid taint effect: Wrong, unsupported taint effect');
    expect(() => parseTaints(['k=v'])).toThrow('invalid taint spec: k=v');
  });

  it('wants resources before taints', () => {
    expect(splitTaintArgs(['node', 'n1', 'k:NoSchedule'])).toEqual({
      resources: ['node', 'n1'],
      taints: ['k:NoSchedule'],
    });
    expect(() => splitTaintArgs(['node', 'k:NoSchedule', 'n1'])).toThrow(
      'all resources must be specified before taint changes: n1',
    );
    expect(conflicts([{ key: 'a', effect: 'NoSchedule' }], [{ key: 'a' }])).toEqual(['a=']);
  });

  it('puts added taints first and names the operation', () => {
    const old = [{ key: 'old', effect: 'NoSchedule' }];
    expect(reorganizeTaints('n', old, [{ key: 'a', effect: 'NoExecute' }], [], false)).toEqual({
      taints: [{ key: 'a', effect: 'NoExecute' }, ...old],
      operation: 'tainted',
    });
    expect(reorganizeTaints('n', old, [], [{ key: 'old' }], false)).toEqual({
      taints: [],
      operation: 'untainted',
    });
    expect(
      reorganizeTaints('n', old, [{ key: 'old', value: 'v', effect: 'NoSchedule' }], [], true).operation,
    ).toBe('modified');
    expect(() => reorganizeTaints('n', old, [{ key: 'old', effect: 'NoSchedule' }], [], false)).toThrow(
      'node n already has old taint(s) with same effect(s) and --overwrite is false',
    );
    expect(() => reorganizeTaints('n', old, [], [{ key: 'gone', effect: 'NoSchedule' }], false)).toThrow(
      'taint "gone:NoSchedule" not found',
    );
  });
});
