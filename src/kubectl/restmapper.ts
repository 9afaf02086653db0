/**
 * The REST mapper kubectl builds from discovery: what a user types
 * (`po`, `pods`, `pod`, `Pod`, `deployments.apps`, `deployment.v1.apps`,
 * `Deployment.apps`) to one resource of one group version, in the order
 * kubectl tries the forms (resource.version.group, resource.group, then
 * Kind.version.group and Kind.group), short names first expanded, the core
 * group and then the discovery order of groups preferred when several
 * match. Categories (`all`) expand to their resources in discovery order.
 */

import type { Discovery } from '../client';

export interface Mapping {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  /** Whether this is the group's preferred version. */
  preferred: boolean;
}

/** kubectl's NoResourceMatchError for a type the server does not have. */
export class NoResourceMatchError extends Error {
  constructor(
    readonly resource: string,
    readonly group = '',
    readonly version = '',
  ) {
    super(noMatchMessage(resource, group, version));
  }
}

function noMatchMessage(resource: string, group: string, version: string): string {
  if (group !== '' && version !== '')
    return `the server doesn't have a resource type "${resource}" in group "${group}" and version "${version}"`;
  if (group !== '') return `the server doesn't have a resource type "${resource}" in group "${group}"`;
  if (version !== '') return `the server doesn't have a resource type "${resource}" in version "${version}"`;
  return `the server doesn't have a resource type "${resource}"`;
}

export class RestMapper {
  /** Every resource of every served version, preferred versions of each group first, in discovery order. */
  readonly mappings: Mapping[] = [];

  constructor(readonly discovery: Discovery) {
    const preferredFirst = [
      ...discovery.groupVersions.filter((gv) => gv.preferred),
      ...discovery.groupVersions.filter((gv) => !gv.preferred),
    ];
    for (const gv of preferredFirst) {
      for (const r of gv.resources) {
        if (r.name.includes('/')) continue;
        this.mappings.push({
          group: gv.group,
          version: gv.version,
          resource: r.name,
          kind: r.kind,
          singular: r.singularName !== '' ? r.singularName : r.kind.toLowerCase(),
          namespaced: r.namespaced,
          verbs: r.verbs ?? [],
          shortNames: r.shortNames ?? [],
          categories: r.categories ?? [],
          preferred: gv.preferred,
        });
      }
    }
  }

  /** Resolves a typed resource or kind; throws NoResourceMatchError when nothing matches. */
  mappingFor(arg: string): Mapping {
    const typed = this.expandShortName(arg);
    const parts = typed.split('.');
    // resource.version.group
    if (parts.length >= 3) {
      const [resource, version, ...group] = parts as [string, string, ...string[]];
      const m = this.byResource(resource, group.join('.'), version);
      if (m !== undefined) return m;
    }
    // resource.group (or a plain resource)
    {
      const [resource, ...group] = parts as [string, ...string[]];
      const m = this.byResource(resource, parts.length > 1 ? group.join('.') : undefined, undefined);
      if (m !== undefined) return m;
    }
    // Kind.version.group, then Kind.group
    if (parts.length >= 3) {
      const [kind, version, ...group] = parts as [string, string, ...string[]];
      const m = this.byKind(kind, group.join('.'), version);
      if (m !== undefined) return m;
    }
    {
      const [kind, ...group] = parts as [string, ...string[]];
      const m = this.byKind(kind, parts.length > 1 ? group.join('.') : undefined, undefined);
      if (m !== undefined) return m;
    }
    throw new NoResourceMatchError(arg.split('.')[0] as string);
  }

  /** The mapping of an object's apiVersion and kind. */
  forKind(group: string, version: string, kind: string): Mapping | undefined {
    return (
      this.mappings.find((m) => m.group === group && m.version === version && m.kind === kind) ?? undefined
    );
  }

  /** The resources of a category (`all`), in discovery order, one per group resource. */
  category(name: string): Mapping[] {
    const out: Mapping[] = [];
    for (const m of this.mappings) {
      if (!m.preferred || !m.categories.includes(name)) continue;
      if (!out.some((o) => o.group === m.group && o.resource === m.resource)) out.push(m);
    }
    return out;
  }

  /** Short names expand to the resource they name (kubectl's shortcut expander). */
  private expandShortName(arg: string): string {
    const lower = arg.toLowerCase();
    const [head, ...rest] = lower.split('.');
    for (const m of this.mappings) {
      if (m.shortNames.includes(head as string)) {
        if (rest.length === 0) return m.group === '' ? m.resource : `${m.resource}.${m.group}`;
        return [m.resource, ...rest].join('.');
      }
    }
    return arg;
  }

  private byResource(
    resource: string,
    group: string | undefined,
    version: string | undefined,
  ): Mapping | undefined {
    const r = resource.toLowerCase();
    const candidates = this.mappings.filter(
      (m) =>
        (m.resource === r || m.singular === r) &&
        (group === undefined || m.group === group) &&
        (version === undefined || m.version === version),
    );
    return candidates.find((m) => m.preferred) ?? candidates[0];
  }

  private byKind(kind: string, group: string | undefined, version: string | undefined): Mapping | undefined {
    const candidates = this.mappings.filter(
      (m) =>
        m.kind.toLowerCase() === kind.toLowerCase() &&
        (group === undefined || m.group === group) &&
        (version === undefined || m.version === version),
    );
    return candidates.find((m) => m.preferred) ?? candidates[0];
  }
}

/** How kubectl names a resource in messages: `deployments.apps`, or `pods` for the core group. */
export function groupResource(m: Pick<Mapping, 'group' | 'resource'>): string {
  return m.group === '' ? m.resource : `${m.resource}.${m.group}`;
}

/** How kubectl names a kind in `-o name` and success messages: `deployment.apps`, `configmap`. */
export function kindName(m: Pick<Mapping, 'group' | 'kind'>): string {
  const kind = m.kind.toLowerCase();
  return m.group === '' ? kind : `${kind}.${m.group}`;
}

export function apiVersionOf(m: Pick<Mapping, 'group' | 'version'>): string {
  return m.group === '' ? m.version : `${m.group}/${m.version}`;
}
