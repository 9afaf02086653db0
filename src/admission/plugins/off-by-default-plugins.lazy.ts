/**
 * The admission plugins that are off unless `--enable-admission-plugins`
 * (or the workshop's settings) names them: loaded when a chain that enables
 * one is built, never on the path to the worker's first response (decision
 * 0070). The default-on plugins stay in plugins/index.ts.
 */

import type { AdmissionPluginFactory } from '../types';
import type { AdmissionPluginName } from './index';
import { alwaysAdmit } from './always-admit';
import { namespaceAutoProvision } from './namespace-auto-provision';
import { namespaceExists } from './namespace-exists';
import { securityContextDeny } from './security-context-deny';
import { limitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity-topology';
import { nodeRestriction } from './node-restriction';
import { alwaysPullImages } from './always-pull-images';
import { imagePolicyWebhook } from './image-policy-webhook';
import { podNodeSelector } from './pod-node-selector';
import { podTolerationRestriction } from './pod-toleration-restriction';
import { eventRateLimit } from './event-rate-limit';
import { extendedResourceToleration } from './extended-resource-toleration';
import { persistentVolumeLabel } from './persistent-volume-label';
import { ownerReferencesPermissionEnforcement } from './owner-references-permission-enforcement';
import { denyServiceExternalIPs } from './deny-service-external-i-ps';
import { alwaysDeny } from './always-deny';

export const offByDefaultFactories: Readonly<Partial<Record<AdmissionPluginName, AdmissionPluginFactory>>> = {
  AlwaysAdmit: alwaysAdmit,
  NamespaceAutoProvision: namespaceAutoProvision,
  NamespaceExists: namespaceExists,
  SecurityContextDeny: securityContextDeny,
  LimitPodHardAntiAffinityTopology: limitPodHardAntiAffinityTopology,
  NodeRestriction: nodeRestriction,
  AlwaysPullImages: alwaysPullImages,
  ImagePolicyWebhook: imagePolicyWebhook,
  PodNodeSelector: podNodeSelector,
  PodTolerationRestriction: podTolerationRestriction,
  EventRateLimit: eventRateLimit,
  ExtendedResourceToleration: extendedResourceToleration,
  PersistentVolumeLabel: persistentVolumeLabel,
  OwnerReferencesPermissionEnforcement: ownerReferencesPermissionEnforcement,
  DenyServiceExternalIPs: denyServiceExternalIPs,
  AlwaysDeny: alwaysDeny,
};
