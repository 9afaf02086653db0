/**
 * The admission plugins on by default: loaded when a chain is built by a
 * caller that awaited `loadAdmissionPlugins` (the Node host's start, a
 * settings change), else at the chain's first admission (the browser
 * worker's start, where no write a first visit makes goes through
 * admission; decision 0122). Their informers are asked for at the chain's
 * construction all the same (default-on-listers.ts).
 */

import type { AdmissionPluginFactory } from '../types';
import type { AdmissionPluginName } from './index';
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
