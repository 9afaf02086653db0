/**
 * PersistentVolumeLabel (deprecated since v1.13, off by default): in the
 * real server it asks the configured cloud provider for the region and zone
 * of a new cloud disk volume (AWS EBS, GCE PD, Azure Disk, vSphere) and
 * labels the PersistentVolume with them. The sandbox runs with no cloud
 * provider, where the real plugin finds no labeler for any volume and
 * changes nothing — so enabling it is accepted and it admits every volume
 * untouched.
 */

import type { AdmissionPluginFactory } from '../types';

export const persistentVolumeLabel: AdmissionPluginFactory = () => ({
  name: 'PersistentVolumeLabel',
  operations: ['CREATE'],
});
