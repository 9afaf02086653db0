import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { Expectations } from './expectations';
import { computeHash, safeEncode } from './hash';
import { applyRevision, newRevision, revisionMatches, templatePatch } from './history';
import { scaledValue } from './int-or-percent';
import { daemonPodFits, pinToNode, targetNodeName } from './node-fit';
import { isPodAvailable, rankForDeletion } from './pods';
import { quantityValue } from '../../machinery/quantity';
import { toleratesTaint } from '../../machinery/scheduling/taints';
import { labelSelectorMatcher, mapSelectorMatcher } from './selectors';
import type { Pod } from './types';

describe('label selectors as controllers use them', () => {
  it.each([
    [undefined, { app: 'a' }, false],
    [{}, { app: 'a' }, true],
    [{ matchLabels: { app: 'a' } }, { app: 'a', x: 'y' }, true],
    [{ matchLabels: { app: 'a' } }, { app: 'b' }, false],
    [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] }, { tier: 'web' }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['web'] }] }, {}, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, { tier: 'x' }, false],
  ])('%j matches %j: %s', (selector, labels, want) => {
    const m = labelSelectorMatcher(selector);
    expect(m instanceof Error ? m.message : m(labels)).toBe(want);
  });

  it('refuses an unknown operator and selects nothing with an empty map', () => {
    expect(labelSelectorMatcher({ matchExpressions: [{ key: 'a', operator: 'Like' }] })).toBeInstanceOf(
      Error,
    );
    expect(mapSelectorMatcher({})({ app: 'a' })).toBe(false);
    expect(mapSelectorMatcher({ app: 'a' })({ app: 'a', b: 'c' })).toBe(true);
  });
});

describe('hashes and revisions', () => {
  const owner = {
    metadata: { name: 'web', namespace: 'ns', annotations: { 'kubernetes.io/change-cause': 'x' } },
    spec: {
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'a' }] } },
    },
  };

  it('hashes a template the same whatever its key order, and differently per collision count', () => {
    const a = { spec: { containers: [{ name: 'c', image: 'a' }] }, metadata: { labels: { x: '1' } } };
    const b = { metadata: { labels: { x: '1' } }, spec: { containers: [{ image: 'a', name: 'c' }] } };
    expect(computeHash(a)).toBe(computeHash(b));
    expect(computeHash(a, 1)).not.toBe(computeHash(a));
    expect(computeHash(a)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(safeEncode('0123')).toBe('4567');
  });

  it('records the template as a replace patch, matches it and restores it', () => {
    const rev = newRevision(owner, undefined, 3, undefined);
    expect(rev.metadata?.name).toMatch(/^web-\w+$/);
    expect(rev.metadata?.labels?.['controller-revision-hash']).toBe(rev.metadata?.name?.slice(4));
    expect(rev.metadata?.annotations).toEqual({ 'kubernetes.io/change-cause': 'x' });
    expect(rev.revision).toBe(3);
    expect(Object.keys((templatePatch(owner).spec as { template: object }).template)).toEqual([
      '$patch',
      'metadata',
      'spec',
    ]);
    expect(revisionMatches(owner, rev)).toBe(true);
    const changed = {
      ...owner,
      spec: { template: { ...owner.spec.template, spec: { containers: [{ name: 'c', image: 'b' }] } } },
    };
    expect(revisionMatches(changed, rev)).toBe(false);
    expect(applyRevision(changed, rev).spec?.template).toEqual(owner.spec.template);
  });
});

describe('values controllers compute', () => {
  it.each([
    ['25%', 10, true, 3],
    ['25%', 10, false, 2],
    [3, 10, true, 3],
    ['0%', 5, true, 0],
  ] as const)('scales %s of %i (round up %s) to %i', (v, total, up, want) => {
    expect(scaledValue(v, total, up)).toBe(want);
  });

  it.each([
    ['1Gi', 2 ** 30],
    ['500m', 0.5],
    ['2', 2],
    ['1.5k', 1500],
    ['bad', 0],
  ])('reads the quantity %s as %d', (q, want) => {
    expect(quantityValue(q)).toBe(want);
  });
});

