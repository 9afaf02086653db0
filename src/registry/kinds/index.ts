/**
 * Every kind with special behaviour, by `<group>/<Kind>` (the group's short
 * name from its definition: `core`, `apps`, `certificates`, …). A kind not
 * listed here is served by the generic store with the generic strategy.
 */

import type { ResourceType } from '../resource-type';
import type { KindRegistration } from './types';
import { namespace } from './core/namespace/index';
import { configMap } from './core/configmap/index';
import { secret } from './core/secret/index';
import { pod } from './core/pod/index';
import { serviceAccount } from './core/serviceaccount/index';
import { binding } from './core/binding/index';
import { node } from './core/node/index';
import { service } from './core/service/index';
import { endpoints } from './core/endpoints/index';
import { job } from './batch/job/index';
import { cronJob } from './batch/cronjob/index';
import { deployment } from './apps/deployment/index';
import { replicaSet } from './apps/replicaset/index';
import { statefulSet } from './apps/statefulset/index';
import { daemonSet } from './apps/daemonset/index';
import { replicationController } from './core/replicationcontroller/index';
import { componentStatus } from './core/componentstatus/index';
import { event } from './events/event/index';
import { customResourceDefinition } from './apiextensions/customresourcedefinition/index';
import { certificateSigningRequest } from './certificates/certificatesigningrequest/index';
import { customResourceHooks } from './custom-resource/strategy';
import { tokenReview } from './authentication/tokenreview/index';
import { selfSubjectReview } from './authentication/selfsubjectreview/index';
import { subjectAccessReview } from './authorization/subjectaccessreview/index';
import { selfSubjectAccessReview } from './authorization/selfsubjectaccessreview/index';
import { localSubjectAccessReview } from './authorization/localsubjectaccessreview/index';
import { selfSubjectRulesReview } from './authorization/selfsubjectrulesreview/index';
import { role } from './rbac/role/index';
import { clusterRole } from './rbac/clusterrole/index';
import { roleBinding } from './rbac/rolebinding/index';
import { clusterRoleBinding } from './rbac/clusterrolebinding/index';
import { mutatingWebhookConfiguration } from './admissionregistration/mutatingwebhookconfiguration/index';
import { validatingWebhookConfiguration } from './admissionregistration/validatingwebhookconfiguration/index';
import { validatingAdmissionPolicy } from './admissionregistration/validatingadmissionpolicy/index';
import { validatingAdmissionPolicyBinding } from './admissionregistration/validatingadmissionpolicybinding/index';

const registrations: Record<string, KindRegistration> = {
  'core/Namespace': namespace,
  'core/ConfigMap': configMap,
  'core/Secret': secret,
  'core/Pod': pod,
  'core/ServiceAccount': serviceAccount,
  'core/Binding': binding,
  'core/Node': node,
  'core/Service': service,
  'core/Endpoints': endpoints,
  'batch/Job': job,
  'batch/CronJob': cronJob,
  'apps/Deployment': deployment,
  'apps/ReplicaSet': replicaSet,
  'apps/StatefulSet': statefulSet,
  'apps/DaemonSet': daemonSet,
  'core/ReplicationController': replicationController,
  'core/ComponentStatus': componentStatus,
  'events/Event': event,
  'apiextensions/CustomResourceDefinition': customResourceDefinition,
  'certificates/CertificateSigningRequest': certificateSigningRequest,
  'authentication/TokenReview': tokenReview,
  'authentication/SelfSubjectReview': selfSubjectReview,
  'authorization/SubjectAccessReview': subjectAccessReview,
  'authorization/SelfSubjectAccessReview': selfSubjectAccessReview,
  'authorization/LocalSubjectAccessReview': localSubjectAccessReview,
  'authorization/SelfSubjectRulesReview': selfSubjectRulesReview,
  'rbac/Role': role,
  'rbac/ClusterRole': clusterRole,
  'rbac/RoleBinding': roleBinding,
  'rbac/ClusterRoleBinding': clusterRoleBinding,
  'admissionregistration/MutatingWebhookConfiguration': mutatingWebhookConfiguration,
  'admissionregistration/ValidatingWebhookConfiguration': validatingWebhookConfiguration,
  'admissionregistration/ValidatingAdmissionPolicy': validatingAdmissionPolicy,
  'admissionregistration/ValidatingAdmissionPolicyBinding': validatingAdmissionPolicyBinding,
};

const customResource: KindRegistration = { hooks: customResourceHooks };

/** `<group>/<Kind>` of a built-in definition name such as `api.core.v1.Pod`. */
export function kindKey(definition: string): string {
  const parts = definition.split('.');
  return `${parts[parts.length - 3] ?? ''}/${parts[parts.length - 1] ?? ''}`;
}

export function registrationFor(rt: ResourceType): KindRegistration | undefined {
  if (rt.custom) return rt.crd !== undefined ? customResource : undefined;
  return rt.definition === undefined ? undefined : registrations[kindKey(rt.definition)];
}
