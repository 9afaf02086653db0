/**
 * Start-up reconciliation of the bootstrap policy, as pure planning: given
 * the desired objects and what is stored, decide for each object what the
 * real server's RBAC post-start hook would do, and return the writes in the
 * order it makes them. An absent object is created; a present one whose
 * autoupdate annotation is not "false" is updated in the union sense
 * (missing labels and annotations added, uncovered rules appended as atomic
 * rules with the stored extra rules kept, missing aggregation selectors and
 * binding subjects added, an aggregation rule the policy does not expect
 * removed); a binding whose roleRef differs is deleted (UID precondition)
 * and recreated as desired, since roleRef is immutable; an object annotated
 * autoupdate "false" is left alone. Before that, the two upgrade steps of
 * upstream run: the rules of pre-aggregation admin/edit/view move into
 * `system:aggregate-to-*`, and the subjects of `system:discovery` seed
 * `system:public-info-viewer`. Nothing here talks to the API; the caller
 * applies the operations in order (and re-plans on a conflict).
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import { policyNames } from './names';
import { covers } from './rules';
import type {
  AggregationRule,
  BootstrapPolicy,
  ClusterRole,
  ClusterRoleBinding,
  LabelSelector,
  RbacObject,
  Role,
  RoleBinding,
  Subject,
} from './types';

export type ReconcileOperation =
  | { op: 'create'; object: RbacObject | NamespaceObject; reason: string }
  /** A PUT of the stored object (its resourceVersion kept, so a concurrent change conflicts). */
  | { op: 'update'; object: RbacObject; reason: string }
  /** A DELETE with `preconditions.uid` set to `uid` when known, so only the object that was read goes. */
  | { op: 'delete'; object: RbacObject; uid?: string; reason: string };

export interface NamespaceObject extends KubeObject {
  apiVersion: 'v1';
  kind: 'Namespace';
  metadata: { name: string; namespace?: undefined };
}

/** What is stored now. Objects as read from the API. */
export interface StoredPolicy {
  clusterRoles: readonly ClusterRole[];
  clusterRoleBindings: readonly ClusterRoleBinding[];
  roles: readonly Role[];
  roleBindings: readonly RoleBinding[];
  /** Existing namespace names; when given, a missing namespace of a Role or RoleBinding is created first. */
  namespaces?: readonly string[];
}

/** The decision for one object. */
export type Decision<T> =
  | { action: 'create'; object: T }
  | { action: 'update'; object: T; reasons: string[] }
  | { action: 'recreate'; object: T; previous: T }
  | { action: 'none' }
  /** Annotated autoupdate "false": left as it is even where it differs. */
  | { action: 'protected'; reasons: string[] };

type RoleLike = ClusterRole | Role;
type BindingLike = ClusterRoleBinding | RoleBinding;

const SERVER_FIELDS = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Upstream `merge(expected, existing)`: later maps win, so stored values are kept and only missing keys added. */
function mergeMaps(
  expected: Record<string, string> | undefined,
  existing: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (expected === undefined && existing === undefined) return undefined;
  return { ...expected, ...existing };
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return ka.length === kb.length && ka.every((k) => (b ?? {})[k] === (a ?? {})[k]);
}

function isProtected(obj: RbacObject, annotation: string): boolean {
  return obj.metadata.annotations?.[annotation] === 'false';
}

/** Merges labels and annotations into `result`; returns the reasons when something was added. */
function mergeMetadata(result: RbacObject, expected: RbacObject, existing: RbacObject): string[] {
  const reasons: string[] = [];
  const annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  if (annotations !== undefined) result.metadata.annotations = annotations;
  if (!sameMap(annotations, existing.metadata.annotations)) reasons.push('annotations');
  const labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  if (labels !== undefined) result.metadata.labels = labels;
  if (!sameMap(labels, existing.metadata.labels)) reasons.push('labels');
  return reasons;
}

