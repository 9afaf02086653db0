/**
 * OwnerReferencesPermissionEnforcement: owner references steer the garbage
 * collector, so changing an object's `metadata.ownerReferences` needs
 * permission to delete that object (creating it with some is always fine:
 * the creator could delete it anyway), and newly setting
 * `blockOwnerDeletion` — which holds up the owner's foreground deletion —
 * needs `update` on the owner's `finalizers` subresource. Pod status writes
 * are exempt (the node agent writes them).
 */

import type { OwnerReference } from '../../api/meta';
import type { AuthorizationAttributes, AuthorizationResult } from '../../auth/authorizer';
import { deepEqual } from '../../machinery/json';
import { goQuote } from '../../machinery/go-format';
import type { AdmissionAttributes, AdmissionPluginFactory, AdmissionResources } from '../types';
import { admissionForbidden } from './support/errors';

function refsOf(a: { metadata?: { ownerReferences?: OwnerReference[] } } | undefined): OwnerReference[] {
  return a?.metadata?.ownerReferences ?? [];
}

function changesOwnerReferences(a: AdmissionAttributes): boolean {
  const next = refsOf(a.object);
  if (a.oldObject === undefined) return next.length > 0;
  const previous = refsOf(a.oldObject);
  return next.length !== previous.length || next.some((ref, i) => !deepEqual(ref, previous[i]));
}

/** References that block owner deletion now and did not before (matched by uid). */
function newlyBlocking(a: AdmissionAttributes): OwnerReference[] {
  const blocking = refsOf(a.object).filter((r) => r.blockOwnerDeletion === true);
  if (a.oldObject === undefined) return blocking;
  const before = new Map(refsOf(a.oldObject).map((r) => [r.uid, r]));
  return blocking.filter((r) => before.get(r.uid)?.blockOwnerDeletion !== true);
}

/** Go's `%v, %v` of an authorizer's reason and error. */
function why(result: AuthorizationResult): string {
  return `${result.reason}, ${result.evaluationError ?? '<nil>'}`;
}

/** The resource of a kind in a group/version (the RESTMapper's plural guess, confirmed against what is served). */
function ownerResource(
  resources: AdmissionResources,
  group: string,
  version: string,
  kind: string,
): { resource: string; namespaced: boolean } | undefined {
  const lower = kind.toLowerCase();
  const candidates = [
    /(s|x|z|ch|sh)$/.test(lower)
      ? `${lower}es`
      : /[^aeiou]y$/.test(lower)
        ? `${lower.slice(0, -1)}ies`
        : `${lower}s`,
    `${lower}s`,
  ];
  for (const resource of candidates) {
    const found = resources.lookup(group, version, resource);
    if (found !== undefined && found.kind === kind) return { resource, namespaced: found.namespaced };
  }
  return undefined;
}

export const ownerReferencesPermissionEnforcement: AdmissionPluginFactory = (deps) => {
  const authorize = (attributes: Omit<AuthorizationAttributes, 'resourceRequest' | 'path'>) =>
    deps.authorizer.authorize({ ...attributes, resourceRequest: true, path: '' });
  return {
    name: 'OwnerReferencesPermissionEnforcement',
    operations: ['CREATE', 'UPDATE'],
    async validate(a) {
      if (a.group === '' && a.resource === 'pods' && a.subresource === 'status') return;
      if (a.object === undefined || !changesOwnerReferences(a)) return;
      if (a.operation !== 'CREATE') {
        const result = await authorize({
          user: a.user,
          verb: 'delete',
          namespace: a.namespace,
          apiGroup: a.group,
          apiVersion: a.version,
          resource: a.resource,
          subresource: a.subresource,
          name: a.name,
        });
        if (result.decision !== 'Allow')
          throw admissionForbidden(
            a,
            `cannot set an ownerRef on a resource you can't delete: ${why(result)}`,
          );
      }
      const blocking = newlyBlocking(a);
      if (blocking.length === 0) return;
      // One broad check first: whoever may finalize anything needs no per-owner lookups.
      const anything = await authorize({
        user: a.user,
        verb: 'update',
        namespace: '',
        apiGroup: '*',
        apiVersion: '*',
        resource: '*',
        subresource: 'finalizers',
        name: '*',
      });
      if (anything.decision === 'Allow') return;
      for (const ref of blocking) {
        const slash = ref.apiVersion.indexOf('/');
        const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
        const version = slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1);
        const owner = ownerResource(deps.resources, group, version, ref.kind);
        if (owner === undefined)
          throw admissionForbidden(
            a,
            `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: no matches for kind ${goQuote(ref.kind)} in version ${goQuote(ref.apiVersion)}`,
          );
        const result = await authorize({
          user: a.user,
          verb: 'update',
          // An owner is in the dependent's namespace, or cluster-scoped.
          namespace: owner.namespaced ? a.namespace : '',
          apiGroup: group,
          apiVersion: version,
          resource: owner.resource,
          subresource: 'finalizers',
          name: ref.name,
        });
        if (result.decision !== 'Allow')
          throw admissionForbidden(
            a,
            `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${why(result)}`,
          );
      }
    },
  };
};
