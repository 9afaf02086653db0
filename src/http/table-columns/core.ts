/**
 * Printers of the core group's kinds: Pod (readiness, the status reason
 * kubectl users know, restarts with the last restart's age), Service
 * (cluster and external IPs, ports), Node (readiness, roles), Event, and
 * the simpler ones (Namespace, ConfigMap, Secret, ServiceAccount, volumes
 * and claims, Endpoints, ReplicationController, PodTemplate, quotas).
 */

import type { Printer, PrintContext } from './printer';
import {
  accessModes,
  age,
  ageColumn,
  arr,
  at,
  column,
  containerCells,
  firstThree,
  formatLabels,
  int,
  nameColumn,
  orNone,
  rec,
  since,
  str,
  type Obj,
} from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));
const wideContainers = [column('Containers', 'string', 'Container names of the pod template.', 1), column('Images', 'string', 'Container images of the pod template.', 1)];

function podStatus(pod: Obj): { reason: string; ready: number; restarts: number; lastRestart: number } {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  let reason = str(status.reason) || str(status.phase);
  let restarts = 0;
  let ready = 0;
  let lastRestart = 0;
  const noteRestart = (c: Obj): void => {
    const finished = Date.parse(str(at(c, 'lastState', 'terminated', 'finishedAt')));
    if (Number.isFinite(finished) && finished > lastRestart) lastRestart = finished;
  };
  let initializing = false;
  const inits = arr(status.initContainerStatuses).map(rec);
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i] ?? {};
    restarts += int(c.restartCount);
    noteRestart(c);
    const terminated = rec(at(c, 'state', 'terminated'));
    const waiting = rec(at(c, 'state', 'waiting'));
    const hasTerminated = at(c, 'state', 'terminated') !== undefined;
    if (hasTerminated && int(terminated.exitCode) === 0) continue;
    if (hasTerminated) {
      const r = str(terminated.reason);
      if (r !== '') reason = `Init:${r}`;
      else reason = int(terminated.signal) !== 0 ? `Init:Signal:${int(terminated.signal)}` : `Init:ExitCode:${int(terminated.exitCode)}`;
    } else if (str(waiting.reason) !== '' && str(waiting.reason) !== 'PodInitializing') reason = `Init:${str(waiting.reason)}`;
    else reason = `Init:${i}/${arr(spec.initContainers).length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses).map(rec);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i] ?? {};
      restarts += int(c.restartCount);
      noteRestart(c);
      const waiting = str(at(c, 'state', 'waiting', 'reason'));
      const hasTerminated = at(c, 'state', 'terminated') !== undefined;
      const terminated = rec(at(c, 'state', 'terminated'));
      if (waiting !== '') reason = waiting;
      else if (hasTerminated && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (hasTerminated) reason = int(terminated.signal) !== 0 ? `Signal:${int(terminated.signal)}` : `ExitCode:${int(terminated.exitCode)}`;
      else if (c.ready === true && at(c, 'state', 'running') !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = arr(status.conditions).some((c) => str(rec(c).type) === 'Ready' && str(rec(c).status) === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  if (at(pod, 'metadata', 'deletionTimestamp') !== undefined) reason = str(status.reason) === 'NodeLost' ? 'Unknown' : 'Terminating';
  return { reason, ready, restarts, lastRestart };
}

const pod: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready containers out of all containers.'),
    column('Status', 'string', 'The pod phase, or why it is not running yet.'),
    column('Restarts', 'string', 'Container restarts, and how long ago the last one was.'),
    ageColumn,
    column('IP', 'string', 'The pod IP address.', 1),
    column('Node', 'string', 'The node the pod is bound to.', 1),
    column('Nominated Node', 'string', 'The node the scheduler nominated for preemption.', 1),
    column('Readiness Gates', 'string', 'Readiness gates that are met, out of all.', 1),
  ],
  cells(o, c) {
    const s = podStatus(o);
    const total = arr(at(o, 'spec', 'containers')).length;
    const restarts = s.lastRestart > 0 ? `${s.restarts} (${since(new Date(s.lastRestart).toISOString(), c.now)} ago)` : String(s.restarts);
    const gates = arr(at(o, 'spec', 'readinessGates')).map((g) => str(rec(g).conditionType));
    const conditions = arr(at(o, 'status', 'conditions')).map(rec);
    const met = gates.filter((g) => conditions.find((x) => str(x.type) === g)?.status === 'True').length;
    return [
      name(o),
      `${s.ready}/${total}`,
      s.reason,
      restarts,
      age(o, c.now),
      orNone(str(rec(arr(at(o, 'status', 'podIPs'))[0]).ip)),
      orNone(str(at(o, 'spec', 'nodeName'))),
      orNone(str(at(o, 'status', 'nominatedNodeName'))),
      gates.length === 0 ? '<none>' : `${met}/${gates.length}`,
    ];
  },
  conditions(o) {
    const phase = str(at(o, 'status', 'phase'));
    if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'All containers of the pod finished successfully.' }];
    if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod terminated in failure.' }];
    return undefined;
  },
};

const podTemplate: Printer = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Container names of the template.'),
    column('Images', 'string', 'Container images of the template.'),
    column('Pod Labels', 'string', 'Labels of the pods made from the template.'),
  ],
  cells(o) {
    const [names, images] = containerCells(at(o, 'template', 'spec', 'containers'));
    return [name(o), names, images, formatLabels(at(o, 'template', 'metadata', 'labels'))];
  },
};

const replicationController: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas wanted.'),
    column('Current', 'integer', 'Replicas that exist.'),
    column('Ready', 'integer', 'Replicas that are ready.'),
    ageColumn,
    ...wideContainers,
    column('Selector', 'string', 'Labels of the pods it manages.', 1),
  ],
  cells(o, c) {
    const [names, images] = containerCells(at(o, 'spec', 'template', 'spec', 'containers'));
    return [name(o), int(at(o, 'spec', 'replicas')), int(at(o, 'status', 'replicas')), int(at(o, 'status', 'readyReplicas')), age(o, c.now), names, images, formatLabels(at(o, 'spec', 'selector'))];
  },
};

function loadBalancerIngress(ingress: unknown): string {
  const set = new Set<string>();
  for (const i of arr(ingress).map(rec)) {
    if (str(i.ip) !== '') set.add(str(i.ip));
    else if (str(i.hostname) !== '') set.add(str(i.hostname));
  }
  return [...set].sort().join(',');
}

function externalIP(svc: Obj): string {
  const external = arr(at(svc, 'spec', 'externalIPs')).map(str);
  switch (str(at(svc, 'spec', 'type'))) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIngress(at(svc, 'status', 'loadBalancer', 'ingress'));
      if (external.length > 0) return [...(lb === '' ? [] : lb.split(',')), ...external].join(',');
      return lb !== '' ? lb : '<pending>';
    }
    case 'ExternalName':
      return str(at(svc, 'spec', 'externalName'));
    default:
      return '<unknown>';
  }
}

const service: Printer = {
  columns: [
    nameColumn,
    column('Type', 'string', 'How the service is exposed.'),
    column('Cluster-IP', 'string', 'The virtual IP inside the cluster.'),
    column('External-IP', 'string', 'Addresses reachable from outside the cluster.'),
    column('Port(s)', 'string', 'Service ports (with node ports) and protocols.'),
    ageColumn,
    column('Selector', 'string', 'Labels of the pods that back the service.', 1),
  ],
  cells(o, c) {
    const ports = arr(at(o, 'spec', 'ports'))
      .map(rec)
      .map((p) => (int(p.nodePort) > 0 ? `${int(p.port)}:${int(p.nodePort)}/${str(p.protocol)}` : `${int(p.port)}/${str(p.protocol)}`))
      .join(',');
    return [
      name(o),
      str(at(o, 'spec', 'type')),
      orNone(str(arr(at(o, 'spec', 'clusterIPs'))[0])),
      externalIP(o),
      orNone(ports),
      age(o, c.now),
      formatLabels(at(o, 'spec', 'selector')),
    ];
  },
};

function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

const endpoints: Printer = {
  columns: [nameColumn, column('Endpoints', 'string', 'Addresses (with ports) of the endpoints.'), ageColumn],
  cells(o, c) {
    const subsets = arr(o.subsets).map(rec);
    if (subsets.length === 0) return [name(o), '<none>', age(o, c.now)];
    const list: string[] = [];
    for (const ss of subsets) {
      const addresses = arr(ss.addresses).map((a) => str(rec(a).ip));
      const ports = arr(ss.ports).map(rec);
      if (ports.length === 0) list.push(...addresses);
      else for (const p of ports) for (const a of addresses) list.push(hostPort(a, int(p.port)));
    }
    return [name(o), firstThree(list), age(o, c.now)];
  },
};

function nodeRoles(node: Obj, c: PrintContext): string {
  const prefix = c.profile.subPrefixed('node-role', '');
  const roleLabel = c.profile.prefixed('role');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(rec(at(node, 'metadata', 'labels')))) {
    if (k.startsWith(prefix) && k.length > prefix.length) roles.add(k.slice(prefix.length));
    else if (k === roleLabel && str(v) !== '') roles.add(str(v));
  }
  return orNone([...roles].sort().join(','));
}

function nodeAddress(node: Obj, type: string): string {
  return orNone(str(arr(at(node, 'status', 'addresses')).map(rec).find((a) => str(a.type) === type)?.address));
}

const node: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Readiness, and whether scheduling is disabled.'),
    column('Roles', 'string', 'Roles from the node-role labels.'),
    ageColumn,
    column('Version', 'string', 'The kubelet version.'),
    column('Internal-IP', 'string', 'The internal address.', 1),
    column('External-IP', 'string', 'The external address.', 1),
    column('OS-Image', 'string', 'The operating system image.', 1),
    column('Kernel-Version', 'string', 'The kernel version.', 1),
    column('Container-Runtime', 'string', 'The container runtime and its version.', 1),
  ],
  cells(o, c) {
    const ready = arr(at(o, 'status', 'conditions'))
      .map(rec)
      .find((x) => str(x.type) === 'Ready');
    const status = [ready === undefined ? 'Unknown' : str(ready.status) === 'True' ? 'Ready' : 'NotReady'];
    if (at(o, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
    const info = rec(at(o, 'status', 'nodeInfo'));
    const unknown = (s: string): string => (s === '' ? '<unknown>' : s);
    return [
      name(o),
      status.join(','),
      nodeRoles(o, c),
      age(o, c.now),
      str(info.kubeletVersion),
      nodeAddress(o, 'InternalIP'),
      nodeAddress(o, 'ExternalIP'),
      unknown(str(info.osImage)),
      unknown(str(info.kernelVersion)),
      unknown(str(info.containerRuntimeVersion)),
    ];
  },
};

export const eventColumns = [
  column('Last Seen', 'string', 'When the event was last observed.'),
  column('Type', 'string', 'Normal or Warning.'),
  column('Reason', 'string', 'Why the event happened, in one word.'),
  column('Object', 'string', 'The object the event is about.'),
  column('Subobject', 'string', 'The part of the object, e.g. a container.', 1),
  column('Source', 'string', 'The component that reported it.', 1),
  column('Message', 'string', 'What happened.'),
  column('First Seen', 'string', 'When the event was first observed.', 1),
  column('Count', 'string', 'How often it happened.', 1),
  { ...nameColumn, priority: 1 },
];

export interface EventFacts {
  first: unknown;
  eventTime: unknown;
  last: unknown;
  count: unknown;
  series?: Obj;
  involved: Obj;
  type: string;
  reason: string;
  message: string;
  component: string;
  host: string;
}

/** The event row from its facts (core/v1 and events/v1 events spell them differently). */
export function eventCells(o: Obj, f: EventFacts, now: Date): unknown[] {
  let first = since(f.first, now);
  if (typeof f.first !== 'string') first = since(f.eventTime, now);
  let last = typeof f.last === 'string' ? since(f.last, now) : first;
  let count = int(f.count);
  if (f.series !== undefined) {
    last = since(f.series.lastObservedTime, now);
    count = int(f.series.count);
  } else if (count === 0) count = 1;
  const kind = str(f.involved.kind).toLowerCase();
  const target = str(f.involved.name) !== '' ? `${kind}/${str(f.involved.name)}` : kind;
  const source = f.host === '' ? f.component : `${f.component}, ${f.host}`;
  return [last, f.type, f.reason, target, str(f.involved.fieldPath), source, f.message.trim(), first, count, name(o)];
}

const event: Printer = {
  columns: eventColumns,
  cells(o, c) {
    const series = at(o, 'series');
    return eventCells(
      o,
      {
        first: o.firstTimestamp,
        eventTime: o.eventTime,
        last: o.lastTimestamp,
        count: o.count,
        ...(series !== undefined ? { series: rec(series) } : {}),
        involved: rec(o.involvedObject),
        type: str(o.type),
        reason: str(o.reason),
        message: str(o.message),
        component: str(at(o, 'source', 'component')) || str(o.reportingComponent),
        host: str(at(o, 'source', 'host')) || str(o.reportingInstance),
      },
      c.now,
    );
  },
};

const namespace: Printer = {
  columns: [nameColumn, column('Status', 'string', 'Active or Terminating.'), ageColumn],
  cells: (o, c) => [name(o), str(at(o, 'status', 'phase')), age(o, c.now)],
};

const secret: Printer = {
  columns: [nameColumn, column('Type', 'string', 'The kind of secret.'), column('Data', 'string', 'Number of data items.'), ageColumn],
  cells: (o, c) => [name(o), str(o.type), Object.keys(rec(o.data)).length, age(o, c.now)],
};

const serviceAccount: Printer = {
  columns: [nameColumn, column('Secrets', 'string', 'Number of referenced secrets.'), ageColumn],
  cells: (o, c) => [name(o), arr(o.secrets).length, age(o, c.now)],
};

const configMap: Printer = {
  columns: [nameColumn, column('Data', 'string', 'Number of data and binary data items.'), ageColumn],
  cells: (o, c) => [name(o), Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length, age(o, c.now)],
};

function storageClassOf(o: Obj, c: PrintContext): string {
  const legacy = str(rec(at(o, 'metadata', 'annotations'))[c.profile.subPrefixed('volume.beta', 'storage-class')]);
  return legacy !== '' ? legacy : str(at(o, 'spec', 'storageClassName'));
}

const volumeMode = column('VolumeMode', 'string', 'Filesystem or Block.', 1);

const persistentVolume: Printer = {
  columns: [
    nameColumn,
    column('Capacity', 'string', 'Storage capacity.'),
    column('Access Modes', 'string', 'How the volume can be mounted.'),
    column('Reclaim Policy', 'string', 'What happens to the volume when released.'),
    column('Status', 'string', 'The volume phase.'),
    column('Claim', 'string', 'The claim bound to the volume.'),
    column('StorageClass', 'string', 'The storage class of the volume.'),
    column('Reason', 'string', 'Why the volume is in its phase.'),
    ageColumn,
    volumeMode,
  ],
  cells(o, c) {
    const claim = at(o, 'spec', 'claimRef');
    const phase = at(o, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : str(at(o, 'status', 'phase'));
    return [
      name(o),
      str(at(o, 'spec', 'capacity', 'storage')) || '0',
      accessModes(at(o, 'spec', 'accessModes')),
      str(at(o, 'spec', 'persistentVolumeReclaimPolicy')),
      phase,
      claim === undefined ? '' : `${str(rec(claim).namespace)}/${str(rec(claim).name)}`,
      storageClassOf(o, c),
      str(at(o, 'status', 'reason')),
      age(o, c.now),
      str(at(o, 'spec', 'volumeMode')) || '<unset>',
    ];
  },
};

const persistentVolumeClaim: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The claim phase.'),
    column('Volume', 'string', 'The volume bound to the claim.'),
    column('Capacity', 'string', 'Capacity of the bound volume.'),
    column('Access Modes', 'string', 'How the bound volume can be mounted.'),
    column('StorageClass', 'string', 'The storage class of the claim.'),
    ageColumn,
    volumeMode,
  ],
  cells(o, c) {
    const phase = at(o, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : str(at(o, 'status', 'phase'));
    const volume = str(at(o, 'spec', 'volumeName'));
    const bound = volume !== '';
    return [
      name(o),
      phase,
      volume,
      bound ? str(at(o, 'status', 'capacity', 'storage')) || '0' : '',
      bound ? accessModes(at(o, 'status', 'accessModes')) : '',
      storageClassOf(o, c),
      age(o, c.now),
      str(at(o, 'spec', 'volumeMode')) || '<unset>',
    ];
  },
};

const componentStatus: Printer = {
  columns: [nameColumn, column('Status', 'string', 'Healthy or Unhealthy.'), column('Message', 'string', 'Health message.'), column('Error', 'string', 'Health error.')],
  cells(o) {
    const healthy = arr(o.conditions)
      .map(rec)
      .find((x) => str(x.type) === 'Healthy');
    const status = healthy === undefined ? 'Unknown' : str(healthy.status) === 'True' ? 'Healthy' : 'Unhealthy';
    return [name(o), status, str(healthy?.message), str(healthy?.error)];
  },
};

const resourceQuota: Printer = {
  columns: [nameColumn, ageColumn, column('Request', 'string', 'Used and hard request quotas.'), column('Limit', 'string', 'Used and hard limit quotas.')],
  cells(o, c) {
    const hard = rec(at(o, 'status', 'hard'));
    const used = rec(at(o, 'status', 'used'));
    const requests: string[] = [];
    const limits: string[] = [];
    for (const r of Object.keys(hard).sort()) {
      const text = `${r}: ${str(used[r]) || '0'}/${str(hard[r])}`;
      (r.startsWith('limits.') ? limits : requests).push(text);
    }
    return [name(o), age(o, c.now), requests.join(', '), limits.join(', ')];
  },
};

export const corePrinters: Record<string, Printer> = {
  Pod: pod,
  PodTemplate: podTemplate,
  ReplicationController: replicationController,
  Service: service,
  Endpoints: endpoints,
  Node: node,
  Event: event,
  Namespace: namespace,
  Secret: secret,
  ServiceAccount: serviceAccount,
  ConfigMap: configMap,
  PersistentVolume: persistentVolume,
  PersistentVolumeClaim: persistentVolumeClaim,
  ComponentStatus: componentStatus,
  ResourceQuota: resourceQuota,
};
