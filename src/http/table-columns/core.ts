/**
 * Printers of the core group's remaining kinds: Namespace, ConfigMap,
 * Secret, ServiceAccount, persistent volumes and claims, ComponentStatus
 * and ResourceQuota — and the table of every core printer.
 */

import type { Printer, PrintContext } from './printer';
import { accessModes, age, ageColumn, arr, at, column, nameColumn, rec, str, type Obj } from './format';
import { podPrinters } from './pods';
import { servicePrinters } from './services';
import { eventPrinters } from './events';

const name = (o: Obj): string => str(at(o, 'metadata', 'name'));

const namespace: Printer = {
  columns: [nameColumn, column('Status', 'string', 'Active or Terminating.'), ageColumn],
  cells: (o, c) => [name(o), str(at(o, 'status', 'phase')), age(o, c.now)],
};

const secret: Printer = {
  columns: [
    nameColumn,
    column('Type', 'string', 'The kind of secret.'),
    column('Data', 'string', 'Number of data items.'),
    ageColumn,
  ],
  cells: (o, c) => [name(o), str(o.type), Object.keys(rec(o.data)).length, age(o, c.now)],
};

const serviceAccount: Printer = {
  columns: [nameColumn, column('Secrets', 'string', 'Number of referenced secrets.'), ageColumn],
  cells: (o, c) => [name(o), arr(o.secrets).length, age(o, c.now)],
};

const configMap: Printer = {
  columns: [nameColumn, column('Data', 'string', 'Number of data and binary data items.'), ageColumn],
  cells: (o, c) => [
    name(o),
    Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length,
    age(o, c.now),
  ],
};

function storageClassOf(o: Obj, c: PrintContext): string {
  const legacy = str(
    rec(at(o, 'metadata', 'annotations'))[c.profile.subPrefixed('volume.beta', 'storage-class')],
  );
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
    const phase =
      at(o, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : str(at(o, 'status', 'phase'));
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
    const phase =
      at(o, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : str(at(o, 'status', 'phase'));
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
  columns: [
    nameColumn,
    column('Status', 'string', 'Healthy or Unhealthy.'),
    column('Message', 'string', 'Health message.'),
    column('Error', 'string', 'Health error.'),
  ],
  cells(o) {
    const healthy = arr(o.conditions)
      .map(rec)
      .find((x) => str(x.type) === 'Healthy');
    const status =
      healthy === undefined ? 'Unknown' : str(healthy.status) === 'True' ? 'Healthy' : 'Unhealthy';
    return [name(o), status, str(healthy?.message), str(healthy?.error)];
  },
};

const resourceQuota: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'string', 'Used and hard request quotas.'),
    column('Limit', 'string', 'Used and hard limit quotas.'),
  ],
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
  ...podPrinters,
  ...servicePrinters,
  Event: eventPrinters.core,
  Namespace: namespace,
  Secret: secret,
  ServiceAccount: serviceAccount,
  ConfigMap: configMap,
  PersistentVolume: persistentVolume,
  PersistentVolumeClaim: persistentVolumeClaim,
  ComponentStatus: componentStatus,
  ResourceQuota: resourceQuota,
};
