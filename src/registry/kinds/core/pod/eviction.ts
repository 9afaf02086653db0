/**
 * `pods/<name>/eviction` (policy/v1 Eviction): deletes a pod unless that
 * would violate its PodDisruptionBudget, as the real eviction storage does.
 * Pods that are Pending, Succeeded, Failed or already terminating have
 * caused (or cannot cause) their disruption already and are deleted without
 * looking at budgets. Otherwise the budgets of the pod's namespace whose
 * selector matches it apply (none: deleted; more than one: refused); an
 * unready pod may go while the budget has its healthy pods; else the budget
 * must have been processed by the disruption controller and allow a
 * disruption, which the eviction then spends — decrementing
 * `disruptionsAllowed` and recording the pod in `disruptedPods` — before
 * the pod is marked a disruption target and deleted with the eviction's
 * deleteOptions. Dry run checks everything and stores nothing. 201 with a
 * Status Success.
 */

import type { KubeObject } from '../../../../api/meta';
import {
  conflict,
  invalid,
  notFound,
  StatusError,
  badRequest,
  forbidden,
} from '../../../../machinery/errors';
import { fieldError, GoValueText, type FieldError } from '../../../../machinery/field-errors';
import { rfc3339Seconds } from '../../../../machinery/ids';
import { deepClone, isPlainObject } from '../../../../machinery/json';
import { matchesLabels, type LabelRequirement } from '../../../../machinery/selectors/labels';
import type { DeleteOptions, KindOverride, NamedCreater } from '../../../rest/capabilities';
import type { RequestScope } from '../../../rest/scope';
import { statusStrategy } from '../../../generic/strategy';
import type { GenericStore } from '../../../generic/store';
import type { StoredKindContext } from '../../types';
import { admitCreate, createdStatus } from '../../../generic/create-admission';
import { setPodCondition, type PodCondition } from './conditions';

/** More recorded disruptions than this and the budget's controller is behind: refuse (real limit). */
const maxDisruptedPods = 2000;
/** Conflicting writes are retried this many times before giving up. */
const maxAttempts = 20;

const tooManyMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

interface PodState {
  phase?: string;
  conditions?: PodCondition[];
}

interface BudgetCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

interface BudgetStatus {
  observedGeneration?: number;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  disruptedPods?: Record<string, string>;
  conditions?: BudgetCondition[];
}

interface BudgetSpec {
  selector?: unknown;
  unhealthyPodEvictionPolicy?: string;
}

/** The 429 of a budget that does not allow this eviction now; `DisruptionBudget` names the reason in its cause. */
function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  return new StatusError(
    429,
    'TooManyRequests',
    tooManyMessage,
    {
      causes: [{ reason: 'DisruptionBudget', message: cause }],
      ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    },
    retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

function stillProcessing(budget: string): StatusError {
  return tooManyRequests(`The disruption budget ${budget} is still being processed by the server.`, 10);
}

function podState(pod: KubeObject): PodState {
  return (pod.status ?? {}) as PodState;
}

function terminating(pod: KubeObject): boolean {
  const t = pod.metadata?.deletionTimestamp;
  return t !== undefined && t !== null;
}

/** Pods whose deletion disrupts nothing a budget protects. */
function canIgnoreBudgets(pod: KubeObject): boolean {
  const phase = podState(pod).phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || terminating(pod);
}

/** Pods that could become ready while the eviction runs: their deletion is pinned to the version judged. */
function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = podState(pod).phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || terminating(pod));
}

