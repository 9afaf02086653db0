/**
 * Typed views of the stored RBAC objects the authorizer reads (roles'
 * rules, bindings' roleRef and subjects), the subject matching the real
 * `appliesToUser` does — users and groups by exact name, service accounts
 * by their `system:serviceaccount:<ns>:<name>` user name with the binding's
 * namespace as default — and the texts that describe a binding in reasons.
 */

import type { UserInfo } from '../../api/authn';
import type { KubeObject } from '../../api/meta';
import { goQuote } from '../../machinery/go-format';
import type { NamingProfile } from '../../machinery/naming';

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface Binding {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  /** '' for a ClusterRoleBinding. */
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
}

/** The RBAC API group under the profile (`rbac.authorization.orch.io`). */
export function rbacGroup(profile: NamingProfile): string {
  return profile.suffixed('rbac.authorization');
}

const serviceAccountPrefix = 'system:serviceaccount:';

/** The user name a service account authenticates as. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountPrefix}${namespace}:${name}`;
}

/** The namespace and name of a service account user name, if it is one. */
export function parseServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0] ?? '', name: parts[1] ?? '' };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function rec(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

export function readBinding(obj: KubeObject, kind: Binding['kind']): Binding {
  const ref = rec(obj.roleRef);
  const subjects = Array.isArray(obj.subjects) ? (obj.subjects as unknown[]) : [];
  return {
    kind,
    name: obj.metadata?.name ?? '',
    namespace: kind === 'RoleBinding' ? (obj.metadata?.namespace ?? '') : '',
    roleRef: { apiGroup: str(ref.apiGroup), kind: str(ref.kind), name: str(ref.name) },
    subjects: subjects.map((s) => {
      const r = rec(s);
      const subject: Subject = { kind: str(r.kind), name: str(r.name) };
      if (str(r.apiGroup) !== '') subject.apiGroup = str(r.apiGroup);
      if (str(r.namespace) !== '') subject.namespace = str(r.namespace);
      return subject;
    }),
  };
}

/** Whether one subject names the user, in a binding of `namespace` ('' for cluster bindings). */
export function subjectAppliesTo(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace ?? namespace;
      if (ns === '') return false;
      return user.username === serviceAccountUsername(ns, subject.name);
    }
    default:
      return false;
  }
}

/** The first subject of the binding that names the user. */
export function matchingSubject(user: UserInfo, binding: Binding): Subject | undefined {
  return binding.subjects.find((s) => subjectAppliesTo(user, s, binding.namespace));
}

/** `ServiceAccount "sa/ns"`, `User "alice"`, as reasons name a subject. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount')
    return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace ?? bindingNamespace}`)}`;
  return `${subject.kind} ${goQuote(subject.name)}`;
}

/** `ClusterRoleBinding "x" of ClusterRole "y" to User "z"` — the source named in an Allow reason. */
export function describeBinding(binding: Binding, subject: Subject): string {
  const name = binding.kind === 'RoleBinding' ? `${binding.name}/${binding.namespace}` : binding.name;
  return `${binding.kind} ${goQuote(name)} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, binding.namespace)}`;
}

/** Go's aggregate error text: one message, or `[a, b]` for several, duplicates once. */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}
