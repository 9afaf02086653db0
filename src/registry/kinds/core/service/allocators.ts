/**
 * The server-wide pools a Service draws from: cluster IPs per family
 * (`--service-cluster-ip-range`, one CIDR or two for dual-stack) and node
 * ports (`--service-node-port-range`). They live in memory and are rebuilt
 * from the stored Services at start and after a reset or import (decision
 * 0027); the Service strategy reserves in them before a write and the store
 * commits or reverts the reservation with the write.
 */

import type { KubeObject } from '../../../../api/meta';
import {
  formatIP,
  formatPortRange,
  parseIP,
  type Cidr,
  type IPFamily,
  type PortRange,
} from '../../../../machinery/service-ranges';
import { RangeAllocator, staticBandSize } from './range-allocator';

/** 'ok': newly taken by this call; 'held': the owner already held it (the undo only drops this write's claim). */
export type ReserveResult = 'ok' | 'held' | 'allocated' | 'not-in-range';

function reserveResult(r: 'new' | 'held' | 'taken'): ReserveResult {
  return r === 'new' ? 'ok' : r === 'held' ? 'held' : 'allocated';
}

/** One family's addresses: the CIDR without its network address (and, for IPv4, its broadcast address). */
export class IPPool {
  readonly slots: RangeAllocator;
  private readonly first: bigint;

  constructor(readonly cidr: Cidr) {
    const hostBits = cidr.bits - cidr.prefix;
    const full = 2 ** hostBits;
    const size = Math.max(0, cidr.family === 'IPv4' ? full - 2 : full - 1);
    this.first = cidr.base + 1n;
    this.slots = new RangeAllocator(size, staticBandSize(full, 16, 256));
  }

  get family(): IPFamily {
    return this.cidr.family;
  }

  /** The first usable address (the `kubernetes` Service's). */
  firstAddress(): string {
    return formatIP(this.family, this.first);
  }

  private offsetOf(ip: string): number | undefined {
    const parsed = parseIP(ip);
    if (parsed?.family !== this.family) return undefined;
    const offset = parsed.value - this.first;
    return offset >= 0n && offset < BigInt(this.slots.size) ? Number(offset) : undefined;
  }

  reserve(ip: string, owner: string): ReserveResult {
    const offset = this.offsetOf(ip);
    if (offset === undefined) return 'not-in-range';
    return reserveResult(this.slots.allocate(offset, owner));
  }

  /** Whether the address is free (or held by this owner) without taking it: a dry run's check. */
  check(ip: string, owner: string): ReserveResult {
    const offset = this.offsetOf(ip);
    if (offset === undefined) return 'not-in-range';
    const holder = this.slots.holder(offset);
    return holder === undefined || holder === owner ? 'ok' : 'allocated';
  }

  next(owner: string): string | undefined {
    const offset = this.slots.allocateNext(owner);
    return offset === undefined ? undefined : formatIP(this.family, this.first + BigInt(offset));
  }

  release(ip: string, owner?: string): void {
    const offset = this.offsetOf(ip);
    if (offset !== undefined) this.slots.release(offset, owner);
  }

  hold(ip: string, owner: string): void {
    const offset = this.offsetOf(ip);
    if (offset !== undefined) this.slots.hold(offset, owner);
  }

  /** Undoes one reservation of a write that was not stored. */
  unclaim(ip: string, owner: string): void {
    const offset = this.offsetOf(ip);
    if (offset !== undefined) this.slots.unclaim(offset, owner);
  }
}

export class PortPool {
  readonly slots: RangeAllocator;

  constructor(readonly range: PortRange) {
    this.slots = new RangeAllocator(range.size, staticBandSize(range.size, 32, 128));
  }

  get text(): string {
    return formatPortRange(this.range);
  }

  private offsetOf(port: number): number | undefined {
    const offset = port - this.range.base;
    return offset >= 0 && offset < this.range.size ? offset : undefined;
  }

  reserve(port: number, owner: string): ReserveResult {
    const offset = this.offsetOf(port);
    if (offset === undefined) return 'not-in-range';
    return reserveResult(this.slots.allocate(offset, owner));
  }

  check(port: number, owner: string): ReserveResult {
    const offset = this.offsetOf(port);
    if (offset === undefined) return 'not-in-range';
    const holder = this.slots.holder(offset);
    return holder === undefined || holder === owner ? 'ok' : 'allocated';
  }

  next(owner: string): number | undefined {
    const offset = this.slots.allocateNext(owner);
    return offset === undefined ? undefined : this.range.base + offset;
  }

