import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/meta';
import {
  controllerRevisions,
  deploymentRevisions,
  equalIgnoringHash,
  rolloutStatus,
  undoTarget,
  workloadKind,
} from './workload';

const owner = { metadata: { name: 'web', uid: 'u1' } } as KubeObject;
const rs = (name: string, revision: string | undefined, image: string, uid = 'u1'): KubeObject => ({
  metadata: {
    name,
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid, controller: true }],
    ...(revision !== undefined ? { annotations: { 'deployment.kubernetes.io/revision': revision } } : {}),
  },
  spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } } },
});

describe('rollout revisions', () => {
  it('keeps only the owner’s ReplicaSets with a revision, in revision order', () => {
    const revisions = deploymentRevisions(owner, [
      rs('b', '3', 'v3'),
      rs('a', '1', 'v1'),
      rs('other', '2', 'v2', 'u2'),
      rs('none', undefined, 'v0'),
    ]);
    expect(revisions.map((r) => r.revision)).toEqual([1, 3]);
  });

  it('undo goes to the newest but one, or to the named revision', () => {
    const revisions = deploymentRevisions(owner, [
      rs('a', '1', 'v1'),
      rs('b', '2', 'v2'),
      rs('c', '5', 'v5'),
    ]);
    expect(undoTarget('Deployment', 'web', revisions, 0).revision).toBe(2);
    expect(undoTarget('Deployment', 'web', revisions, 1).revision).toBe(1);
    expect(() => undoTarget('Deployment', 'web', revisions, 4)).toThrow(
      'unable to find specified revision 4 in history',
    );
  });

  it('words a missing previous revision per kind', () => {
    const one = deploymentRevisions(owner, [rs('a', '1', 'v1')]);
    expect(() => undoTarget('Deployment', 'web', one, 0)).toThrow(
      'no rollout history found for deployment "web"',
    );
    expect(() => undoTarget('DaemonSet', 'web', one, 0)).toThrow('no last revision to roll back to');
  });

  it('reads ControllerRevisions’ templates without the replace directive', () => {
    const cr = {
      metadata: {
        name: 'x',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'web', uid: 'u1', controller: true },
        ],
      },
      revision: 2,
      data: { spec: { template: { $patch: 'replace', metadata: { labels: { a: 'b' } } } } },
    } as unknown as KubeObject;
    const [r] = controllerRevisions(owner, [cr]);
    expect(r?.revision).toBe(2);
    expect(r?.template).toEqual({ metadata: { labels: { a: 'b' } } });
  });

  it('compares templates without the pod-template-hash label', () => {
    const a = { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec: { x: 1 } };
    const b = { spec: { x: 1 }, metadata: { labels: { app: 'web' } } };
    expect(equalIgnoringHash(a, b)).toBe(true);
    expect(equalIgnoringHash(a, { ...b, spec: { x: 2 } })).toBe(false);
  });

  it('knows the workload kinds by their upstream group only', () => {
    expect(workloadKind({ group: 'apps', kind: 'Deployment' })).toBe('Deployment');
    expect(workloadKind({ group: 'apps.orch.io', kind: 'Deployment' })).toBeUndefined();
    expect(workloadKind({ group: 'extensions', kind: 'StatefulSet' })).toBeUndefined();
  });
});

describe('rollout status lines', () => {
  const deployment = (status: object, generation = 1, replicas = 2) =>
    ({ metadata: { name: 'web', generation }, spec: { replicas }, status }) as unknown as KubeObject;

  it('follows the Deployment through its phases', () => {
    expect(rolloutStatus('Deployment', deployment({ observedGeneration: 0 }), 0).text).toBe(
      'Waiting for deployment spec update to be observed...\n',
    );
    expect(
      rolloutStatus('Deployment', deployment({ observedGeneration: 1, updatedReplicas: 1 }), 0).text,
    ).toBe('Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated...\n');
    expect(
      rolloutStatus('Deployment', deployment({ observedGeneration: 1, updatedReplicas: 2, replicas: 3 }), 0)
        .text,
    ).toBe('Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...\n');
    const done = rolloutStatus(
      'Deployment',
      deployment({ observedGeneration: 1, updatedReplicas: 2, replicas: 2, availableReplicas: 2 }),
      0,
    );
    expect(done).toEqual({ text: 'deployment "web" successfully rolled out\n', done: true });
  });

  it('fails past the progress deadline and on a different revision', () => {
    const stuck = deployment({
      observedGeneration: 1,
      conditions: [{ type: 'Progressing', reason: 'ProgressDeadlineExceeded' }],
    });
    expect(() => rolloutStatus('Deployment', stuck, 0)).toThrow(
      'deployment "web" exceeded its progress deadline',
    );
    expect(() => rolloutStatus('Deployment', stuck, 2)).toThrow(
      'desired revision (2) is different from the running revision (0)',
    );
  });

  it('reports a partitioned StatefulSet and refuses OnDelete', () => {
    const sts = {
      metadata: { name: 'db', generation: 2 },
      spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } },
      status: { observedGeneration: 2, readyReplicas: 3, updatedReplicas: 1 },
    } as unknown as KubeObject;
    expect(rolloutStatus('StatefulSet', sts, 0).text).toBe(
      'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...\n',
    );
    const onDelete = { ...sts, spec: { updateStrategy: { type: 'OnDelete' } } } as KubeObject;
    expect(() => rolloutStatus('StatefulSet', onDelete, 0)).toThrow(
      'rollout status is only available for RollingUpdate strategy type',
    );
  });
});
