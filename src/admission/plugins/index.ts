/**
 * Every admission plugin the server knows, in the real v1.27 recommended
 * order (the order they run in, whatever order the flags name them in), and
 * the set enabled by default. One file per plugin beside this one.
 */

import type { AdmissionPluginFactory } from '../types';
import { alwaysAdmit } from './always-admit';
import { namespaceAutoProvision } from './namespace-auto-provision';
import { namespaceLifecycle } from './namespace-lifecycle';
import { namespaceExists } from './namespace-exists';
import { securityContextDeny } from './security-context-deny';
import { limitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity-topology';
import { limitRanger } from './limit-ranger';
import { serviceAccount } from './service-account';
import { nodeRestriction } from './node-restriction';
import { taintNodesByCondition } from './taint-nodes-by-condition';
import { alwaysPullImages } from './always-pull-images';
import { imagePolicyWebhook } from './image-policy-webhook';
import { podSecurity } from './pod-security';
import { podNodeSelector } from './pod-node-selector';
import { priority } from './priority';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { podTolerationRestriction } from './pod-toleration-restriction';
import { eventRateLimit } from './event-rate-limit';
import { extendedResourceToleration } from './extended-resource-toleration';
import { persistentVolumeLabel } from './persistent-volume-label';
import { defaultStorageClass } from './default-storage-class';
import { storageObjectInUseProtection } from './storage-object-in-use-protection';
import { ownerReferencesPermissionEnforcement } from './owner-references-permission-enforcement';
import { persistentVolumeClaimResize } from './persistent-volume-claim-resize';
import { runtimeClass } from './runtime-class';
import { certificateApproval } from './certificate-approval';
import { certificateSigning } from './certificate-signing';
import { clusterTrustBundleAttest } from './cluster-trust-bundle-attest';
import { certificateSubjectRestriction } from './certificate-subject-restriction';
import { defaultIngressClass } from './default-ingress-class';
import { denyServiceExternalIPs } from './deny-service-external-i-ps';
import { mutatingAdmissionWebhook } from './mutating-admission-webhook';
import { validatingAdmissionPolicy } from './validating-admission-policy';
import { validatingAdmissionWebhook } from './validating-admission-webhook';
import { resourceQuota } from './resource-quota';
import { alwaysDeny } from './always-deny';

/** The recommended order (kube-apiserver's `AllOrderedPlugins`). */
export const orderedPluginNames = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'SecurityContextDeny',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'PersistentVolumeLabel',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;

export type AdmissionPluginName = (typeof orderedPluginNames)[number];

/** Enabled unless `--disable-admission-plugins` names them. */
export const defaultOnPluginNames: ReadonlySet<string> = new Set<AdmissionPluginName>([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
]);

export const pluginFactories: Record<AdmissionPluginName, AdmissionPluginFactory> = {
  AlwaysAdmit: alwaysAdmit,
  NamespaceAutoProvision: namespaceAutoProvision,
  NamespaceLifecycle: namespaceLifecycle,
  NamespaceExists: namespaceExists,
  SecurityContextDeny: securityContextDeny,
  LimitPodHardAntiAffinityTopology: limitPodHardAntiAffinityTopology,
  LimitRanger: limitRanger,
  ServiceAccount: serviceAccount,
  NodeRestriction: nodeRestriction,
  TaintNodesByCondition: taintNodesByCondition,
  AlwaysPullImages: alwaysPullImages,
  ImagePolicyWebhook: imagePolicyWebhook,
  PodSecurity: podSecurity,
  PodNodeSelector: podNodeSelector,
  Priority: priority,
  DefaultTolerationSeconds: defaultTolerationSeconds,
  PodTolerationRestriction: podTolerationRestriction,
  EventRateLimit: eventRateLimit,
  ExtendedResourceToleration: extendedResourceToleration,
  PersistentVolumeLabel: persistentVolumeLabel,
  DefaultStorageClass: defaultStorageClass,
  StorageObjectInUseProtection: storageObjectInUseProtection,
  OwnerReferencesPermissionEnforcement: ownerReferencesPermissionEnforcement,
  PersistentVolumeClaimResize: persistentVolumeClaimResize,
  RuntimeClass: runtimeClass,
  CertificateApproval: certificateApproval,
  CertificateSigning: certificateSigning,
  ClusterTrustBundleAttest: clusterTrustBundleAttest,
  CertificateSubjectRestriction: certificateSubjectRestriction,
  DefaultIngressClass: defaultIngressClass,
  DenyServiceExternalIPs: denyServiceExternalIPs,
  MutatingAdmissionWebhook: mutatingAdmissionWebhook,
  ValidatingAdmissionPolicy: validatingAdmissionPolicy,
  ValidatingAdmissionWebhook: validatingAdmissionWebhook,
  ResourceQuota: resourceQuota,
  AlwaysDeny: alwaysDeny,
};
