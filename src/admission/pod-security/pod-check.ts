/**
 * Pod and workload writes. A pod is checked against its namespace's
 * enforce level (refused with 403 on violation), audit level (an audit
 * annotation) and warn level (a warning, left out when the pod is refused
 * anyway); a workload's pod template only against audit and warn — its pods
 * meet enforcement when the controller creates them. Exempt users,
 * namespaces and runtime classes skip the checks, leaving an `exempt`
 * annotation saying why.
 */

import type { KubeObject } from '../../api/meta';
import { aggregateFieldErrors, type FieldError } from '../../machinery/field-errors';
import { forbidden, internalError, type StatusError } from '../../machinery/errors';
import type { NamespaceLister } from '../types';
import type { PodSecurityConfig } from './config';
import { allow, type Decision } from './decision';
import { aggregate, type AggregateResult, type Evaluator } from './evaluator';
import {
  fullyPrivileged,
  levelVersionString,
  policyToEvaluate,
  privilegedLatest,
  type LevelVersion,
  type Policy,
  type PolicyLabels,
} from './levels';
import { extractPodTemplate, podOf, type ExtractedPod } from './pod-spec';
import { isSignificantPodUpdate } from './updates';

/** Pod subresources that cannot change what the checks read. Any other (ephemeralcontainers) is evaluated. */
const ignoredPodSubresources = new Set([
  'exec',
  'attach',
  'binding',
  'eviction',
  'log',
  'portforward',
  'proxy',
  'status',
]);

export interface PodCheckContext {
  config: PodSecurityConfig;
  labels: PolicyLabels;
  evaluator: Evaluator;
  namespaces: NamespaceLister;
}

export interface PodRequest {
  operation: string;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  username: string;
  object?: KubeObject;
  oldObject?: KubeObject;
}

function exemption(ctx: PodCheckContext, req: PodRequest): Decision | undefined {
  if (req.namespace !== '' && ctx.config.exemptions.namespaces.has(req.namespace))
    return allow({ exempt: 'namespace' });
  if (req.username !== '' && ctx.config.exemptions.usernames.has(req.username))
    return allow({ exempt: 'user' });
  return undefined;
}

async function namespacePolicy(
  ctx: PodCheckContext,
  namespace: string,
): Promise<{ policy: Policy; errors: FieldError[] } | undefined> {
  const ns = await ctx.namespaces.get(namespace);
  if (ns === undefined) return undefined;
  return policyToEvaluate(ns.metadata?.labels, ctx.config.defaults, ctx.labels);
}

export async function checkPod(ctx: PodCheckContext, req: PodRequest): Promise<Decision> {
  if (ignoredPodSubresources.has(req.subresource)) return allow();
  const exempt = exemption(ctx, req);
  if (exempt !== undefined) return exempt;
  const nsPolicy = await namespacePolicy(ctx, req.namespace);
  if (nsPolicy === undefined)
    return {
      ...allow(),
      error: internalError(new Error(`failed to lookup namespace ${JSON.stringify(req.namespace)}`)),
    };
  if (nsPolicy.errors.length === 0 && fullyPrivileged(nsPolicy.policy))
    return allow({ 'enforce-policy': levelVersionString(privilegedLatest) });
  if (req.object === undefined) return allow();
  const pod = podOf(req.object);
  if (
    req.operation === 'UPDATE' &&
    req.oldObject !== undefined &&
    !isSignificantPodUpdate(pod, podOf(req.oldObject))
  )
    return allow();
  return evaluate(ctx, req, nsPolicy.policy, nsPolicy.errors, pod, true);
}

export async function checkPodController(ctx: PodCheckContext, req: PodRequest): Promise<Decision> {
  if (req.subresource !== '') return allow();
  const exempt = exemption(ctx, req);
  if (exempt !== undefined) return exempt;
  const nsPolicy = await namespacePolicy(ctx, req.namespace);
  if (nsPolicy === undefined)
    return allow({
      error: `failed to lookup namespace ${JSON.stringify(req.namespace)}: namespace not found`,
    });
  const { policy, errors } = nsPolicy;
  if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged')
    return allow();
  if (req.object === undefined) return allow();
  const template = extractPodTemplate(req.group, req.resource, req.object);
  if (template === undefined) return allow();
  return evaluate(ctx, req, policy, errors, template, false);
}

function evaluate(
  ctx: PodCheckContext,
  req: PodRequest,
  policy: Policy,
  policyErrors: FieldError[],
  pod: ExtractedPod,
  enforce: boolean,
): Decision {
  const runtimeClass = pod.spec.runtimeClassName;
  if (
    runtimeClass !== undefined &&
    runtimeClass !== '' &&
    ctx.config.exemptions.runtimeClasses.has(runtimeClass)
  )
    return allow({ exempt: 'runtimeClass' });
  const annotations: Record<string, string> = {};
  if (policyErrors.length > 0)
    annotations.error = `Failed to parse policy: ${aggregateFieldErrors(policyErrors)}`;
  // Modes sharing a level and version share one evaluation, as in the real plugin.
  const cache = new Map<string, AggregateResult>();
  const run = (lv: LevelVersion): AggregateResult => {
    const key = levelVersionString(lv);
    let r = cache.get(key);
    if (r === undefined) {
      r = aggregate(ctx.evaluator.evaluatePod(lv, pod.meta, pod.spec));
      cache.set(key, r);
    }
    return r;
  };
  let error: StatusError | undefined;
  if (enforce) {
    annotations['enforce-policy'] = levelVersionString(policy.enforce);
    const r = run(policy.enforce);
    if (!r.allowed) {
      // With generateName the request carries no name; the real server names the object being created.
      const name = req.name !== '' ? req.name : (req.object?.metadata?.name ?? '');
      error = forbidden(
        { group: req.group, resource: req.resource },
        name,
        `violates PodSecurity ${JSON.stringify(levelVersionString(policy.enforce))}: ${r.forbiddenDetail}`,
      );
    }
  }
  const audit = run(policy.audit);
  if (!audit.allowed)
    annotations['audit-violations'] =
      `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.audit))}: ${audit.forbiddenDetail}`;
  const warnings: string[] = [];
  if (error === undefined) {
    const warn = run(policy.warn);
    if (!warn.allowed)
      warnings.push(
        `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.warn))}: ${warn.forbiddenDetail}`,
      );
  }
  return { warnings, annotations, ...(error === undefined ? {} : { error }) };
}