describe('node fit of daemon pods', () => {
  const node = (taints: object[] = [], labels: Record<string, string> = {}) => ({
    metadata: { name: 'n1', labels },
    spec: { taints },
  });

  it.each([
    ['no taints', {}, node(), { run: true, keep: true }],
    [
      'an untolerated NoSchedule taint',
      {},
      node([{ key: 'k', effect: 'NoSchedule' }]),
      { run: false, keep: true },
    ],
    [
      'an untolerated NoExecute taint',
      {},
      node([{ key: 'k', effect: 'NoExecute' }]),
      { run: false, keep: false },
    ],
    [
      'a tolerated taint',
      { tolerations: [{ key: 'k', operator: 'Exists' }] },
      node([{ key: 'k', effect: 'NoExecute' }]),
      { run: true, keep: true },
    ],
    [
      'a node selector that does not match',
      { nodeSelector: { gpu: 'true' } },
      node(),
      { run: false, keep: false },
    ],
    ['another node name', { nodeName: 'n2' }, node(), { run: false, keep: false }],
  ])('%s', (_what, spec, n, want) => {
    expect(daemonPodFits(spec, n)).toEqual(want);
  });

  it('pins a pod to its node and reads the pin back', () => {
    const affinity = pinToNode(undefined, 'n7');
    expect(targetNodeName({ affinity })).toBe('n7');
    expect(daemonPodFits({ affinity }, node())).toEqual({ run: false, keep: false });
    expect(
      toleratesTaint(
        { key: 'k', operator: 'Equal', value: 'v' },
        { key: 'k', value: 'w', effect: 'NoSchedule' },
      ),
    ).toBe(false);
  });
});

describe('pods', () => {
  const ready = (name: string, since: string, extra: Partial<Pod> = {}): Pod => ({
    metadata: { name, creationTimestamp: '2024-01-01T00:00:00Z' },
    spec: { nodeName: 'n1' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] },
    ...extra,
  });

  it('is available once ready for minReadySeconds', () => {
    const p = ready('a', '2024-01-01T00:00:00Z');
    expect(isPodAvailable(p, 10, new Date('2024-01-01T00:00:05Z'))).toBe(false);
    expect(isPodAvailable(p, 10, new Date('2024-01-01T00:00:11Z'))).toBe(true);
  });

  it('deletes unscheduled, then pending, then not ready, then the most recently ready first', () => {
    const pods: Pod[] = [
      ready('old-ready', '2024-01-01T00:00:00Z'),
      ready('new-ready', '2024-01-01T01:00:00Z'),
      { metadata: { name: 'pending' }, spec: { nodeName: 'n1' }, status: { phase: 'Pending' } },
      { metadata: { name: 'unscheduled' }, spec: {}, status: { phase: 'Pending' } },
      { ...ready('unready', '2024-01-01T00:00:00Z'), status: { phase: 'Running', conditions: [] } },
    ];
    const order = rankForDeletion(pods, pods, namingProfile('kubernetes')).map((p) => p.metadata?.name);
    expect(order).toEqual(['unscheduled', 'pending', 'unready', 'new-ready', 'old-ready']);
  });
});

describe('expectations', () => {
  it('waits for the creations and deletions asked for, and not beyond five minutes', () => {
    let now = 0;
    const e = new Expectations(() => now);
    e.expectCreations('k', 2);
    expect(e.satisfied('k')).toBe(false);
    e.creationObserved('k');
    e.creationObserved('k');
    expect(e.satisfied('k')).toBe(true);
    e.expectDeletions('k', ['a', 'b']);
    e.deletionObserved('k', 'a');
    e.deletionObserved('k', 'a');
    expect(e.satisfied('k')).toBe(false);
    now = 5 * 60_000 + 1;
    expect(e.satisfied('k')).toBe(true);
  });
});
