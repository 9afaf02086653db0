/**
 * Core v1 defaults of the kinds other than pods: Service (type, session
 * affinity, port protocol and target port, traffic policies), Secret type,
 * Namespace name label and phase, volumes and claims (reclaim policy,
 * volume mode, phase), Endpoints ports, node allocatable, LimitRange
 * items and ReplicationController selector and replicas.
 */

import { encodeBase64Text } from '../../machinery/base64-text';
import { child, empty, items, maybe, ptr, str, type Defaulter, type Obj } from './helpers';
import { podDefaults } from './core-pod';

const clientIPTimeoutSeconds = 10800;

function externallyAccessible(spec: Obj): boolean {
  return (
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && !empty(spec.externalIPs))
  );
}

const service: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  str(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = (maybe(maybe(spec, 'sessionAffinityConfig') ?? {}, 'clientIP') ?? {}).timeoutSeconds;
    if (timeout === undefined || timeout === null)
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: clientIPTimeoutSeconds } };
  }
  str(spec, 'type', 'ClusterIP');
  for (const port of items(spec, 'ports')) {
    str(port, 'protocol', 'TCP');
    if (
      port.targetPort === undefined ||
      port.targetPort === null ||
      port.targetPort === 0 ||
      port.targetPort === ''
    )
      port.targetPort = port.port;
  }
  if (externallyAccessible(spec)) str(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
    ptr(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec.type === 'LoadBalancer') ptr(spec, 'allocateLoadBalancerNodePorts', true);
  // ipFamilyPolicy and ipFamilies are not defaults: the Service allocators fill them (kinds/core/service/allocation.ts).
};

/** Every namespace is labelled with its own name (so selectors can pick namespaces by name); its phase starts Active. */
const namespace: Defaulter = (obj, ctx) => {
  str(child(obj, 'status'), 'phase', 'Active');
  const meta = maybe(obj, 'metadata');
  const name = meta?.name;
  if (meta === undefined || typeof name !== 'string' || name === '') return;
  child(meta, 'labels')[ctx.profile.prefixed('metadata.name')] = name;
};

const limitRangeItem: Defaulter = (item) => {
  if (item.type !== 'Container') return;
  const def = child(item, 'default');
  const defaultRequest = child(item, 'defaultRequest');
  for (const [k, v] of Object.entries(maybe(item, 'max') ?? {})) if (!Object.hasOwn(def, k)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!Object.hasOwn(defaultRequest, k)) defaultRequest[k] = v;
  for (const [k, v] of Object.entries(maybe(item, 'min') ?? {}))
    if (!Object.hasOwn(defaultRequest, k)) defaultRequest[k] = v;
};

const replicationController: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  const labels = maybe(maybe(maybe(spec, 'template') ?? {}, 'metadata') ?? {}, 'labels');
  if (labels !== undefined) {
    if (empty(spec.selector)) spec.selector = { ...labels };
    const meta = child(obj, 'metadata');
    if (empty(meta.labels)) meta.labels = { ...labels };
  }
  ptr(spec, 'replicas', 1);
};

/**
 * `stringData` is write-only: as the real server's v1 → internal conversion does while decoding, each entry is
 * written into `data` (base64 of its UTF-8 bytes), overriding a `data` entry of the same key, and is not kept.
 */
const secret: Defaulter = (s) => {
  str(s, 'type', 'Opaque');
  const stringData = maybe(s, 'stringData');
  delete s.stringData;
  if (stringData === undefined) return;
  const data = child(s, 'data');
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value !== 'string') continue;
    data[key] = encodeBase64Text(value);
  }
};

export const coreDefaults: Record<string, Defaulter> = {
  ...podDefaults,
  'api.core.v1.Service': service,
  'api.core.v1.Secret': secret,
  'api.core.v1.Namespace': namespace,
  'api.core.v1.PersistentVolume': (pv) => {
    str(child(pv, 'status'), 'phase', 'Pending');
    const spec = child(pv, 'spec');
    str(spec, 'persistentVolumeReclaimPolicy', 'Retain');
    ptr(spec, 'volumeMode', 'Filesystem');
  },
  'api.core.v1.PersistentVolumeClaim': (pvc) => str(child(pvc, 'status'), 'phase', 'Pending'),
  'api.core.v1.Endpoints': (ep) => {
    for (const subset of items(ep, 'subsets'))
      for (const port of items(subset, 'ports')) str(port, 'protocol', 'TCP');
  },
  'api.core.v1.NodeStatus': (status) => {
    if (
      (status.allocatable === undefined || status.allocatable === null) &&
      maybe(status, 'capacity') !== undefined
    )
      status.allocatable = { ...(status.capacity as Obj) };
  },
  'api.core.v1.LimitRangeItem': limitRangeItem,
  'api.core.v1.ReplicationController': replicationController,
};
