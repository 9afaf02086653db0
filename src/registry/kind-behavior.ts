/**
 * Behaviour of each built-in kind that the OpenAPI data does not carry but
 * the real server's per-kind strategies decide: whether PUT may create,
 * which name rule applies, whether `metadata.generation` is tracked (and
 * which fields bump it), what status a new object starts with, and whether
 * DELETE answers with the object or with a Status.
 */

import type { JsonObject } from '../api/meta';
import type { NameRule } from '../machinery/names';

export interface KindBehavior {
  /** PUT to a missing name creates the object (Service, Lease, Endpoints, Event, RBAC, LimitRange). */
  allowCreateOnUpdate: boolean;
  nameRule: NameRule;
  /**
   * Top-level fields whose change increments `metadata.generation` (which
   * starts at 1); `'*'` means every field but metadata and status (custom
   * resources). Absent: the kind has no generation.
   */
  generationFields?: readonly string[] | '*';
  /** Status a new object starts with when the kind has a status subresource (the rest is cleared). */
  initialStatus?: JsonObject;
  /** True when a create keeps the status the client sent (Node). */
  keepStatusOnCreate?: boolean;
  /** DELETE answers with the deleted object instead of a Status. */
  returnDeletedObject: boolean;
}

const defaults: KindBehavior = {
  allowCreateOnUpdate: false,
  nameRule: 'subdomain',
  returnDeletedObject: false,
};

/** Overrides by kind (kinds are unique across the built-in groups except where noted by group). */
const overrides: Record<string, Partial<KindBehavior>> = {
  Namespace: { nameRule: 'label', initialStatus: { phase: 'Active' }, returnDeletedObject: true },
  Service: {
    allowCreateOnUpdate: true,
    nameRule: 'dns1035',
    initialStatus: { loadBalancer: {} },
    returnDeletedObject: true,
  },
  Endpoints: { allowCreateOnUpdate: true },
  Event: { allowCreateOnUpdate: true },
  Lease: { allowCreateOnUpdate: true },
  LimitRange: { allowCreateOnUpdate: true },
  Role: { allowCreateOnUpdate: true, nameRule: 'path' },
  ClusterRole: { allowCreateOnUpdate: true, nameRule: 'path' },
  RoleBinding: { allowCreateOnUpdate: true, nameRule: 'path' },
  ClusterRoleBinding: { allowCreateOnUpdate: true, nameRule: 'path' },
  // Any name a URL path segment can carry (the real ValidateCertificateRequestName accepts every name).
  CertificateSigningRequest: { nameRule: 'path' },
  Pod: { initialStatus: { phase: 'Pending', qosClass: 'BestEffort' }, returnDeletedObject: true },
  PersistentVolume: { initialStatus: { phase: 'Pending' } },
  PersistentVolumeClaim: { initialStatus: { phase: 'Pending' } },
  Node: { keepStatusOnCreate: true },
  ServiceAccount: { returnDeletedObject: true },
  StorageClass: { returnDeletedObject: true },
  Deployment: { generationFields: ['spec'] },
  ReplicaSet: { generationFields: ['spec'] },
  StatefulSet: { generationFields: ['spec'] },
  DaemonSet: { generationFields: ['spec'] },
  ReplicationController: { generationFields: ['spec'] },
  Job: { generationFields: ['spec'] },
  CronJob: { generationFields: ['spec'] },
  PodDisruptionBudget: { generationFields: ['spec'] },
  Ingress: { generationFields: ['spec'] },
  IngressClass: { generationFields: ['spec'] },
  NetworkPolicy: { generationFields: ['spec'] },
  FlowSchema: { generationFields: ['spec'] },
  PriorityLevelConfiguration: { generationFields: ['spec'] },
  ValidatingWebhookConfiguration: { generationFields: ['webhooks'] },
  MutatingWebhookConfiguration: { generationFields: ['webhooks'] },
  ValidatingAdmissionPolicy: { generationFields: ['spec'] },
  ValidatingAdmissionPolicyBinding: { generationFields: ['spec'] },
  CustomResourceDefinition: { generationFields: ['spec'] },
  // The aggregator checks only that the name is a path segment (`v1.` names the core group's APIService).
  APIService: { nameRule: 'path' },
};

export function builtInKindBehavior(kind: string): KindBehavior {
  return { ...defaults, ...overrides[kind] };
}

/** Custom resources: generation tracks every field but metadata and status. */
export function customResourceBehavior(): KindBehavior {
  return { ...defaults, generationFields: '*' };
}
