/**
 * Printers of the kinds in the product-suffixed groups: networking
 * (Ingress, IngressClass, NetworkPolicy), RBAC bindings, certificate
 * signing requests, leases, storage, scheduling, node runtime classes,
 * endpoint slices, admission webhook configurations, and events/v1 Event
 * (see `events.ts`).
 */

import type { Printer } from './printer';
import { eventPrinters } from './events';
import {
  age,
  ageColumn,
  arr,
  at,
  column,
  firstThree,
  formatSelector,
  humanDuration,
  int,
  nameColumn,
  rec,
  str,
  type Obj,
} from './format';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));

const ingress: Printer = {
  columns: [
    nameColumn,
    column('Class', 'string', 'The ingress class that implements it.'),
    column('Hosts', 'string', 'Hosts the rules match.'),
    column('Address', 'string', 'Addresses of the load balancer.'),
    column('Ports', 'string', 'Ports it serves (443 with TLS).'),
    ageColumn,
  ],
  cells(o, c) {
    // At most three hosts; `+ N more...` counts every further rule, as kubectl users know it.
    const rules = arr(at(o, 'spec', 'rules')).map(rec);
    const hosts: string[] = [];
    let more = false;
    for (const r of rules) {
      if (hosts.length === 3) more = true;
      if (!more && str(r.host) !== '') hosts.push(str(r.host));
    }
    const address = new Set<string>();
    for (const i of arr(at(o, 'status', 'loadBalancer', 'ingress')).map(rec)) {
      if (str(i.ip) !== '') address.add(str(i.ip));
      else if (str(i.hostname) !== '') address.add(str(i.hostname));
    }
    return [
      name(o),
      str(at(o, 'spec', 'ingressClassName')) || '<none>',
      hosts.length === 0 ? '*' : more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(','),
      [...address].sort().join(','),
      arr(at(o, 'spec', 'tls')).length > 0 ? '80, 443' : '80',
      age(o, c.now),
    ];
  },
};

const ingressClass: Printer = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'The controller that implements the class.'),
    column('Parameters', 'string', 'The resource holding its parameters.'),
    ageColumn,
  ],
  cells(o, c) {
    const p = at(o, 'spec', 'parameters');
    let params = '<none>';
    if (p !== undefined) {
      const group = str(rec(p).apiGroup);
      params = `${str(rec(p).kind)}${group === '' ? '' : `.${group}`}/${str(rec(p).name)}`;
    }
    return [name(o), str(at(o, 'spec', 'controller')), params, age(o, c.now)];
  },
};

const networkPolicy: Printer = {
  columns: [nameColumn, column('Pod-Selector', 'string', 'The pods the policy applies to.'), ageColumn],
  cells: (o, c) => [name(o), formatSelector(at(o, 'spec', 'podSelector')), age(o, c.now)],
};

function subjects(o: Obj): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const accounts: string[] = [];
  for (const s of arr(o.subjects).map(rec)) {
    if (str(s.kind) === 'User') users.push(str(s.name));
    else if (str(s.kind) === 'Group') groups.push(str(s.name));
    else if (str(s.kind) === 'ServiceAccount') accounts.push(`${str(s.namespace)}:${str(s.name)}`);
  }
  return [users.join(', '), groups.join(', '), accounts.join(', ')];
}

const binding: Printer = {
  columns: [
    nameColumn,
    column('Role', 'string', 'The role it grants.'),
    ageColumn,
    column('Users', 'string', 'Users it binds.', 1),
    column('Groups', 'string', 'Groups it binds.', 1),
    column('ServiceAccounts', 'string', 'Service accounts it binds.', 1),
  ],
  cells: (o, c) => [
    name(o),
    `${str(at(o, 'roleRef', 'kind'))}/${str(at(o, 'roleRef', 'name'))}`,
    age(o, c.now),
    ...subjects(o),
  ],
};

const certificateSigningRequest: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column('SignerName', 'string', 'The signer asked to sign.'),
    column('Requestor', 'string', 'Who asked for the certificate.'),
    column('RequestedDuration', 'string', 'The validity asked for.'),
    column('Condition', 'string', 'Approved, Denied or Pending; Failed and Issued when so.'),
  ],
  cells(o, c) {
    const types = new Set(arr(at(o, 'status', 'conditions')).map((x) => str(rec(x).type)));
    let condition = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
    if (types.has('Failed')) condition += ',Failed';
    if (str(at(o, 'status', 'certificate')) !== '') condition += ',Issued';
    const seconds = at(o, 'spec', 'expirationSeconds');
    return [
      name(o),
      age(o, c.now),
      str(at(o, 'spec', 'signerName')) || '<none>',
      str(at(o, 'spec', 'username')),
      typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>',
      condition,
    ];
  },
};

const lease: Printer = {
  columns: [nameColumn, column('Holder', 'string', 'The current holder of the lease.'), ageColumn],
  cells: (o, c) => [name(o), str(at(o, 'spec', 'holderIdentity')), age(o, c.now)],
};

const storageClass: Printer = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', 'The volume provisioner.'),
    column('ReclaimPolicy', 'string', 'What happens to released volumes.'),
    column('VolumeBindingMode', 'string', 'When volumes are bound.'),
    column('AllowVolumeExpansion', 'string', 'Whether volumes may grow.'),
    ageColumn,
  ],
  cells(o, c) {
    const annotations = rec(at(o, 'metadata', 'annotations'));
    const isDefault =
      str(annotations[c.profile.subPrefixed('storageclass', 'is-default-class')]) === 'true' ||
      str(annotations[c.profile.subPrefixed('storageclass.beta', 'is-default-class')]) === 'true';
    return [
      isDefault ? `${name(o)} (default)` : name(o),
      str(o.provisioner),
      str(o.reclaimPolicy) || 'Delete',
      str(o.volumeBindingMode) || 'Immediate',
      o.allowVolumeExpansion === true,
      age(o, c.now),
    ];
  },
};

