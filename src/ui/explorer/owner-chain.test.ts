import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import type { ApiClient, DiscoveredGroupVersion } from '../../client/index';
import { ownerChain, type HrefFor } from './owner-chain';

const hrefFor: HrefFor = (choice, ns, name) =>
  `#explorer?kind=${choice.resource.name}&ns=${ns ?? ''}&name=${name ?? ''}`;

const resource = (name: string, kind: string) => ({ name, kind, namespaced: true, verbs: ['get', 'list'] });
const groupVersions = [
  { group: '', version: 'v1', groupVersion: 'v1', preferred: true, resources: [resource('pods', 'Pod')] },
  {
    group: 'apps',
    version: 'v1',
    groupVersion: 'apps/v1',
    preferred: true,
    resources: [resource('deployments', 'Deployment'), resource('replicasets', 'ReplicaSet')],
  },
] as unknown as DiscoveredGroupVersion[];

const ref = (kind: string, name: string, uid: string) => [
  { apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', kind, name, uid, controller: true },
];
const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'd1' },
  spec: { replicas: 2 },
  status: { readyReplicas: 2 },
};
const rs: KubeObject = {
  metadata: { name: 'web-abc', namespace: 'ns', uid: 'r1', ownerReferences: ref('Deployment', 'web', 'd1') },
  spec: { replicas: 2 },
  status: { readyReplicas: 1 },
};
const pods: KubeObject[] = ['x', 'y'].map((s) => ({
  metadata: {
    name: `web-abc-${s}`,
    namespace: 'ns',
    uid: `p-${s}`,
    ownerReferences: ref('ReplicaSet', 'web-abc', 'r1'),
  },
  status: { phase: 'Running' },
}));
const stranger: KubeObject = {
  metadata: { name: 'other', namespace: 'ns', uid: 'o' },
  status: { phase: 'Pending' },
};

/** A client serving these objects by resource; a get answers the named one. */
function fakeClient(): ApiClient {
  const byResource: Record<string, KubeObject[]> = {
    deployments: [deployment],
    replicasets: [rs],
    pods: [...pods, stranger],
  };
  return {
    list: async (r: { resource: string }) => ({ items: byResource[r.resource] ?? [], metadata: {} }),
    get: async (r: { resource: string; name: string }) => {
      const found = (byResource[r.resource] ?? []).find((o) => o.metadata?.name === r.name);
      if (found === undefined) throw new Error('not found');
      return { apiVersion: r.resource === 'pods' ? 'v1' : 'apps/v1', ...found };
    },
  } as unknown as ApiClient;
}

describe('owner chain', () => {
  it('walks up from a pod to its ReplicaSet and Deployment', async () => {
    const chain = await ownerChain(
      fakeClient(),
      groupVersions,
      { apiVersion: 'v1', kind: 'Pod', ...pods[0] },
      hrefFor,
    );
    expect(chain.ancestors.map((a) => `${a.kind} ${a.name} ${a.summary}`)).toEqual([
      'Deployment web 2/2 ready',
      'ReplicaSet web-abc 1/2 ready',
    ]);
    expect(chain.self).toMatchObject({ kind: 'Pod', name: 'web-abc-x', summary: 'Running', children: [] });
    expect(chain.ancestors[0]?.href).toContain('name=web');
  });

  it('walks down from a Deployment to its ReplicaSets and their pods, skipping pods of others', async () => {
    const chain = await ownerChain(fakeClient(), groupVersions, deployment, hrefFor);
    expect(chain.ancestors).toEqual([]);
    const [set] = chain.self.children;
    expect(set?.name).toBe('web-abc');
    expect(set?.children.map((c) => c.name)).toEqual(['web-abc-x', 'web-abc-y']);
  });
});