function isReady(pod: KubeObject): boolean {
  return (podState(pod).conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * A budget's selector as requirements: an absent selector matches nothing,
 * an empty one everything (policy/v1); a malformed one is `undefined` and
 * the budget is skipped, as the real server skips it.
 */
export function selectorRequirements(selector: unknown): LabelRequirement[] | undefined {
  if (selector === undefined || selector === null) return undefined;
  if (!isPlainObject(selector)) return undefined;
  const reqs: LabelRequirement[] = [];
  const matchLabels = selector.matchLabels;
  if (isPlainObject(matchLabels))
    for (const [key, value] of Object.entries(matchLabels))
      reqs.push({ key, operator: 'Equals', values: [typeof value === 'string' ? value : String(value)] });
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const e of expressions) {
    if (!isPlainObject(e) || typeof e.key !== 'string') return undefined;
    const values = Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return undefined;
        reqs.push({ key: e.key, operator: e.operator, values });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) return undefined;
        reqs.push({ key: e.key, operator: e.operator, values: [] });
        break;
      default:
        return undefined;
    }
  }
  return reqs;
}

/** The budgets of the pod's namespace that select it. */
async function budgetsFor(pdbs: GenericStore, scope: RequestScope, pod: KubeObject): Promise<KubeObject[]> {
  const listed = await pdbs.list(
    { ...scope, namespace: pod.metadata?.namespace ?? scope.namespace },
    { resourceVersion: '', resourceVersionMatch: '', limit: 0 },
  );
  return listed.items.filter((pdb) => {
    const reqs = selectorRequirements((pdb.spec as BudgetSpec | undefined)?.selector);
    return reqs !== undefined && matchesLabels(reqs, pod.metadata?.labels);
  });
}

/**
 * The budget after spending one disruption on `podName`, or the reason it
 * cannot be spent. `record` adds the pod to `disruptedPods` (not on dry run).
 */
