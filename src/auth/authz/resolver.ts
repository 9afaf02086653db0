/**
 * The rule resolver: walks the rules a user holds in a namespace, as the
 * real `DefaultRuleResolver.VisitRulesFor` does — ClusterRoleBindings first,
 * then the RoleBindings of the namespace — reporting each rule with the
 * binding it came from, and each binding whose role is missing as an
 * error. The authorizer, SelfSubjectRulesReview and escalation checks all
 * read through it. Bindings are found through the subject index when the
 * listers have it (see `indexes.ts`), else by listing; they are visited in
 * name order so reasons are stable (the real cache's order is arbitrary).
 */

import type { UserInfo } from '../../api/authn';
import type { KubeObject } from '../../api/meta';
import { goQuote } from '../../machinery/go-format';
import type { NamingProfile } from '../../machinery/naming';
import type { ObjectLister } from '../listers';
import { SUBJECT_INDEX, subjectIndexKeysFor } from './indexes';
import { type Binding, matchingSubject, rbacGroup, readBinding, type RoleRef, type Subject } from './objects';
import { type PolicyRule, readRules } from './rules';

export interface RbacListers {
  roles: ObjectLister;
  roleBindings: ObjectLister;
  clusterRoles: ObjectLister;
  clusterRoleBindings: ObjectLister;
}

/** Where a visited rule came from. */
export interface RuleSource {
  binding: Binding;
  subject: Subject;
}

/** A role reference that could not be resolved: the resource and name, for a NotFound. */
export interface RoleReferenceError {
  message: string;
  /** `clusterroles` or `roles` (absent for an unsupported kind). */
  resource?: string;
  name: string;
}

export type RoleReferenceResult = { rules: PolicyRule[] } | { error: RoleReferenceError };

/** Return false to stop the walk. */
export type RuleVisitor = (
  source: RuleSource | undefined,
  rule: PolicyRule | undefined,
  error: string | undefined,
) => boolean;

export interface ResolvedRules {
  rules: PolicyRule[];
  /** Unresolvable role references, worded as the resolver's error texts. */
  errors: string[];
}

/**
 * `lister` words a missing role as the authorizer's informer listers do
 * (`clusterrole.<group> "x" not found`); `storage` as the registry's
 * resolver does (`clusterroles.<group> "x" not found`).
 */
export type NotFoundWording = 'lister' | 'storage';

export class RuleResolver {
  private readonly group: string;

  constructor(
    private readonly listers: RbacListers,
    profile: NamingProfile,
    private readonly wording: NotFoundWording = 'lister',
  ) {
    this.group = rbacGroup(profile);
  }

  /** The rules a role reference grants, resolved in `bindingNamespace` for a Role. */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): RoleReferenceResult {
    let obj: KubeObject | undefined;
    let resource: string;
    if (ref.kind === 'Role') {
      obj = this.listers.roles.get(bindingNamespace, ref.name);
      resource = 'roles';
    } else if (ref.kind === 'ClusterRole') {
      obj = this.listers.clusterRoles.get('', ref.name);
      resource = 'clusterroles';
    } else {
      return { error: { message: `unsupported role reference kind: ${goQuote(ref.kind)}`, name: ref.name } };
    }
    if (obj !== undefined) return { rules: readRules(obj.rules) };
    const word = this.wording === 'lister' ? resource.slice(0, -1) : resource;
    return {
      error: { message: `${word}.${this.group} ${goQuote(ref.name)} not found`, resource, name: ref.name },
    };
  }

  /** The bindings of one scope ('' = cluster) that may name the user, in name order. */
  candidateBindings(user: UserInfo, namespace: string, kind: Binding['kind']): Binding[] {
    const lister = kind === 'RoleBinding' ? this.listers.roleBindings : this.listers.clusterRoleBindings;
    let objects: KubeObject[];
    try {
      const seen = new Map<string, KubeObject>();
      for (const key of subjectIndexKeysFor(user, namespace))
        for (const o of lister.byIndex(SUBJECT_INDEX, key)) seen.set(o.metadata?.name ?? '', o);
      objects = [...seen.values()];
    } catch {
      // The index is not registered on this lister: list the scope instead (same answer, more work).
      objects = kind === 'RoleBinding' ? lister.list(namespace) : lister.list();
    }
    return objects
      .map((o) => readBinding(o, kind))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every binding of the scope, in name order (for explanations, which also report non-matches). */
  allBindings(namespace: string, kind: Binding['kind']): Binding[] {
    const objects =
      kind === 'RoleBinding'
        ? this.listers.roleBindings.list(namespace)
        : this.listers.clusterRoleBindings.list();
    return objects
      .map((o) => readBinding(o, kind))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every RoleBinding of every namespace, by namespace and name. */
  allRoleBindings(): Binding[] {
    return this.listers.roleBindings
      .list()
      .map((o) => readBinding(o, 'RoleBinding'))
      .sort((a, b) => (a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1));
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    const scopes: [Binding['kind'], string][] = [['ClusterRoleBinding', '']];
    if (namespace !== '') scopes.push(['RoleBinding', namespace]);
    for (const [kind, ns] of scopes) {
      for (const binding of this.candidateBindings(user, ns, kind)) {
        const subject = matchingSubject(user, binding);
        if (subject === undefined) continue;
        const resolved = this.roleReferenceRules(binding.roleRef, ns);
        if ('error' in resolved) {
          if (!visitor(undefined, undefined, resolved.error.message)) return;
          continue;
        }
        for (const rule of resolved.rules) if (!visitor({ binding, subject }, rule, undefined)) return;
      }
    }
  }

  rulesFor(user: UserInfo, namespace: string): ResolvedRules {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule !== undefined) rules.push(rule);
      if (error !== undefined) errors.push(error);
      return true;
    });
    return { rules, errors };
  }
}