function selectorKey(s: LabelSelector): string {
  // Semantic equality of selectors: nil and empty alike, map key order irrelevant.
  const labels = Object.entries(s.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const exprs = (s.matchExpressions ?? []).map((e) => [e.key, e.operator, e.values ?? []]);
  return JSON.stringify([labels, exprs]);
}

function uncoveredSelectors(
  owner: AggregationRule | undefined,
  servant: AggregationRule | undefined,
): LabelSelector[] {
  if (servant === undefined) return [];
  if (owner === undefined) return [...(servant.clusterRoleSelectors ?? [])];
  const have = new Set((owner.clusterRoleSelectors ?? []).map(selectorKey));
  return (servant.clusterRoleSelectors ?? []).filter((s) => !have.has(selectorKey(s)));
}

/**
 * Reconciles one ClusterRole or Role (upstream `computeReconciledRole` without removal of extra
 * permissions, as the start-up hook runs it).
 */
export function reconcileRole<T extends RoleLike>(
  expected: T,
  existing: T | undefined,
  profile: NamingProfile,
): Decision<T> {
  if (existing === undefined) return { action: 'create', object: clone(expected) };
  const result = withKind(clone(existing), expected);
  const reasons = mergeMetadata(result, expected, existing);

  const missing = covers(existing.rules ?? [], expected.rules ?? []).uncovered;
  if (missing.length > 0) {
    result.rules = [...(existing.rules ?? []), ...missing];
    reasons.push(`rules (${missing.length} missing)`);
  }

  if (expected.kind === 'ClusterRole') {
    const want = expected.aggregationRule;
    const have = (existing as ClusterRole).aggregationRule ?? undefined;
    if (want === undefined && have !== undefined) {
      // Not meant to be aggregated: the stored aggregation goes, the rules stay for the union.
      delete (result as ClusterRole).aggregationRule;
      reasons.push('aggregationRule (unexpected)');
    } else {
      const add = uncoveredSelectors(have, want);
      if (add.length > 0) {
        (result as ClusterRole).aggregationRule = {
          ...have,
          clusterRoleSelectors: [...(have?.clusterRoleSelectors ?? []), ...clone(add)],
        };
        reasons.push('aggregationRule');
      }
    }
  }

  return finish(result, existing, reasons, profile);
}

/** Items of a List response need not carry apiVersion and kind; a PUT body does. */
function withKind<T extends RbacObject>(obj: T, expected: T): T {
  obj.apiVersion = expected.apiVersion;
  obj.kind = expected.kind;
  return obj;
}

function subjectKey(s: Subject): string {
  return JSON.stringify([s.kind, s.apiGroup ?? '', s.name, s.namespace ?? '']);
}

function sameRoleRef(a: BindingLike['roleRef'], b: BindingLike['roleRef']): boolean {
  return a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name;
}

/** Reconciles one ClusterRoleBinding or RoleBinding (upstream `computeReconciledRoleBinding`, union mode). */
export function reconcileBinding<T extends BindingLike>(
  expected: T,
  existing: T | undefined,
  profile: NamingProfile,
): Decision<T> {
  if (existing === undefined) return { action: 'create', object: clone(expected) };
  const annotation = policyNames(profile).autoupdateAnnotation;
  if (!sameRoleRef(expected.roleRef, existing.roleRef)) {
    if (isProtected(existing, annotation)) return { action: 'protected', reasons: ['roleRef'] };
    // roleRef cannot change in place: the stored binding is replaced by the expected one.
    return { action: 'recreate', object: clone(expected), previous: existing };
  }
  const result = withKind(clone(existing), expected);
  const reasons = mergeMetadata(result, expected, existing);
  const have = new Set((existing.subjects ?? []).map(subjectKey));
  const missing = (expected.subjects ?? []).filter((s) => !have.has(subjectKey(s)));
  if (missing.length > 0) {
    result.subjects = [...(existing.subjects ?? []), ...clone(missing)];
    reasons.push(`subjects (${missing.length} missing)`);
  }
  return finish(result, existing, reasons, profile);
}

function finish<T extends RbacObject>(
  result: T,
  existing: T,
  reasons: string[],
  profile: NamingProfile,
): Decision<T> {
  if (reasons.length === 0) return { action: 'none' };
  if (isProtected(existing, policyNames(profile).autoupdateAnnotation))
    return { action: 'protected', reasons };
  return { action: 'update', object: result, reasons };
}

function describe(obj: RbacObject | NamespaceObject): string {
  const ns = obj.metadata.namespace;
  return `${obj.kind} ${ns !== undefined && ns !== '' ? `${ns}/` : ''}${obj.metadata.name}`;
}

function withoutServerFields<T extends RbacObject>(obj: T): T {
  const copy = clone(obj);
  for (const f of SERVER_FIELDS) delete copy.metadata[f];
  return copy;
}

/** A mutable view of the stored objects, advanced as operations are planned. */
class Working {
  private readonly objects = new Map<string, RbacObject>();
  readonly namespaces: Set<string> | undefined;

  constructor(stored: StoredPolicy) {
    // Keyed by the list an object came from: items of a List response need not carry their kind.
    const lists: [RbacObject['kind'], readonly RbacObject[]][] = [
      ['ClusterRole', stored.clusterRoles],
      ['ClusterRoleBinding', stored.clusterRoleBindings],
      ['Role', stored.roles],
      ['RoleBinding', stored.roleBindings],
    ];
    for (const [kind, list] of lists)
      for (const o of list) this.objects.set(Working.key(kind, o.metadata.namespace, o.metadata.name), o);
    this.namespaces = stored.namespaces !== undefined ? new Set(stored.namespaces) : undefined;
  }

  static key(kind: string, namespace: string | undefined, name: string): string {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  get<T extends RbacObject>(kind: T['kind'], name: string, namespace?: string): T | undefined {
    return this.objects.get(Working.key(kind, namespace, name)) as T | undefined;
  }

  put(kind: RbacObject['kind'], obj: RbacObject): void {
    this.objects.set(Working.key(kind, obj.metadata.namespace, obj.metadata.name), obj);
  }
}

/**
 * Plans the start-up reconciliation of `policy` against `stored`, in upstream's order: the two upgrade
 * steps, then ClusterRoles, ClusterRoleBindings, Roles, RoleBindings. Protected objects produce no
 * operation. The caller applies the operations in order; on a conflict or an AlreadyExists it reads the
 * state again and plans anew (upstream retries each object up to three times).
 */
export function planPolicyReconcile(
  policy: BootstrapPolicy,
  stored: StoredPolicy,
  profile: NamingProfile,
): ReconcileOperation[] {
  const ops: ReconcileOperation[] = [];
  const state = new Working(stored);

  // Upgrade step 1: custom rules of a formerly plain admin/edit/view survive in its aggregate-to role.
  for (const [oldName, newName] of Object.entries(policy.clusterRolesToAggregate)) {
    if (state.get<ClusterRole>('ClusterRole', newName) !== undefined) continue;
    const old = state.get<ClusterRole>('ClusterRole', oldName);
    // An old role that is already aggregated has nothing of its own to migrate.
    if (old === undefined || old.aggregationRule !== undefined) continue;
    const copy = withoutServerFields(old);
    copy.metadata.name = newName;
    ops.push({ op: 'create', object: copy, reason: `migrating the rules of ClusterRole ${oldName}` });
    state.put('ClusterRole', copy);
  }

  // Upgrade step 2: a new binding split off an existing one starts with the existing one's subjects.
  for (const [sourceName, template] of Object.entries(policy.clusterRoleBindingsToSplit)) {
    const source = state.get<ClusterRoleBinding>('ClusterRoleBinding', sourceName);
    if (source === undefined) continue;
    if (state.get<ClusterRoleBinding>('ClusterRoleBinding', template.metadata.name) !== undefined) continue;
    const created = clone(template);
    if (source.subjects !== undefined && source.subjects !== null) created.subjects = clone(source.subjects);
    else delete created.subjects;
    const labels = source.metadata.labels;
    const annotations = source.metadata.annotations;
    if (labels !== undefined) created.metadata.labels = clone(labels);
    else delete created.metadata.labels;
    if (annotations !== undefined) created.metadata.annotations = clone(annotations);
    else delete created.metadata.annotations;
    ops.push({
      op: 'create',
      object: created,
      reason: `copying subjects of ClusterRoleBinding ${sourceName}`,
    });
    state.put('ClusterRoleBinding', created);
  }

  const ensureNamespace = (namespace: string): void => {
    if (state.namespaces === undefined || state.namespaces.has(namespace)) return;
    const ns: NamespaceObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
    ops.push({ op: 'create', object: ns, reason: `namespace of the bootstrap policy` });
    state.namespaces.add(namespace);
  };

  const apply = <T extends RbacObject>(kind: T['kind'], decision: Decision<T>): void => {
    switch (decision.action) {
      case 'create':
        if (decision.object.metadata.namespace !== undefined)
          ensureNamespace(decision.object.metadata.namespace);
        ops.push({ op: 'create', object: decision.object, reason: 'absent' });
        state.put(kind, decision.object);
        return;
      case 'update':
        ops.push({ op: 'update', object: decision.object, reason: decision.reasons.join(', ') });
        state.put(kind, decision.object);
        return;
      case 'recreate': {
        const uid = decision.previous.metadata.uid;
        ops.push({
          op: 'delete',
          object: decision.previous,
          ...(uid !== undefined ? { uid } : {}),
          reason: 'roleRef differs',
        });
        ops.push({ op: 'create', object: decision.object, reason: 'roleRef differs' });
        state.put(kind, decision.object);
        return;
      }
      case 'none':
      case 'protected':
        return;
    }
  };

  for (const role of policy.clusterRoles)
    apply(
      'ClusterRole',
      reconcileRole(role, state.get<ClusterRole>('ClusterRole', role.metadata.name), profile),
    );
  for (const binding of policy.clusterRoleBindings)
    apply(
      'ClusterRoleBinding',
      reconcileBinding(
        binding,
        state.get<ClusterRoleBinding>('ClusterRoleBinding', binding.metadata.name),
        profile,
      ),
    );
  for (const { namespace, role } of policy.roles)
    apply('Role', reconcileRole(role, state.get<Role>('Role', role.metadata.name, namespace), profile));
  for (const { namespace, roleBinding } of policy.roleBindings)
    apply(
      'RoleBinding',
      reconcileBinding(
        roleBinding,
        state.get<RoleBinding>('RoleBinding', roleBinding.metadata.name, namespace),
        profile,
      ),
    );
  return ops;
}

/** A one-line summary of an operation, for logs. */
export function describeOperation(op: ReconcileOperation): string {
  return `${op.op} ${describe(op.object)}: ${op.reason}`;
}
