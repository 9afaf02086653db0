/**
 * The Node a simulated node agent registers and the status it reports, as
 * a kubelet's: the well-known labels (hostname, os, arch — in the
 * profile's label domain) and the configured ones, the pod CIDR, capacity
 * and allocatable, the MemoryPressure/DiskPressure/PIDPressure/Ready
 * conditions with the kubelet's reasons, the InternalIP and Hostname
 * addresses, the agent's port, system info, and the images the node has
 * (largest first, at most fifty), plus the Lease the agent renews.
 */

import type { Lease, Node, NodeCondition, NodeStatus } from '../../api/node';
import type { NamingProfile } from '../../machinery/naming';

export interface NodeConfig {
  name: string;
  /** 1-based: the node's addresses and pod CIDR derive from it. */
  index: number;
  capacity: Record<string, string>;
  labels: Record<string, string>;
}

export const kubeletPort = 10250;

const rfc3339 = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const microTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}000Z`;

/** The node's InternalIP (172.18.0.2 for the first, as a kind cluster's). */
export function nodeIP(index: number): string {
  return `172.18.${Math.floor(index / 250)}.${(index % 250) + 1}`;
}

/** The node's pod CIDR: 10.244.<n>.0/24 (the first node 10.244.0.0/24). */
export function podCIDR(index: number): { prefix: string; cidr: string } {
  const n = index - 1;
  const second = 244 + Math.floor(n / 256);
  const prefix = `10.${second}.${n % 256}`;
  return { prefix, cidr: `${prefix}.0/24` };
}

/** The labels a kubelet sets on its Node, in the profile's label domain. */
export function wellKnownLabels(profile: NamingProfile, name: string): Record<string, string> {
  const d = profile.labelDomain;
  return {
    [`beta.${d}/arch`]: 'amd64',
    [`beta.${d}/os`]: 'linux',
    [`${d}/arch`]: 'amd64',
    [`${d}/hostname`]: name,
    [`${d}/os`]: 'linux',
  };
}

export function nodeObject(profile: NamingProfile, config: NodeConfig): Node {
  const { cidr } = podCIDR(config.index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.name,
      labels: { ...wellKnownLabels(profile, config.name), ...config.labels },
      annotations: {
        [`node.alpha.${profile.labelDomain}/ttl`]: '0',
        [`volumes.${profile.labelDomain}/controller-managed-attach-detach`]: 'true',
      },
    },
    spec: { podCIDR: cidr, podCIDRs: [cidr], providerID: `sandbox://${config.name}` },
  };
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function conditions(ready: boolean, now: number, old: NodeCondition[] | undefined): NodeCondition[] {
  const make = (type: string, status: 'True' | 'False', reason: string, message: string): NodeCondition => {
    const before = old?.find((c) => c.type === type);
    return {
      type,
      status,
      lastHeartbeatTime: rfc3339(now),
      lastTransitionTime:
        before !== undefined && before.status === status
          ? (before.lastTransitionTime ?? rfc3339(now))
          : rfc3339(now),
      reason,
      message,
    };
  };
  return [
    make('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    make('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    make('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    ready
      ? make('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status')
      : make(
          'Ready',
          'False',
          'KubeletNotReady',
          'container runtime status check may not have completed yet',
        ),
  ];
}

/**
 * Whether the Node's conditions as the server has them (`posted`) say other than the agent would report,
 * heartbeat and transition times aside: the node controller set them Unknown while the agent's Lease was not
 * renewed. A kubelet posts its status at once then, not at its next periodic report.
 */
export function conditionsDiffer(ready: boolean, posted: NodeCondition[] | undefined): boolean {
  return conditions(ready, 0, posted).some((want) => {
    const have = posted?.find((c) => c.type === want.type);
    return (
      have === undefined ||
      have.status !== want.status ||
      have.reason !== want.reason ||
      have.message !== want.message
    );
  });
}

export function nodeStatus(
  config: NodeConfig,
  o: {
    ready: boolean;
    now: number;
    old: NodeCondition[] | undefined;
    images: Map<string, number>;
    kubeletVersion: string;
  },
): NodeStatus {
  const id = fnv(config.name);
  const images = [...o.images]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 50)
    .map(([name, size]) => ({ names: [name], sizeBytes: size }));
  return {
    capacity: { ...config.capacity },
    allocatable: { ...config.capacity },
    conditions: conditions(o.ready, o.now, o.old),
    addresses: [
      { type: 'InternalIP', address: nodeIP(config.index) },
      { type: 'Hostname', address: config.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
    nodeInfo: {
      machineID: `${id}${id}${id}${id}`,
      systemUUID: `${id}-0000-4000-8000-${id}${id.slice(0, 4)}`,
      bootID: `${fnv(`${config.name}/boot`)}-0000-4000-8000-${id}${id.slice(0, 4)}`,
      kernelVersion: '5.15.0-sandbox',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'containerd://1.7.1',
      kubeletVersion: o.kubeletVersion,
      kubeProxyVersion: o.kubeletVersion,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images,
  };
}

export function leaseObject(
  profile: NamingProfile,
  name: string,
  nodeUid: string | undefined,
  now: number,
): Lease {
  return {
    apiVersion: `${profile.suffixed('coordination')}/v1`,
    kind: 'Lease',
    metadata: {
      name,
      namespace: profile.nodeLeaseNamespace,
      ...(nodeUid !== undefined
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: nodeUid }] }
        : {}),
    },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(now) },
  };
}

export { microTime };
