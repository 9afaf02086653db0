/**
 * Restricted (replacing the baseline hostPath check): volumes may only be
 * of the core kinds that carry no host or network storage of their own —
 * configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim,
 * projected, secret. Anything else, or a volume of no known kind, is named.
 */

import { joinQuote, pluralize, sortedSet, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

const allowedSources = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

/** The v1 volume sources the real check names; any other source is reported as `unknown`. */
const knownRestricted = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function restrictedVolumes(_meta: unknown, spec: PodSpecView): CheckResult {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of spec.volumes ?? []) {
    if ([...allowedSources].some((s) => isSet(volume[s]))) continue;
    badVolumes.push(volume.name ?? '');
    badTypes.push(knownRestricted.find((s) => isSet(volume[s])) ?? 'unknown');
  }
  if (badVolumes.length === 0) return allowed;
  const types = sortedSet(badTypes);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
}

export const restrictedVolumesCheck: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumVersion: 0, checkPod: restrictedVolumes, overrides: ['hostPathVolumes'] }],
};
