/**
 * The storage of Roles and ClusterRoles: the generic store behind an
 * escalation check on create and update (see `policy.ts`). A ClusterRole's
 * aggregationRule can gather any rule, so setting or keeping one also needs
 * full authority (`*` on everything), with the real message.
 */

import type { KubeObject } from '../../../api/meta';
import { fullAuthority, readRules } from '../../../auth/authz/index';
import type { RestStorage, UpdatedObjectInfo } from '../../rest/capabilities';
import { restrict } from '../../rest/restrict';
import type { RequestScope } from '../../rest/scope';
import { groupResource } from '../../resource-type';
import type { StoredKindContext } from '../types';
import {
  confirmNoEscalation,
  escalationAllowed,
  onlyGcFieldsChanged,
  roleEscalationAuthorized,
  ruleResolverOf,
} from './policy';

function hasAggregationRule(obj: KubeObject | undefined): boolean {
  const rule = obj?.aggregationRule as { clusterRoleSelectors?: unknown } | undefined | null;
  return Array.isArray(rule?.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}

export function roleStorage(ctx: StoredKindContext, cluster: boolean): RestStorage {
  const { store, services } = ctx;
  const gr = groupResource(ctx.rt);
  const base = restrict(store, ['get', 'list', 'watch', 'create', 'update', 'delete', 'deleteCollection']);

  const mayEscalate = async (scope: RequestScope) =>
    escalationAllowed(scope.user) || (await roleEscalationAuthorized(services.authorizer, scope));

  const check = (scope: RequestScope, obj: KubeObject, old: KubeObject | undefined) => {
    const resolver = ruleResolverOf(services);
    const name = obj.metadata?.name ?? scope.name;
    const namespace = cluster ? '' : scope.namespace;
    confirmNoEscalation(resolver, scope.user, namespace, readRules(obj.rules), gr, name);
    if (cluster && (hasAggregationRule(obj) || hasAggregationRule(old)))
      confirmNoEscalation(
        resolver,
        scope.user,
        '',
        fullAuthority,
        gr,
        name,
        'must have cluster-admin privileges to use the aggregationRule',
      );
  };

  return {
    ...base,
    async create(scope, object, options) {
      if (!(await mayEscalate(scope))) check(scope, object, undefined);
      return store.create(scope, object, options);
    },
    async update(scope, name, objInfo, options) {
      if (await mayEscalate(scope)) return store.update(scope, name, objInfo, options);
      const checked: UpdatedObjectInfo = async (current) => {
        const obj = await objInfo(current);
        if (!onlyGcFieldsChanged(obj, current)) check(scope, obj, current);
        return obj;
      };
      return store.update(scope, name, checked, options);
    },
  };
}
