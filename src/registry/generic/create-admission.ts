/**
 * Admission of the object a named subresource creates (an Eviction, a
 * Binding, a TokenRequest) as the real create handler runs it: mutating
 * plugins before the storage looks at the object, validating ones once the
 * storage's own checks pass (its `createValidation`). Writes that follow
 * (the pod's, say) go through their own store and are admitted there.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes } from '../../machinery/admission/attributes';
import type { RequestScope } from '../rest/scope';
import type { ResourceType } from '../resource-type';
import type { StoreDeps } from './store';

export interface CreateAdmission {
  /** The object after the mutating plugins. */
  object: KubeObject;
  /** Runs the validating plugins on it. */
  validate(): Promise<void>;
}

export async function admitCreate(
  deps: StoreDeps,
  rt: ResourceType,
  scope: RequestScope,
  name: string,
  object: KubeObject,
): Promise<CreateAdmission> {
  const attributes: AdmissionAttributes = {
    operation: 'CREATE',
    group: rt.group,
    version: rt.version,
    kind: object.kind ?? scope.requestKind.kind,
    resource: rt.resource,
    subresource: scope.subresource,
    namespace: rt.namespaced ? scope.namespace : '',
    name,
    object,
    user: scope.user,
    dryRun: scope.dryRun,
    uid: scope.uid,
    requestKind: scope.requestKind,
    requestResource: scope.requestResource,
    warnings: scope.warnings,
    ...(scope.annotations !== undefined ? { annotations: scope.annotations } : {}),
    ...(scope.trace !== undefined ? { trace: scope.trace } : {}),
    ...(scope.options !== undefined ? { options: scope.options } : {}),
  };
  const admitted = (await deps.admission.mutate(attributes)) ?? object;
  return {
    object: admitted,
    validate: () => deps.admission.validate({ ...attributes, object: admitted }),
  };
}

/** What a subresource create answers on success, as the real server writes it (201). */
export function createdStatus(): KubeObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}
