/**
 * Which Node labels a node agent may set on itself (NodeRestriction). The
 * agent may not touch `node-restriction.<domain>/` labels (they are how
 * administrators steer sensitive workloads to trusted nodes), and in the
 * product's own label domains it may only set the labels it reports itself
 * — hostname, os, arch, instance type, region and zone — and those under
 * `kubelet.<domain>/` and `node.<domain>/`. Everything else is free.
 */

import type { NamingProfile } from '../../../machinery/naming';

/** Keys whose value differs between the two label sets (added, removed or changed). */
export function modifiedLabels(
  next: Readonly<Record<string, string>> | undefined,
  previous: Readonly<Record<string, string>> | undefined,
): string[] {
  const a = next ?? {};
  const b = previous ?? {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]);
}

function domainOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inDomain(domain: string, parent: string): boolean {
  return domain === parent || domain.endsWith(`.${parent}`);
}

export class NodeLabelPolicy {
  private readonly own: ReadonlySet<string>;
  private readonly ownDomains: readonly string[];
  private readonly productDomains: readonly string[];
  private readonly restrictionDomain: string;

  constructor(profile: NamingProfile) {
    const d = profile.labelDomain;
    this.own = new Set([
      `${d}/hostname`,
      `${d}/os`,
      `${d}/arch`,
      `beta.${d}/os`,
      `beta.${d}/arch`,
      `beta.${d}/instance-type`,
      `node.${d}/instance-type`,
      `failure-domain.beta.${d}/region`,
      `failure-domain.beta.${d}/zone`,
      `topology.${d}/region`,
      `topology.${d}/zone`,
    ]);
    this.ownDomains = [`kubelet.${d}`, `node.${d}`];
    this.productDomains = [...new Set([d, profile.groupSuffix])];
    this.restrictionDomain = `node-restriction.${d}`;
  }

  /** The labels among `keys` a node agent may not add, remove or change, sorted. */
  forbidden(keys: readonly string[]): string[] {
    return keys.filter((k) => this.isForbidden(k)).sort();
  }

  private isForbidden(key: string): boolean {
    const domain = domainOf(key);
    if (inDomain(domain, this.restrictionDomain)) return true;
    if (!this.productDomains.some((p) => inDomain(domain, p))) return false;
    return !this.own.has(key) && !this.ownDomains.some((p) => inDomain(domain, p));
  }
}