const priorityClass: Printer = {
  columns: [
    nameColumn,
    column('Value', 'integer', 'The priority.'),
    column('Global-Default', 'boolean', 'Whether pods without a class get it.'),
    ageColumn,
  ],
  cells: (o, c) => [name(o), int(o.value), o.globalDefault === true, age(o, c.now)],
};

const runtimeClass: Printer = {
  columns: [nameColumn, column('Handler', 'string', 'The runtime handler.'), ageColumn],
  cells: (o, c) => [name(o), str(o.handler), age(o, c.now)],
};

const volumeAttachment: Printer = {
  columns: [
    nameColumn,
    column('Attacher', 'string', 'The volume driver that attaches.', 0, 'name'),
    column('PV', 'string', 'The persistent volume.'),
    column('Node', 'string', 'The node it is attached to.'),
    column('Attached', 'boolean', 'Whether the attachment succeeded.'),
    ageColumn,
  ],
  cells: (o, c) => [
    name(o),
    str(at(o, 'spec', 'attacher')),
    str(at(o, 'spec', 'source', 'persistentVolumeName')),
    str(at(o, 'spec', 'nodeName')),
    at(o, 'status', 'attached') === true,
    age(o, c.now),
  ],
};

const endpointSlice: Printer = {
  columns: [
    nameColumn,
    column('AddressType', 'string', 'IPv4, IPv6 or FQDN.'),
    column('Ports', 'string', 'The ports of the endpoints.'),
    column('Endpoints', 'string', 'Addresses of the endpoints.'),
    ageColumn,
  ],
  cells(o, c) {
    const ports = arr(o.ports)
      .map(rec)
      .map((p) => (typeof p.port === 'number' ? String(p.port) : str(p.name) || '*'));
    const addresses = arr(o.endpoints).flatMap((e) => arr(rec(e).addresses).map(str));
    const orUnset = (s: string): string => (s === '' ? '<unset>' : s);
    return [
      name(o),
      str(o.addressType),
      orUnset(firstThree(ports)),
      orUnset(firstThree(addresses)),
      age(o, c.now),
    ];
  },
};

const csiNode: Printer = {
  columns: [nameColumn, column('Drivers', 'integer', 'Drivers registered on the node.'), ageColumn],
  cells: (o, c) => [name(o), arr(at(o, 'spec', 'drivers')).length, age(o, c.now)],
};

const csiDriver: Printer = {
  columns: [
    nameColumn,
    column('AttachRequired', 'boolean', 'Whether volumes need an attach step.'),
    column('PodInfoOnMount', 'boolean', 'Whether pod information is passed on mount.'),
    column('StorageCapacity', 'boolean', 'Whether capacity is reported.'),
    column('TokenRequests', 'string', 'Audiences of the tokens it asks for.'),
    column('RequiresRepublish', 'boolean', 'Whether volumes are republished periodically.'),
    column('Modes', 'string', 'Supported volume lifecycle modes.'),
    ageColumn,
  ],
  cells(o, c) {
    const spec = rec(o.spec);
    const tokens =
      spec.tokenRequests === undefined
        ? '<unset>'
        : arr(spec.tokenRequests)
            .map((t) => str(rec(t).audience))
            .join(',');
    const modes = arr(spec.volumeLifecycleModes).map(str).join(',');
    return [
      name(o),
      spec.attachRequired !== false,
      spec.podInfoOnMount === true,
      spec.storageCapacity === true,
      tokens,
      spec.requiresRepublish === true,
      modes === '' ? '<none>' : modes,
      age(o, c.now),
    ];
  },
};

const csiStorageCapacity: Printer = {
  columns: [
    nameColumn,
    column('StorageClassName', 'string', 'The storage class.'),
    column('Capacity', 'string', 'Available capacity.'),
  ],
  cells: (o) => [name(o), str(o.storageClassName), str(o.capacity) || '<unset>'],
};

const webhooks: Printer = {
  columns: [nameColumn, column('Webhooks', 'integer', 'Webhooks in the configuration.'), ageColumn],
  cells: (o, c) => [name(o), arr(o.webhooks).length, age(o, c.now)],
};

/** By neutral group base name (the profile adds its suffix), then kind. */
export const suffixedPrinters: Record<string, Record<string, Printer>> = {
  networking: { Ingress: ingress, IngressClass: ingressClass, NetworkPolicy: networkPolicy },
  'rbac.authorization': { RoleBinding: binding, ClusterRoleBinding: binding },
  certificates: { CertificateSigningRequest: certificateSigningRequest },
  coordination: { Lease: lease },
  storage: {
    StorageClass: storageClass,
    VolumeAttachment: volumeAttachment,
    CSINode: csiNode,
    CSIDriver: csiDriver,
    CSIStorageCapacity: csiStorageCapacity,
  },
  scheduling: { PriorityClass: priorityClass },
  node: { RuntimeClass: runtimeClass },
  discovery: { EndpointSlice: endpointSlice },
  admissionregistration: { MutatingWebhookConfiguration: webhooks, ValidatingWebhookConfiguration: webhooks },
  events: { Event: eventPrinters.v1 },
};
