/**
 * Quota evaluators, one per kind of object quota can charge (v1.27's
 * registry): what an object uses (`pods=1`, `requests.cpu=250m`,
 * `services.nodeports=2`, `count/deployments.apps=1`), which of a quota's
 * resource names an evaluator answers for, the quota scopes it understands
 * (only pods have scopes: an object of any other kind never matches a
 * scoped quota), the per-container constraints (a cpu or memory quota makes
 * every container state it), and the operations it charges.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionOperation } from '../types';
import {
  containers,
  countsCompute,
  initContainers,
  isBestEffort,
  isTerminating,
  podLimits,
  podRequests,
  podSpec,
} from './pod-resources';
import { count, parseQuantity, type ResourceList } from '../../machinery/quantity';

export interface ScopeSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface QuotaEvaluator {
  group: string;
  resource: string;
  /** The operations that charge quota (the real `Handles`). */
  handles(operation: AdmissionOperation): boolean;
  /** Which of the quota's hard names this evaluator tracks. */
  matchingResources(names: readonly string[]): string[];
  usage(object: KubeObject, now: Date): ResourceList;
  /** An error text for what the object fails to state (`must specify …`), or undefined. */
  constraints(required: readonly string[], object: KubeObject): string | undefined;
  /** Whether the object is in a scope; evaluators without scopes match none. */
  matchesScope(scope: ScopeSelectorRequirement, object: KubeObject): boolean;
}

/** `count/pods`, `count/deployments.apps`. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** The pre-`count/` names some core resources still answer to. */
const legacyCountNames: Record<string, string> = {
  configmaps: 'configmaps',
  secrets: 'secrets',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
  persistentvolumeclaims: 'persistentvolumeclaims',
  services: 'services',
  pods: 'pods',
};

function genericEvaluator(group: string, resource: string): QuotaEvaluator {
  const names = [objectCountName(group, resource)];
  const legacy = group === '' ? legacyCountNames[resource] : undefined;
  if (legacy !== undefined) names.push(legacy);
  return {
    group,
    resource,
    handles: (op) => op === 'CREATE',
    matchingResources: (hard) => hard.filter((n) => names.includes(n)),
    usage: () => new Map(names.map((n) => [n, count(1)])),
    constraints: () => undefined,
    matchesScope: () => false,
  };
}

const servicesEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'services',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  matchingResources: (hard) =>
    hard.filter((n) =>
      ['services', 'count/services', 'services.loadbalancers', 'services.nodeports'].includes(n),
    ),
  usage(object) {
    const spec = (object.spec ?? {}) as {
      type?: string;
      ports?: { nodePort?: number }[];
      allocateLoadBalancerNodePorts?: boolean;
    };
    const ports = spec.ports ?? [];
    const out: ResourceList = new Map([
      ['services', count(1)],
      ['count/services', count(1)],
      ['services.loadbalancers', count(0)],
      ['services.nodeports', count(0)],
    ]);
    if (spec.type === 'NodePort') out.set('services.nodeports', count(ports.length));
    if (spec.type === 'LoadBalancer') {
      // With node ports suppressed only the ports that name one explicitly take one.
      const nodePorts =
        spec.allocateLoadBalancerNodePorts === false
          ? ports.filter((p) => p.nodePort !== undefined && p.nodePort !== 0).length
          : ports.length;
      out.set('services.nodeports', count(nodePorts));
      out.set('services.loadbalancers', count(1));
    }
    return out;
  },
  constraints: () => undefined,
  matchesScope: () => false,
};

/** Claims are also charged per storage class, as `<class>.storageclass.storage.<suffix>/<resource>`. */
const pvcEvaluator = (storageClassSuffix: string): QuotaEvaluator => ({
  group: '',
  resource: 'persistentvolumeclaims',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  matchingResources: (hard) =>
    hard.filter(
      (n) =>
        ['persistentvolumeclaims', 'count/persistentvolumeclaims', 'requests.storage'].includes(n) ||
        n.includes(storageClassSuffix),
    ),
  usage(object) {
    const spec = (object.spec ?? {}) as {
      storageClassName?: string;
      resources?: { requests?: Record<string, unknown> };
    };
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', count(1)],
      ['count/persistentvolumeclaims', count(1)],
    ]);
    const storage = parseQuantity(spec.resources?.requests?.storage);
    if (storage !== undefined) out.set('requests.storage', storage);
    const cls = spec.storageClassName ?? '';
    if (cls !== '') {
      out.set(`${cls}${storageClassSuffix}persistentvolumeclaims`, count(1));
      if (storage !== undefined) out.set(`${cls}${storageClassSuffix}requests.storage`, storage);
    }
    return out;
  },
  constraints: () => undefined,
  matchesScope: () => false,
});

const podComputeNames = [
  'pods',
  'count/pods',
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
  'ephemeral-storage',
  'requests.ephemeral-storage',
  'limits.ephemeral-storage',
];

