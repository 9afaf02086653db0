/**
 * The storage of RoleBindings and ClusterRoleBindings: the generic store
 * behind the real bind check (see `policy.ts`) — a missing referenced role
 * is a 404 naming it — and the hook that keeps `roleRef` immutable with the
 * real 422 text.
 */

import type { KubeObject } from '../../../api/meta';
import { readBinding } from '../../../auth/authz/index';
import { internalError, notFound } from '../../../machinery/errors';
import { fieldError, GoValueText } from '../../../machinery/field-errors';
import { goQuote } from '../../../machinery/go-format';
import type { RestStorage, UpdatedObjectInfo } from '../../rest/capabilities';
import { restrict } from '../../rest/restrict';
import type { RequestScope } from '../../rest/scope';
import type { KindHooks } from '../../rest/strategy';
import { groupResource } from '../../resource-type';
import type { StoredKindContext } from '../types';
import {
  bindingAuthorized,
  confirmNoEscalation,
  escalationAllowed,
  onlyGcFieldsChanged,
  ruleResolverOf,
} from './policy';

export function bindingStorage(ctx: StoredKindContext, cluster: boolean): RestStorage {
  const { store, services } = ctx;
  const gr = groupResource(ctx.rt);
  const kind = cluster ? 'ClusterRoleBinding' : 'RoleBinding';
  const base = restrict(store, ['get', 'list', 'watch', 'create', 'update', 'delete', 'deleteCollection']);

  const check = async (scope: RequestScope, obj: KubeObject) => {
    const namespace = cluster ? '' : scope.namespace;
    const { roleRef } = readBinding(obj, kind);
    if (await bindingAuthorized(services.authorizer, scope.user, roleRef, namespace)) return;
    const resolver = ruleResolverOf(services);
    const resolved = resolver?.roleReferenceRules(roleRef, namespace) ?? { rules: [] };
    if ('error' in resolved) {
      const { error } = resolved;
      if (error.resource === undefined) throw internalError(new Error(error.message));
      throw notFound({ group: ctx.rt.group, resource: error.resource }, error.name);
    }
    confirmNoEscalation(
      resolver,
      scope.user,
      namespace,
      resolved.rules,
      gr,
      obj.metadata?.name ?? scope.name,
    );
  };

  return {
    ...base,
    async create(scope, object, options) {
      if (!escalationAllowed(scope.user)) await check(scope, object);
      return store.create(scope, object, options);
    },
    async update(scope, name, objInfo, options) {
      if (escalationAllowed(scope.user)) return store.update(scope, name, objInfo, options);
      const checked: UpdatedObjectInfo = async (current) => {
        const obj = await objInfo(current);
        if (!onlyGcFieldsChanged(obj, current)) await check(scope, obj);
        return obj;
      };
      return store.update(scope, name, checked, options);
    },
  };
}

/** `roleRef` cannot change: `Invalid value: rbac.RoleRef{APIGroup:"…", Kind:"…", Name:"…"}: cannot change roleRef`. */
export const bindingHooks: KindHooks = {
  validateUpdate(obj, old) {
    const next = readBinding(obj, 'RoleBinding').roleRef;
    const prev = readBinding(old, 'RoleBinding').roleRef;
    if (next.apiGroup === prev.apiGroup && next.kind === prev.kind && next.name === prev.name) return [];
    const text = `rbac.RoleRef{APIGroup:${goQuote(next.apiGroup)}, Kind:${goQuote(next.kind)}, Name:${goQuote(next.name)}}`;
    return [fieldError.invalid('roleRef', new GoValueText(text), 'cannot change roleRef')];
  },
};
