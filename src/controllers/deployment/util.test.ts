import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import type { Deployment, ReplicaSet } from '../workload/types';
import {
  deploymentAnnotations,
  deploymentComplete,
  equalIgnoreHash,
  findNewReplicaSet,
  maxSurge,
  maxUnavailable,
  resolveFenceposts,
} from './util';

const deployment = (replicas: number, rolling: object = {}, type = 'RollingUpdate'): Deployment => ({
  metadata: { generation: 2 },
  spec: {
    replicas,
    strategy: { type, rollingUpdate: rolling },
    template: { metadata: { labels: { app: 'a' } } },
  },
});

describe('deployment helpers', () => {
  it.each([
    [10, {}, { surge: 3, unavailable: 2 }],
    [1, {}, { surge: 1, unavailable: 0 }],
    [4, { maxSurge: 0, maxUnavailable: 0 }, { surge: 0, unavailable: 1 }],
    [5, { maxSurge: '50%', maxUnavailable: 1 }, { surge: 3, unavailable: 1 }],
  ])('resolves the fenceposts of %i replicas with %j', (replicas, rolling, want) => {
    expect(resolveFenceposts(deployment(replicas, rolling))).toEqual(want);
  });

  it('has neither surge nor unavailability with Recreate, and never more unavailable than replicas', () => {
    expect(maxSurge(deployment(4, {}, 'Recreate'))).toBe(0);
    expect(maxUnavailable(deployment(4, {}, 'Recreate'))).toBe(0);
    expect(maxUnavailable(deployment(2, { maxUnavailable: 5 }))).toBe(2);
  });

  it('finds the ReplicaSet of the current template, the hash label aside', () => {
    const d = deployment(1);
    const rs = (name: string, labels: Record<string, string>, created: string): ReplicaSet => ({
      metadata: { name, creationTimestamp: created },
      spec: { template: { metadata: { labels } } },
    });
    const sets = [
      rs('b', { app: 'a', 'pod-template-hash': 'x' }, '2024-01-02T00:00:00Z'),
      rs('a', { app: 'a', 'pod-template-hash': 'y' }, '2024-01-01T00:00:00Z'),
      rs('c', { app: 'other' }, '2024-01-01T00:00:00Z'),
    ];
    expect(findNewReplicaSet(d, sets)?.metadata?.name).toBe('a');
    expect(equalIgnoreHash({ metadata: { labels: {} } }, {})).toBe(true);
  });

  it('is complete when every replica is updated and available and the generation observed', () => {
    const d = deployment(2);
    const status = { updatedReplicas: 2, replicas: 2, availableReplicas: 2, observedGeneration: 2 };
    expect(deploymentComplete(d, status)).toBe(true);
    expect(deploymentComplete(d, { ...status, observedGeneration: 1 })).toBe(false);
    expect(deploymentComplete(d, { ...status, replicas: 3 })).toBe(false);
  });

  it('names its annotations by profile', () => {
    expect(deploymentAnnotations(namingProfile('orch')).revision).toBe('deployment.orch.io/revision');
    expect(deploymentAnnotations(namingProfile('kubernetes')).skip).toContain(
      'kubectl.kubernetes.io/last-applied-configuration',
    );
  });
});