/** The resources whose absence on a container fails a quota (a historical coupling the real server keeps). */
const validationSet = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** Extended resources (`example.com/gpu`) are charged as `requests.example.com/gpu`. */
function isExtendedRequestName(name: string, native: string): boolean {
  if (!name.startsWith('requests.')) return false;
  const rest = name.slice('requests.'.length);
  return rest.includes('/') && !rest.includes(native) && !rest.startsWith('requests.');
}

/** What requests and limits amount to in quota names. */
function computeUsage(requests: ResourceList, limits: ResourceList, native: string): ResourceList {
  const out: ResourceList = new Map();
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req !== undefined) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim !== undefined) out.set(`limits.${r}`, lim);
  }
  for (const [k, v] of requests) {
    if (k.startsWith('hugepages-')) {
      out.set(k, v);
      out.set(`requests.${k}`, v);
    } else if (k.includes('/') && !k.includes(native)) out.set(`requests.${k}`, v);
  }
  return out;
}

function priorityClassMatches(scope: ScopeSelectorRequirement, pod: KubeObject): boolean {
  const name = podSpec(pod).priorityClassName ?? '';
  const values = scope.values ?? [];
  switch (scope.operator) {
    case 'Exists':
      return name !== '';
    case 'DoesNotExist':
      return name === '';
    case 'In':
      return values.includes(name);
    case 'NotIn':
      return !values.includes(name);
    default:
      return false;
  }
}

/** `native`: the domain of the built-in resource names (`orch.io/`), whose names are not extended resources. */
const podEvaluator = (native: string): QuotaEvaluator => ({
  group: '',
  resource: 'pods',
  // Pod resources cannot change after creation in v1.27, so only creation charges.
  handles: (op) => op === 'CREATE',
  matchingResources: (hard) =>
    hard.filter(
      (n) =>
        podComputeNames.includes(n) ||
        n.startsWith('hugepages-') ||
        n.startsWith('requests.hugepages-') ||
        isExtendedRequestName(n, native),
    ),
  usage(object, now) {
    // The object count is charged for as long as the pod is stored; compute only while it may run.
    const out: ResourceList = new Map([['count/pods', count(1)]]);
    if (!countsCompute(object, now)) return out;
    out.set('pods', count(1));
    for (const [k, v] of computeUsage(podRequests(object, true), podLimits(object, true), native))
      out.set(k, v);
    return out;
  },
  constraints(required, object) {
    const requiredSet = required.filter((r) => validationSet.includes(r));
    if (requiredSet.length === 0) return undefined;
    const missing = new Map<string, Set<string>>();
    for (const c of [...containers(object), ...initContainers(object)]) {
      const have = computeUsage(c.requests, c.limits, native);
      for (const r of requiredSet) {
        if (have.has(r)) continue;
        const names = missing.get(r) ?? new Set<string>();
        names.add(c.name);
        missing.set(r, names);
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()]
      .sort()
      .map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
  matchesScope(scope, object) {
    switch (scope.scopeName) {
      case 'Terminating':
        return isTerminating(object);
      case 'NotTerminating':
        return !isTerminating(object);
      case 'BestEffort':
        return isBestEffort(object);
      case 'NotBestEffort':
        return !isBestEffort(object);
      case 'PriorityClass':
        return priorityClassMatches(scope, object);
      default:
        return false;
    }
  },
});

/** The profile names the evaluators depend on. */
export interface QuotaNaming {
  groupSuffix: string;
  labelDomain: string;
}

export interface QuotaEvaluators {
  /** The evaluator charging writes of `group/resource`. */
  evaluatorFor(group: string, resource: string): QuotaEvaluator;
  /**
   * The evaluators a quota's hard names call for, so usage can be recounted:
   * the built-in three plus one per `count/<resource>.<group>` (and the
   * legacy core count names).
   */
  evaluatorsForHard(hard: readonly string[]): QuotaEvaluator[];
}

export function quotaEvaluators(naming: QuotaNaming): QuotaEvaluators {
  const pods = podEvaluator(`${naming.labelDomain}/`);
  const claims = pvcEvaluator(`.storageclass.storage.${naming.groupSuffix}/`);
  const evaluatorFor = (group: string, resource: string): QuotaEvaluator => {
    if (group === '' && resource === 'pods') return pods;
    if (group === '' && resource === 'services') return servicesEvaluator;
    if (group === '' && resource === 'persistentvolumeclaims') return claims;
    return genericEvaluator(group, resource);
  };
  return {
    evaluatorFor,
    evaluatorsForHard(hard) {
      const out = new Map<string, QuotaEvaluator>();
      for (const e of [pods, servicesEvaluator, claims])
        if (e.matchingResources(hard).length > 0) out.set(`${e.group}/${e.resource}`, e);
      for (const name of hard) {
        let group = '';
        let resource = '';
        if (name.startsWith('count/')) {
          const rest = name.slice('count/'.length);
          const dot = rest.indexOf('.');
          resource = dot < 0 ? rest : rest.slice(0, dot);
          group = dot < 0 ? '' : rest.slice(dot + 1);
        } else if (Object.values(legacyCountNames).includes(name)) resource = name;
        else continue;
        const key = `${group}/${resource}`;
        if (!out.has(key)) out.set(key, evaluatorFor(group, resource));
      }
      return [...out.values()];
    },
  };
}