  release(port: number, owner?: string): void {
    const offset = this.offsetOf(port);
    if (offset !== undefined) this.slots.release(offset, owner);
  }

  hold(port: number, owner: string): void {
    const offset = this.offsetOf(port);
    if (offset !== undefined) this.slots.hold(offset, owner);
  }

  unclaim(port: number, owner: string): void {
    const offset = this.offsetOf(port);
    if (offset !== undefined) this.slots.unclaim(offset, owner);
  }
}

/** What a stored Service holds: its cluster IPs (per family) and node ports. */
export interface ServiceHoldings {
  ips: { family: IPFamily; ip: string }[];
  ports: number[];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function spec(obj: KubeObject): Record<string, unknown> {
  const s = obj.spec;
  return typeof s === 'object' && s !== null && !Array.isArray(s) ? (s as Record<string, unknown>) : {};
}

/** The addresses and ports a Service object names (whatever its allocation state). */
export function holdingsOf(obj: KubeObject): ServiceHoldings {
  const s = spec(obj);
  const ips: ServiceHoldings['ips'] = [];
  if (str(s.type) !== 'ExternalName') {
    const clusterIPs = Array.isArray(s.clusterIPs) ? s.clusterIPs.map(str) : [str(s.clusterIP)];
    for (const ip of clusterIPs) {
      const parsed = parseIP(ip);
      if (parsed !== undefined) ips.push({ family: parsed.family, ip });
    }
  }
  const ports = new Set<number>();
  for (const p of Array.isArray(s.ports) ? s.ports : [])
    if (typeof p === 'object' && p !== null) {
      const n = (p as Record<string, unknown>).nodePort;
      if (typeof n === 'number' && n > 0) ports.add(n);
    }
  if (typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort > 0)
    ports.add(s.healthCheckNodePort);
  return { ips, ports: [...ports] };
}

export class ServiceAllocators {
  readonly ipPools: IPPool[];
  readonly nodePorts: PortPool;

  constructor(cidrs: readonly Cidr[], nodePortRange: PortRange) {
    this.ipPools = cidrs.map((c) => new IPPool(c));
    this.nodePorts = new PortPool(nodePortRange);
  }

  /** The pool of the first range: the default family. */
  get primary(): IPPool {
    const pool = this.ipPools[0];
    if (pool === undefined) throw new Error('no service cluster IP range');
    return pool;
  }

  pool(family: IPFamily): IPPool | undefined {
    return this.ipPools.find((p) => p.family === family);
  }

  /** Forgets everything and takes what the given (stored) Services hold, as the real repair loop rebuilds its bitmaps. */
  resync(services: readonly KubeObject[]): void {
    for (const p of this.ipPools) p.slots.clear();
    this.nodePorts.slots.clear();
    for (const svc of services) this.hold(svc);
  }

  /** Marks what a stored Service holds (no checks: it is stored). */
  hold(svc: KubeObject): void {
    const owner = svc.metadata?.uid ?? '';
    const h = holdingsOf(svc);
    for (const { family, ip } of h.ips) this.pool(family)?.hold(ip, owner);
    for (const port of h.ports) this.nodePorts.hold(port, owner);
  }

  /**
   * Follows one committed change of a Service, whichever replica made it (the same store's commits reach
   * every replica): what the stored version holds is held, what the previous version held and this one does
   * not (or a deleted Service held) is released. Idempotent, so a replica's own writes may pass through too.
   */
  follow(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject, previous: KubeObject | undefined): void {
    if (type === 'DELETED') {
      this.releaseAll(object);
      return;
    }
    if (previous !== undefined) {
      const now = holdingsOf(object);
      const ips = new Set(now.ips.map((i) => i.ip));
      const ports = new Set(now.ports);
      const owner = previous.metadata?.uid ?? '';
      const before = holdingsOf(previous);
      for (const { family, ip } of before.ips) if (!ips.has(ip)) this.pool(family)?.release(ip, owner);
      for (const port of before.ports) if (!ports.has(port)) this.nodePorts.release(port, owner);
    }
    this.hold(object);
  }

  /** Gives back what a deleted Service held, where it still holds it. */
  releaseAll(svc: KubeObject): void {
    const owner = svc.metadata?.uid ?? '';
    const h = holdingsOf(svc);
    for (const { family, ip } of h.ips) this.pool(family)?.release(ip, owner);
    for (const port of h.ports) this.nodePorts.release(port, owner);
  }
}
