/**
 * Printers of the core group's networking and node kinds: Service
 * (cluster and external IPs, ports), Endpoints and Node (readiness,
 * roles from the profile's node-role labels, addresses, runtime).
 */

import type { Printer, PrintContext } from './printer';
import {
  age,
  ageColumn,
  arr,
  at,
  column,
  firstThree,
  formatLabels,
  int,
  nameColumn,
  orNone,
  rec,
  str,
  type Obj,
} from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));

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
      .map((p) =>
        int(p.nodePort) > 0
          ? `${int(p.port)}:${int(p.nodePort)}/${str(p.protocol)}`
          : `${int(p.port)}/${str(p.protocol)}`,
      )
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
  return orNone(
    str(
      arr(at(node, 'status', 'addresses'))
        .map(rec)
        .find((a) => str(a.type) === type)?.address,
    ),
  );
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

export const servicePrinters: Record<string, Printer> = {
  Service: service,
  Endpoints: endpoints,
  Node: node,
};
