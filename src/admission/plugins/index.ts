/**
 * Every admission plugin the server knows, in the real v1.27 recommended
 * order (the order they run in, whatever order the flags name them in), and
 * the set enabled by default. One file per plugin beside this one; those
 * off by default are loaded only when enabled (off-by-default-plugins.lazy.ts).
 */

import type { AdmissionPluginFactory } from '../types';
import { namespaceLifecycle } from './namespace-lifecycle';
import { limitRanger } from './limit-ranger';
import { serviceAccount } from './service-account';
import { taintNodesByCondition } from './taint-nodes-by-condition';
import { podSecurity } from './pod-security';
import { priority } from './priority';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { defaultStorageClass } from './default-storage-class';
import { storageObjectInUseProtection } from './storage-object-in-use-protection';
import { persistentVolumeClaimResize } from './persistent-volume-claim-resize';
import { runtimeClass } from './runtime-class';
import { certificateApproval } from './certificate-approval';
import { certificateSigning } from './certificate-signing';
import { clusterTrustBundleAttest } from './cluster-trust-bundle-attest';
import { certificateSubjectRestriction } from './certificate-subject-restriction';
import { defaultIngressClass } from './default-ingress-class';
import { mutatingAdmissionWebhook } from './mutating-admission-webhook';
import { validatingAdmissionPolicy } from './validating-admission-policy';
import { validatingAdmissionWebhook } from './validating-admission-webhook';
import { resourceQuota } from './resource-quota';

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

/** The plugins on by default, on the path to the first answer; the others are a lazy script (see library.ts). */
export const defaultOnFactories: Readonly<Partial<Record<AdmissionPluginName, AdmissionPluginFactory>>> = {
  NamespaceLifecycle: namespaceLifecycle,
  LimitRanger: limitRanger,
  ServiceAccount: serviceAccount,
  TaintNodesByCondition: taintNodesByCondition,
  PodSecurity: podSecurity,
  Priority: priority,
  DefaultTolerationSeconds: defaultTolerationSeconds,
  DefaultStorageClass: defaultStorageClass,
  StorageObjectInUseProtection: storageObjectInUseProtection,
  PersistentVolumeClaimResize: persistentVolumeClaimResize,
  RuntimeClass: runtimeClass,
  CertificateApproval: certificateApproval,
  CertificateSigning: certificateSigning,
  ClusterTrustBundleAttest: clusterTrustBundleAttest,
  CertificateSubjectRestriction: certificateSubjectRestriction,
  DefaultIngressClass: defaultIngressClass,
  MutatingAdmissionWebhook: mutatingAdmissionWebhook,
  ValidatingAdmissionPolicy: validatingAdmissionPolicy,
  ValidatingAdmissionWebhook: validatingAdmissionWebhook,
  ResourceQuota: resourceQuota,
};
