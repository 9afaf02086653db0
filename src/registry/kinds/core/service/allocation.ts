/**
 * What a Service write takes from the allocators and gives back, as the
 * real Service REST storage's `allocateCreate`/`allocateUpdate` do: the IP
 * family fields filled in (`ipFamilyPolicy`, `ipFamilies`), cluster IPs
 * allocated or the requested ones reserved, node ports and the health-check
 * node port, with the real 422 (and 500, for a full range) errors. The
 * result is a transaction the store commits when the write is stored and
 * reverts otherwise; a dry run checks without taking anything.
 */

import type { KubeObject } from '../../../../api/meta';
import { internalError, invalid } from '../../../../machinery/errors';
import { GoValueText, type FieldError } from '../../../../machinery/field-errors';
import { parseIP, type IPFamily } from '../../../../machinery/service-ranges';
import type { WriteTransaction } from '../../../rest/strategy';
import { holdingsOf, type ReserveResult, type ServiceAllocators } from './allocators';

type Spec = Record<string, unknown>;
type Port = Record<string, unknown>;

function specOf(obj: KubeObject): Spec {
  if (typeof obj.spec !== 'object' || obj.spec === null || Array.isArray(obj.spec)) obj.spec = {};
  return obj.spec as Spec;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const portsOf = (s: Spec): Port[] =>
  Array.isArray(s.ports) ? s.ports.filter((p): p is Port => typeof p === 'object' && p !== null) : [];

/** Go's `%#v` of a `[]string`, as the real errors print `spec.clusterIPs`. */
function goStrings(values: string[]): GoValueText {
  return new GoValueText(`[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

const internal = (message: string) => internalError(new Error(message));

const otherFamily = (f: IPFamily): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
const needsClusterIP = (s: Spec) => str(s.type) !== 'ExternalName';
const needsNodePorts = (s: Spec) => str(s.type) === 'NodePort' || str(s.type) === 'LoadBalancer';
const needsHealthCheck = (s: Spec) =>
  str(s.type) === 'LoadBalancer' && str(s.externalTrafficPolicy) === 'Local';
const allocatesNodePorts = (s: Spec) =>
  str(s.type) === 'NodePort' || (str(s.type) === 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== false);
const isHeadless = (s: Spec) => strings(s.clusterIPs)[0] === 'None';

/** Undoable steps, done now; `revert` undoes them, `commit` runs what waits for success (releases). */
class Steps implements WriteTransaction {
  private readonly undo: (() => void)[] = [];
  private readonly onCommit: (() => void)[] = [];
  done(undo: () => void): void {
    this.undo.push(undo);
  }
  later(step: () => void): void {
    this.onCommit.push(step);
  }
  commit(): void {
    for (const step of this.onCommit) step();
  }
  revert(): void {
    for (const step of this.undo.reverse()) step();
  }
}

/** `clusterIP` and `clusterIPs` in step, as the v1 conversion keeps them; a mismatch is the real validation error. */
function normalizeClusterIPs(s: Spec, name: string): void {
  const ip = str(s.clusterIP);
  const ips = strings(s.clusterIPs);
  if (ips.length === 0 && ip !== '') s.clusterIPs = [ip];
  else if (ip === '' && ips.length > 0) s.clusterIP = ips[0];
  else if (ip !== '' && ips.length > 0 && ips[0] !== ip)
    throw invalid({ group: '', kind: 'Service' }, name, [
      {
        type: 'FieldValueInvalid',
        field: 'spec.clusterIPs',
        badValue: goStrings(ips),
        detail: 'element [0] must match clusterIP',
      },
    ]);
}

/** The real `initIPFamilyFields`: defaults the policy and families, refusing what this cluster cannot serve. */
function initIPFamilyFields(al: ServiceAllocators, s: Spec, old: Spec | undefined, name: string): void {
  if (!needsClusterIP(s)) return;
  const fail = (errors: FieldError[]) => {
    if (errors.length > 0) throw invalid({ group: '', kind: 'Service' }, name, errors);
  };
  const ips = strings(s.clusterIPs);
  const headlessSelectorless =
    ips[0] === 'None' &&
    (typeof s.selector !== 'object' || s.selector === null || Object.keys(s.selector).length === 0);
  if (s.ipFamilyPolicy === undefined) {
    if (old !== undefined && typeof old.ipFamilyPolicy === 'string') s.ipFamilyPolicy = old.ipFamilyPolicy;
    else s.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const policy = str(s.ipFamilyPolicy);
  const errors: FieldError[] = [];
  // The loose pre-validation of the addresses.
  for (const [i, ip] of ips.entries()) {
    if (ip === 'None' && i === 0) continue;
    if (parseIP(ip) === undefined)
      errors.push({
        type: 'FieldValueInvalid',
        field: `spec.clusterIPs[${i}]`,
        badValue: ip,
        detail:
          ip === 'None'
            ? 'must be empty when the first clusterIP is set'
            : 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      });
  }
  fail(errors);
  const families = strings(s.ipFamilies) as IPFamily[];
  if (policy === 'SingleStack') {
    if (ips.length === 2)
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.ipFamilyPolicy',
        badValue: policy,
        detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
      });
    if (families.length === 2)
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.ipFamilyPolicy',
        badValue: policy,
        detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
      });
  }
  for (const [i, ip] of ips.entries()) {
    if (ip === 'None') break;
    const family = parseIP(ip)?.family;
    if (family === undefined || i < families.length) continue;
    if (al.pool(family) === undefined)
      errors.push({
        type: 'FieldValueInvalid',
        field: `spec.clusterIPs[${i}]`,
        badValue: goStrings(ips),
        detail: `${family} is not configured on this cluster`,
      });
    else families.push(family);
  }
  fail(errors);
  if (headlessSelectorless) {
    if (families.length === 0) families.push(al.primary.family);
    if (families.length < 2 && policy !== 'SingleStack') families.push(otherFamily(families[0] as IPFamily));
    s.ipFamilies = families;
    return;
  }
  if (policy === 'RequireDualStack' && al.ipPools.length < 2)
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.ipFamilyPolicy',
      badValue: policy,
      detail: 'this cluster is not configured for dual-stack services',
    });
  for (const [i, family] of families.entries())
    if (al.pool(family) === undefined)
      errors.push({
        type: 'FieldValueInvalid',
        field: `spec.ipFamilies[${i}]`,
        badValue: family,
        detail: 'not configured on this cluster',
      });
  fail(errors);
  if (families.length === 0) families.push(al.primary.family);
  if (policy !== 'SingleStack' && families.length === 1 && al.ipPools.length === 2)
    families.push(otherFamily(families[0] as IPFamily));
  s.ipFamilies = families;
}

function ipError(
  ips: string[],
  ip: string,
  result: ReserveResult,
  cidr: string,
  name: string,
): ReturnType<typeof invalid> {
  const why =
    result === 'allocated'
      ? 'provided IP is already allocated'
      : `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cidr}`;
  return invalid({ group: '', kind: 'Service' }, name, [
    {
      type: 'FieldValueInvalid',
      field: 'spec.clusterIPs',
      badValue: goStrings(ips),
      detail: `failed to allocate IP ${ip}: ${why}`,
    },
  ]);
}

function portWhy(result: ReserveResult, range: string): string {
  return result === 'allocated'
    ? 'provided port is already allocated'
    : `provided port is not in the valid range. The range of valid ports is ${range}`;
}

/** Allocates the cluster IPs of the families from `fromIndex` on (all of them, or the secondary on an upgrade). */
function allocateClusterIPs(
  al: ServiceAllocators,
  s: Spec,
  owner: string,
  dryRun: boolean,
  steps: Steps,
  name: string,
  fromIndex = 0,
): void {
  const families = strings(s.ipFamilies) as IPFamily[];
  const ips = strings(s.clusterIPs);
  for (let i = fromIndex; i < families.length; i++) {
    const family = families[i] as IPFamily;
    const pool = al.pool(family);
    if (pool === undefined) continue;
    const requested = ips[i] ?? '';
    if (requested === '') {
      const ip = pool.next(owner);
      if (ip === undefined) throw internal('failed to allocate a serviceIP: range is full');
      if (dryRun) pool.release(ip, owner);
      else steps.done(() => pool.unclaim(ip, owner));
      ips[i] = ip;
    } else {
      const result = dryRun ? pool.check(requested, owner) : pool.reserve(requested, owner);
      if (result !== 'ok' && result !== 'held')
        throw ipError(strings(s.clusterIPs), requested, result, pool.cidr.text, name);
      // A failed write drops only its own claim: a held address may belong to a stored (concurrent) update.
      if (!dryRun) steps.done(() => pool.unclaim(requested, owner));
    }
  }
  s.clusterIPs = ips;
  s.clusterIP = ips[0] ?? '';
}

/** Node ports for each port (one per port number, as the real `initNodePorts`), skipping ports already held. */
function allocateNodePorts(
  al: ServiceAllocators,
  s: Spec,
  owner: string,
  dryRun: boolean,
  steps: Steps,
  name: string,
  held: ReadonlySet<number>,
): void {
  const pool = al.nodePorts;
  const byPort = new Map<number, number>();
  const taken = new Set<number>();
  const take = (np: number, index: number) => {
    if (held.has(np) || taken.has(np)) return;
    const result = dryRun ? pool.check(np, owner) : pool.reserve(np, owner);
    if (result !== 'ok' && result !== 'held')
      throw invalid({ group: '', kind: 'Service' }, name, [
        {
          type: 'FieldValueInvalid',
          field: `spec.ports[${index}].nodePort`,
          badValue: np,
          detail: portWhy(result, pool.text),
        },
      ]);
    taken.add(np);
    if (!dryRun) steps.done(() => pool.unclaim(np, owner));
  };
  const ports = portsOf(s);
  for (const [i, p] of ports.entries()) {
    const requested = typeof p.nodePort === 'number' ? p.nodePort : 0;
    if (requested === 0 && !allocatesNodePorts(s)) continue;
    const number = typeof p.port === 'number' ? p.port : 0;
    const known = byPort.get(number);
    if (requested !== 0) {
      take(requested, i);
      if (known === undefined) byPort.set(number, requested);
      continue;
    }
    if (known !== undefined) {
      p.nodePort = known;
      continue;
    }
    // A later port with the same number may name the node port this one should share.
    const named = ports
      .slice(i + 1)
      .find((q) => q.port === number && typeof q.nodePort === 'number' && q.nodePort > 0)?.nodePort;
    if (typeof named === 'number') {
      take(named, i);
      p.nodePort = named;
      byPort.set(number, named);
      continue;
    }
    const np = pool.next(owner);
    if (np === undefined) throw internal('failed to allocate a nodePort: range is full');
    if (dryRun) pool.release(np, owner);
    else steps.done(() => pool.unclaim(np, owner));
    p.nodePort = np;
    byPort.set(number, np);
  }
}

function allocateHealthCheckNodePort(
  al: ServiceAllocators,
  s: Spec,
  owner: string,
  dryRun: boolean,
  steps: Steps,
): void {
  const pool = al.nodePorts;
  const requested = typeof s.healthCheckNodePort === 'number' ? s.healthCheckNodePort : 0;
  if (requested !== 0) {
    const result = dryRun ? pool.check(requested, owner) : pool.reserve(requested, owner);
    if (result !== 'ok' && result !== 'held')
      throw internal(
        `failed to allocate requested HealthCheck NodePort ${requested}: ${portWhy(result, pool.text)}`,
      );
    if (!dryRun) steps.done(() => pool.unclaim(requested, owner));
    return;
  }
  const np = pool.next(owner);
  if (np === undefined) throw internal('failed to allocate a HealthCheck NodePort 0: range is full');
  if (dryRun) pool.release(np, owner);
  else steps.done(() => pool.unclaim(np, owner));
  s.healthCheckNodePort = np;
}

/** A new Service: families, cluster IPs, node ports and the health-check node port. */
export function allocateCreate(al: ServiceAllocators, obj: KubeObject, dryRun: boolean): WriteTransaction {
  const name = obj.metadata?.name ?? '';
  const owner = obj.metadata?.uid ?? '';
  const s = specOf(obj);
  const steps = new Steps();
  try {
    if (needsClusterIP(s)) {
      normalizeClusterIPs(s, name);
      initIPFamilyFields(al, s, undefined, name);
      if (!isHeadless(s)) allocateClusterIPs(al, s, owner, dryRun, steps, name);
    }
    if (needsNodePorts(s)) allocateNodePorts(al, s, owner, dryRun, steps, name, new Set());
    if (needsHealthCheck(s)) allocateHealthCheckNodePort(al, s, owner, dryRun, steps);
  } catch (e) {
    steps.revert();
    throw e;
  }
  return steps;
}

/**
 * An update: what the request left out but the Service holds is kept (the real `patchAllocatedValues`), what a
 * new type does not use is dropped (`dropTypeDependentFields`) and released once the update is stored, what it
 * newly needs is allocated.
 */
export function allocateUpdate(
  al: ServiceAllocators,
  obj: KubeObject,
  old: KubeObject,
  dryRun: boolean,
): WriteTransaction {
  const name = obj.metadata?.name ?? '';
  const owner = old.metadata?.uid ?? '';
  const s = specOf(obj);
  const o = specOf(structuredClone(old));
  const steps = new Steps();
  followClusterIP(s, o);
  patchAllocatedValues(s, o);
  dropTypeDependentFields(s, o);
  try {
    const oldHeld = holdingsOf(old);
    if (needsClusterIP(s)) {
      normalizeClusterIPs(s, name);
      initIPFamilyFields(al, s, o, name);
      if (!needsClusterIP(o)) {
        if (!isHeadless(s)) allocateClusterIPs(al, s, owner, dryRun, steps, name);
      } else if (!isHeadless(o) && !isHeadless(s)) {
        const oldFamilies = strings(o.ipFamilies);
        const families = strings(s.ipFamilies);
        if (oldFamilies.length === 1 && families.length === 2)
          allocateClusterIPs(al, s, owner, dryRun, steps, name, 1);
        else if (oldFamilies.length === 2 && families.length === 1) {
          const second = strings(o.clusterIPs)[1];
          const pool = al.pool(oldFamilies[1] as IPFamily);
          if (second !== undefined && pool !== undefined && !dryRun)
            steps.later(() => pool.release(second, owner));
        }
      }
    } else if (!dryRun)
      for (const { family, ip } of oldHeld.ips) {
        const pool = al.pool(family);
        if (pool !== undefined) steps.later(() => pool.release(ip, owner));
      }
    const held = new Set(oldHeld.ports);
    if (needsNodePorts(s)) allocateNodePorts(al, s, owner, dryRun, steps, name, held);
    if (needsHealthCheck(s)) {
      const hc = typeof s.healthCheckNodePort === 'number' ? s.healthCheckNodePort : 0;
      if (hc === 0 || !held.has(hc)) allocateHealthCheckNodePort(al, s, owner, dryRun, steps);
    }
    if (!dryRun) {
      const kept = new Set(holdingsOf(obj).ports);
      for (const port of oldHeld.ports)
        if (!kept.has(port)) steps.later(() => al.nodePorts.release(port, owner));
    }
  } catch (e) {
    steps.revert();
    throw e;
  }
  return steps;
}

/**
 * The update half of the real `normalizeClusterIPs`: an old client that changed (or cleared) only `clusterIP`
 * meant the plural too, so validation sees — and refuses — the change rather than a field mismatch.
 */
function followClusterIP(s: Spec, o: Spec): void {
  const ip = str(s.clusterIP);
  if (ip === str(o.clusterIP)) return;
  if (JSON.stringify(strings(s.clusterIPs)) !== JSON.stringify(strings(o.clusterIPs))) return;
  if (ip === '') delete s.clusterIPs;
  else s.clusterIPs = [ip];
}

function patchAllocatedValues(s: Spec, o: Spec): void {
  if (needsClusterIP(o) && needsClusterIP(s)) {
    if (str(s.clusterIP) === '' && str(o.clusterIP) !== '') s.clusterIP = o.clusterIP;
    if (strings(s.clusterIPs).length === 0 && strings(o.clusterIPs).length > 0) s.clusterIPs = o.clusterIPs;
  }
  if (needsNodePorts(o) && needsNodePorts(s)) {
    const used = (spec: Spec) =>
      new Set(
        portsOf(spec)
          .map((p) => p.nodePort)
          .filter((n): n is number => typeof n === 'number' && n > 0),
      );
    const newUsed = used(s);
    const inBoth = new Set([...used(o)].filter((n) => newUsed.has(n)));
    const byName = new Map(portsOf(o).map((p) => [str(p.name), p.nodePort]));
    for (const p of portsOf(s))
      if (typeof p.nodePort !== 'number' || p.nodePort === 0) {
        const was = byName.get(str(p.name));
        if (typeof was === 'number' && was > 0 && !inBoth.has(was)) p.nodePort = was;
      }
  }
  if (
    needsHealthCheck(o) &&
    needsHealthCheck(s) &&
    !(typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort > 0)
  )
    if (o.healthCheckNodePort !== undefined) s.healthCheckNodePort = o.healthCheckNodePort;
}

/** Fields the new type has no use for, unless the request changed them itself. */
function dropTypeDependentFields(s: Spec, o: Spec): void {
  const same = (k: string) => JSON.stringify(s[k]) === JSON.stringify(o[k]);
  if (!needsClusterIP(s) && needsClusterIP(o) && same('clusterIP') && same('clusterIPs')) {
    delete s.clusterIP;
    delete s.clusterIPs;
    if (same('ipFamilies')) delete s.ipFamilies;
    if (same('ipFamilyPolicy')) delete s.ipFamilyPolicy;
  }
  if (!needsNodePorts(s) && needsNodePorts(o)) {
    const oldPorts = portsOf(o);
    for (const [i, p] of portsOf(s).entries()) if (p.nodePort === oldPorts[i]?.nodePort) delete p.nodePort;
  }
  if (!needsHealthCheck(s) && needsHealthCheck(o) && same('healthCheckNodePort'))
    delete s.healthCheckNodePort;
}