export function spendDisruption(pdb: KubeObject, podName: string, now: Date, record: boolean): KubeObject {
  const name = pdb.metadata?.name ?? '';
  const status = (pdb.status ?? {}) as BudgetStatus;
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
  const allowed = status.disruptionsAllowed ?? 0;
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if (allowed < 0) throw forbidden(gr, name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPods)
    throw forbidden(
      gr,
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  if (allowed === 0)
    throw tooManyRequests(
      `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
      0,
    );
  const next = deepClone(pdb);
  const s = (next.status ?? (next.status = {})) as BudgetStatus;
  s.disruptionsAllowed = allowed - 1;
  if (s.disruptionsAllowed === 0) setDisruptionAllowedFalse(s, now);
  if (record) s.disruptedPods = { ...(s.disruptedPods ?? {}), [podName]: rfc3339Seconds(now) };
  return next;
}

/** The budget's `DisruptionAllowed` condition once no disruption is left. */
function setDisruptionAllowedFalse(s: BudgetStatus, now: Date): void {
  const conditions = s.conditions ?? (s.conditions = []);
  const existing = conditions.find((c) => c.type === 'DisruptionAllowed');
  const wanted = { reason: 'InsufficientPods', observedGeneration: s.observedGeneration ?? 0 };
  if (existing === undefined) {
    conditions.push({
      type: 'DisruptionAllowed',
      status: 'False',
      ...wanted,
      message: '',
      lastTransitionTime: rfc3339Seconds(now),
    });
    return;
  }
  if (existing.status !== 'False') {
    existing.status = 'False';
    existing.lastTransitionTime = rfc3339Seconds(now);
  }
  Object.assign(existing, wanted);
}

interface ParsedEviction {
  options: DeleteOptions;
  dryRun: string[];
  /** Problems the pod's deletion will report (the real server validates DeleteOptions when it deletes). */
  invalid: FieldError[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** The eviction's deleteOptions, and its dry run merged with the request's as the real `propagateDryRun`. */
function parseEviction(eviction: KubeObject, scope: RequestScope): ParsedEviction {
  const query = scope.dryRun ? ['All'] : [];
  const body = eviction.deleteOptions;
  if (!isPlainObject(body)) return { options: {}, dryRun: query, invalid: [] };
  const bodyDry = strings(body.dryRun);
  let dryRun = bodyDry;
  if (bodyDry.length === 0) dryRun = query;
  else if (query.length > 0 && bodyDry.join('\u0000') !== query.join('\u0000'))
    // A plain error in the real server, so an internal one on the wire.
    throw new StatusError(
      500,
      undefined,
      `Non-matching dry-run options in request and content: [${query.join(' ')}] and [${bodyDry.join(' ')}]`,
    );
  const options: DeleteOptions = {};
  const problems: FieldError[] = [];
  if (typeof body.gracePeriodSeconds === 'number') options.gracePeriodSeconds = body.gracePeriodSeconds;
  if (typeof body.orphanDependents === 'boolean') options.orphanDependents = body.orphanDependents;
  const policy = body.propagationPolicy;
  if (typeof policy === 'string') {
    if (policy === 'Orphan' || policy === 'Background' || policy === 'Foreground')
      options.propagationPolicy = policy;
    else
      problems.push(
        fieldError.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']),
      );
    if (options.orphanDependents !== undefined)
      problems.unshift(
        fieldError.invalid(
          'propagationPolicy',
          policy,
          'orphanDependents and deletionPropagation cannot be both set',
        ),
      );
  }
  const badDry = dryRun.filter((v) => v !== 'All');
  if (badDry.length > 0)
    problems.push(
      fieldError.notSupported(
        'dryRun',
        new GoValueText(`[]string{${dryRun.map((v) => JSON.stringify(v)).join(', ')}}`),
        ['All'],
      ),
    );
  if (isPlainObject(body.preconditions)) {
    const p = body.preconditions;
    options.preconditions = {
      ...(typeof p.uid === 'string' ? { uid: p.uid } : {}),
      ...(typeof p.resourceVersion === 'string' ? { resourceVersion: p.resourceVersion } : {}),
    };
  }
  return { options, dryRun, invalid: problems };
}

const rvUnset = (o: DeleteOptions): boolean => o.preconditions?.resourceVersion === undefined;

function withResourceVersion(o: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  return {
    ...o,
    preconditions: { ...o.preconditions, ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
  };
}

/** The eviction storage of the pods whose store is `ctx.store`; budgets are read and spent through the served `poddisruptionbudgets`. */
export function evictionStorage(ctx: StoredKindContext): NamedCreater & KindOverride {
  const sub = ctx.rt.subresources.get('eviction');
  const policyGroup = sub?.group ?? 'policy';
  const podStatus = ctx.store.withStrategy(statusStrategy(ctx.rt, undefined));

  /** Marks the pod a disruption target (not on dry run), then deletes it with the eviction's options. */
  async function markAndDelete(
    scope: RequestScope,
    name: string,
    options: DeleteOptions,
    dry: boolean,
    problems: FieldError[],
  ): Promise<void> {
    if (problems.length > 0)
      throw invalid({ group: ctx.deps.profile.metaGroup, kind: 'DeleteOptions' }, '', problems);
    let opts = options;
    if (!dry) {
      const updated = await podStatus.update(
        scope,
        name,
        (current) => {
          if (current === undefined) throw notFound({ group: '', resource: 'pods' }, name);
          const meta = current.metadata ?? {};
          const pre = opts.preconditions;
          const gr = { group: '', resource: 'Pod' };
          if (pre?.uid !== undefined && pre.uid !== '' && pre.uid !== meta.uid)
            throw conflict(
              gr,
              name,
              `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
            );
          if (
            pre?.resourceVersion !== undefined &&
            pre.resourceVersion !== '' &&
            pre.resourceVersion !== meta.resourceVersion
          )
            throw conflict(
              gr,
              name,
              `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
            );
          setPodCondition(
            current,
            {
              type: 'DisruptionTarget',
              status: 'True',
              reason: 'EvictionByEvictionAPI',
              message: 'Eviction API: evicting',
            },
            ctx.deps.now(),
          );
          return current;
        },
        {},
      );
      // The condition changed the pod: a version precondition now means the version just written.
      if (!rvUnset(opts)) opts = withResourceVersion(opts, updated.object.metadata?.resourceVersion);
    }
    await ctx.store.delete({ ...scope, dryRun: dry }, name, opts);
  }

  return {
    objectKind: { group: policyGroup, version: sub?.version ?? 'v1', kind: 'Eviction' },

    async createNamed(scope, name, object): Promise<KubeObject> {
      const admission = await admitCreate(ctx.deps, ctx.rt, scope, name, object);
      const eviction = admission.object;
      if (name !== (eviction.metadata?.name ?? ''))
        throw badRequest('name in URL does not match name in Eviction object');
      const parsed = parseEviction(eviction, scope);
      await admission.validate();
      const dry = parsed.dryRun.length > 0;
      const original = parsed.options;

      // Budgets do not protect pods that are not running (or are going anyway): delete them directly.
      let pod: KubeObject | undefined;
      for (let attempt = 0; ; attempt++) {
        pod = await ctx.store.get(scope, name);
        if (!canIgnoreBudgets(pod)) break;
        const options =
          shouldEnforceResourceVersion(pod) && rvUnset(original)
            ? withResourceVersion(original, pod.metadata?.resourceVersion)
            : original;
        try {
          await markAndDelete(scope, name, options, dry, parsed.invalid);
          return createdStatus();
        } catch (e) {
          const retry = e instanceof StatusError && e.reason === 'Conflict' && rvUnset(original);
          if (!retry || attempt + 1 >= maxAttempts) throw e;
        }
      }

      const pdbs = ctx.storeFor(policyGroup, 'poddisruptionbudgets');
      const budgets = pdbs === undefined ? [] : await budgetsFor(pdbs, scope, pod);
      if (budgets.length > 1)
        throw new StatusError(
          500,
          undefined,
          'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        );
      const budget = budgets[0];
      let pinToVersion = false;
      if (budget !== undefined && pdbs !== undefined) {
        const spec = (budget.spec ?? {}) as BudgetSpec;
        const status = (budget.status ?? {}) as BudgetStatus;
        const desired = status.desiredHealthy ?? 0;
        // An unready pod counts for no one's health: it may go while the budget keeps its healthy pods.
        if (
          !isReady(pod) &&
          (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
            ((status.currentHealthy ?? 0) >= desired && desired > 0))
        )
          pinToVersion = true;
        else await spend(pdbs, scope, budget, name, dry);
      }

      const options = pinToVersion ? withResourceVersion(original, pod.metadata?.resourceVersion) : original;
      try {
        await markAndDelete(scope, name, options, dry, parsed.invalid);
      } catch (e) {
        // The pod changed since it was judged unready: the client should try again.
        if (e instanceof StatusError && e.reason === 'Conflict' && pinToVersion && rvUnset(original))
          throw stillProcessing(budget?.metadata?.name ?? '');
        throw e;
      }
      return createdStatus();
    },
  };

  /** Spends one disruption of `budget` through its status (checked again on the latest version on each retry). */
  async function spend(
    pdbs: GenericStore,
    scope: RequestScope,
    budget: KubeObject,
    podName: string,
    dry: boolean,
  ): Promise<void> {
    const now = ctx.deps.now();
    if (dry) {
      spendDisruption(budget, podName, now, false);
      return;
    }
    const budgetName = budget.metadata?.name ?? '';
    const statusStore = pdbs.withStrategy(statusStrategy(pdbs.rt, undefined));
    // The real server writes the budget through its loopback client: a request of its own on `status`.
    const budgetScope: RequestScope = {
      ...scope,
      user: { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] },
      name: budgetName,
      subresource: 'status',
      requestResource: { group: pdbs.rt.group, version: pdbs.rt.version, resource: pdbs.rt.resource },
      requestKind: { group: pdbs.rt.group, version: pdbs.rt.version, kind: pdbs.rt.kind },
    };
    await statusStore.update(
      budgetScope,
      budgetName,
      (current) => {
        if (current === undefined)
          throw notFound({ group: pdbs.rt.group, resource: pdbs.rt.resource }, budgetName);
        return spendDisruption(current, podName, ctx.deps.now(), true);
      },
      {},
    );
  }
}
