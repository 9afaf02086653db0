/**
 * What the RBAC storages share to stop privilege escalation through the
 * API, as the real policy-based storages do: members of `system:masters`
 * may write anything; a role write is otherwise allowed with the `escalate`
 * verb on the role resource or when the writer already holds every rule
 * the role grants; a binding write with the `bind` verb on the referenced
 * role or when the writer holds every rule of that role. Updates that
 * touch only garbage-collection fields (owner references, finalizers) are
 * never checked, so the garbage collector can always clean up.
 */

import type { UserInfo } from '../../../api/authn';
import type { KubeObject } from '../../../api/meta';
import type { Authorizer } from '../../../auth/authorizer';
import { escalationError, type RbacRuleResolver, type RoleRef } from '../../../auth/authz/index';
import type { PolicyRule } from '../../../auth/authz/index';
import { forbidden, type GroupResource } from '../../../machinery/errors';
import { deepEqual } from '../../../machinery/json';
import type { RequestScope } from '../../rest/scope';
import type { KindServices } from '../types';

const privilegedGroup = 'system:masters';

/** `system:masters` is the loopback identity's group: it may always write RBAC objects. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(privilegedGroup);
}

/** Whether the requester holds `escalate` on the role resource the request addresses. */
export async function roleEscalationAuthorized(
  authorizer: Authorizer,
  scope: RequestScope,
): Promise<boolean> {
  const { group, resource } = scope.requestResource;
  if (resource !== 'roles' && resource !== 'clusterroles') return false;
  const result = await authorizer.authorize({
    user: scope.user,
    verb: 'escalate',
    resourceRequest: true,
    apiGroup: group,
    apiVersion: '*',
    resource,
    subresource: '',
    namespace: scope.namespace,
    name: scope.name,
    path: '',
  });
  return result.decision === 'Allow';
}

/** Whether the requester holds `bind` on the referenced role, in the binding's namespace ('' for cluster bindings). */
export async function bindingAuthorized(
  authorizer: Authorizer,
  user: UserInfo,
  ref: RoleRef,
  namespace: string,
): Promise<boolean> {
  const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : '';
  if (resource === '') return false;
  const result = await authorizer.authorize({
    user,
    verb: 'bind',
    resourceRequest: true,
    apiGroup: ref.apiGroup,
    apiVersion: '',
    resource,
    subresource: '',
    namespace,
    name: ref.name,
    path: '',
  });
  return result.decision === 'Allow';
}

/**
 * The RBAC rule resolver: `services.ruleResolver` when the composition root
 * provides one, else the authorizer itself when it is the server authorizer
 * (`createAuthorizer` returns one that resolves RBAC rules too).
 */
export function ruleResolverOf(services: KindServices): RbacRuleResolver | undefined {
  const explicit = (services as KindServices & { ruleResolver?: RbacRuleResolver }).ruleResolver;
  if (explicit !== undefined) return explicit;
  const a = services.authorizer as Authorizer & Partial<RbacRuleResolver>;
  if (typeof a.rbacRulesFor === 'function' && typeof a.roleReferenceRules === 'function')
    return a as Authorizer & RbacRuleResolver;
  return undefined;
}

/** Throws the real 403 when `user` does not hold every rule of `wanted` in `namespace`. */
export function confirmNoEscalation(
  resolver: RbacRuleResolver | undefined,
  user: UserInfo,
  namespace: string,
  wanted: readonly PolicyRule[],
  gr: GroupResource,
  name: string,
  message?: string,
): void {
  const held = resolver?.rbacRulesFor(user, namespace) ?? { rules: [], errors: [] };
  const error = escalationError(user, held.rules, wanted, held.errors);
  if (error !== undefined) throw forbidden(gr, name, message ?? error);
}

/** Whether an update changes nothing but owner references, finalizers, selfLink and managedFields. */
export function onlyGcFieldsChanged(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (old === undefined) return false;
  const strip = (o: KubeObject) => {
    const meta = { ...(o.metadata ?? {}) };
    delete meta.ownerReferences;
    delete meta.finalizers;
    delete meta.selfLink;
    delete meta.managedFields;
    return { ...o, metadata: meta };
  };
  return deepEqual(strip(obj), strip(old));
}
