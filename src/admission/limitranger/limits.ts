/**
 * The rules of a LimitRange (v1.27), apart from how the plugin finds
 * them: the default requests and limits its `Container` items give to
 * containers that state none (and the annotation naming what was set), and
 * the min / max / maxLimitRequestRatio checks for containers, for the pod as
 * a whole, and for a claim's storage request, worded as the real plugin
 * words them, because clients and tutorials quote these messages.
 */

import type { KubeObject } from '../../api/meta';
import { containers, initContainers, podLimits, podRequests } from '../quota/pod-resources';
import {
  formatQuantity,
  milliValue,
  parseResourceList,
  type Quantity,
  type ResourceList,
} from '../../machinery/quantity';

export interface LimitRangeItem {
  type?: string;
  min?: Record<string, unknown>;
  max?: Record<string, unknown>;
  default?: Record<string, unknown>;
  defaultRequest?: Record<string, unknown>;
  maxLimitRequestRatio?: Record<string, unknown>;
}

export function limitItems(limitRange: KubeObject): LimitRangeItem[] {
  return ((limitRange.spec ?? {}) as { limits?: LimitRangeItem[] }).limits ?? [];
}

interface RawContainer {
  name?: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

/**
 * Fills missing requests and limits of every container from the range's
 * `Container` defaults, in place on a copy the caller owns; returns the
 * annotation text (`LimitRanger plugin set: cpu request for container app`),
 * or undefined when nothing was set.
 */
export function applyDefaults(pod: KubeObject, limitRange: KubeObject): string | undefined {
  const requests: Record<string, unknown> = {};
  const limits: Record<string, unknown> = {};
  for (const item of limitItems(limitRange)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  const spec = (pod.spec ?? {}) as { containers?: RawContainer[]; initContainers?: RawContainer[] };
  const notes: string[] = [];
  const fill = (list: RawContainer[] | undefined, what: string) => {
    for (const c of list ?? []) {
      const resources = c.resources ?? {};
      const setLimits: string[] = [];
      const setRequests: string[] = [];
      for (const [k, v] of Object.entries(limits)) {
        const have = (resources.limits ??= {});
        if (!(k in have)) {
          have[k] = v;
          setLimits.push(k);
        }
      }
      for (const [k, v] of Object.entries(requests)) {
        const have = (resources.requests ??= {});
        if (!(k in have)) {
          have[k] = v;
          setRequests.push(k);
        }
      }
      if (setRequests.length + setLimits.length > 0) c.resources = resources;
      if (setRequests.length > 0)
        notes.push(`${setRequests.sort().join(', ')} request for ${what} ${c.name ?? ''}`);
      if (setLimits.length > 0)
        notes.push(`${setLimits.sort().join(', ')} limit for ${what} ${c.name ?? ''}`);
    }
  };
  fill(spec.containers, 'container');
  fill(spec.initContainers, 'init container');
  return notes.length > 0 ? `LimitRanger plugin set: ${notes.join('; ')}` : undefined;
}

const show = formatQuantity;

function minConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | undefined {
  const r = req.get(name);
  const l = lim.get(name);
  if (r === undefined)
    return `minimum ${name} usage per ${type} is ${show(enforced)}.  No request is specified`;
  if (milliValue(r) < milliValue(enforced))
    return `minimum ${name} usage per ${type} is ${show(enforced)}, but request is ${show(r)}`;
  if (l !== undefined && milliValue(l) < milliValue(enforced))
    return `minimum ${name} usage per ${type} is ${show(enforced)}, but limit is ${show(l)}`;
  return undefined;
}

function maxConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | undefined {
  const r = req.get(name);
  const l = lim.get(name);
  if (l === undefined)
    return `maximum ${name} usage per ${type} is ${show(enforced)}.  No limit is specified`;
  if (milliValue(l) > milliValue(enforced))
    return `maximum ${name} usage per ${type} is ${show(enforced)}, but limit is ${show(l)}`;
  if (r !== undefined && milliValue(r) > milliValue(enforced))
    return `maximum ${name} usage per ${type} is ${show(enforced)}, but request is ${show(r)}`;
  return undefined;
}

/** Claims state no limits, so their maximum bounds the request. */
function maxRequestConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  req: ResourceList,
): string | undefined {
  const r = req.get(name);
  if (r === undefined)
    return `maximum ${name} usage per ${type} is ${show(enforced)}.  No request is specified`;
  if (milliValue(r) > milliValue(enforced))
    return `maximum ${name} usage per ${type} is ${show(enforced)}, but request is ${show(r)}`;
  return undefined;
}

/** Go's `%f`: six decimals. */
function ratioText(x: number): string {
  return x.toFixed(6);
}

function ratioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | undefined {
  const r = req.get(name);
  const l = lim.get(name);
  const head = `${name} max limit to request ratio per ${type} is ${show(enforced)}`;
  if (r === undefined || milliValue(r) === 0n) return `${head}, but no request is specified or request is 0`;
  if (l === undefined || milliValue(l) === 0n) return `${head}, but no limit is specified or limit is 0`;
  const observed = Number(milliValue(l)) / Number(milliValue(r));
  if (observed * 1000 > Number(milliValue(enforced)))
    return `${head}, but provided ratio is ${ratioText(observed)}`;
  return undefined;
}

function checkAll(
  type: string,
  item: LimitRangeItem,
  req: ResourceList,
  lim: ResourceList,
  out: string[],
): void {
  for (const [k, v] of parseResourceList(item.min)) push(out, minConstraint(type, k, v, req, lim));
  for (const [k, v] of parseResourceList(item.max)) push(out, maxConstraint(type, k, v, req, lim));
  for (const [k, v] of parseResourceList(item.maxLimitRequestRatio))
    push(out, ratioConstraint(type, k, v, req, lim));
}

function push(out: string[], message: string | undefined): void {
  if (message !== undefined) out.push(message);
}

/** Every violation of the range by the pod, in the real plugin's order. */
export function podViolations(pod: KubeObject, limitRange: KubeObject): string[] {
  const out: string[] = [];
  for (const item of limitItems(limitRange)) {
    if (item.type === 'Container') {
      for (const c of [...containers(pod), ...initContainers(pod)])
        checkAll('Container', item, c.requests, c.limits, out);
    }
    if (item.type === 'Pod') checkAll('Pod', item, podRequests(pod, false), podLimits(pod, false), out);
  }
  return out;
}

export function claimViolations(claim: KubeObject, limitRange: KubeObject): string[] {
  const out: string[] = [];
  const requests = parseResourceList(
    ((claim.spec ?? {}) as { resources?: { requests?: unknown } }).resources?.requests,
  );
  for (const item of limitItems(limitRange)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of parseResourceList(item.min))
      push(out, minConstraint('PersistentVolumeClaim', k, v, requests, new Map()));
    for (const [k, v] of parseResourceList(item.max))
      push(out, maxRequestConstraint('PersistentVolumeClaim', k, v, requests));
  }
  return out;
}

/** Go's error aggregate: one message bare, several in brackets, duplicates once. */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
}
