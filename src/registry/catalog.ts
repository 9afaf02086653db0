/**
 * The catalog of served resources: the generated v1.27 registry completed
 * with the active profile's group names and the per-kind behaviour table,
 * filtered by `--runtime-config`, plus the custom resources registered at
 * run time. Discovery, routing and the generic store all read from here.
 */

import type { NamingProfile } from '../machinery/naming';
import type { DefinitionSet } from '../machinery/schema';
import type { GeneratedRegistry, GeneratedResource, GeneratedSubresource } from './generated/format';
import { apiVersionOf, type ResourceType, type SubresourceType } from './resource-type';
import { builtInKindBehavior } from './kind-behavior';
import { isGroupVersionEnabled, type RuntimeConfig } from './runtime-config';
import { emptyGroupVersions, resourceGate } from './gated-resources';
import { builtInConversionFamilies } from './conversions/index';
import { deprecationOf } from './deprecation';

export interface ServedVersion {
  version: string;
  stability: 'stable' | 'beta' | 'alpha';
  resources: Map<string, ResourceType>;
}

export interface ServedGroup {
  name: string;
  /** Enabled versions, preferred first. */
  versions: ServedVersion[];
}

export type CatalogListener = () => void;

export class Catalog {
  private readonly groupsByName = new Map<string, ServedGroup>();
  private readonly listeners = new Set<CatalogListener>();
  /** Installs REST storages on new resource types before anyone hears of them (see installer.ts). */
  private installer: (() => void) | undefined;
  /** Bumped on every change, so caches (discovery, OpenAPI) know when to rebuild. */
  generation = 0;

  constructor(
    readonly profile: NamingProfile,
    readonly definitions: DefinitionSet,
  ) {}

  /** Loads the built-in registry, keeping the group/versions the runtime config enables. */
  loadBuiltIns(
    registry: GeneratedRegistry,
    config: RuntimeConfig,
    gates: Readonly<Record<string, boolean>> = {},
  ): void {
    const { versions, skipped } = this.builtInVersions(registry, config, gates, new Map());
    for (const { group, version } of versions) this.addVersion(group, version, false);
    this.skippedGroupVersions = skipped;
    this.assignStorageVersions();
    this.changed();
  }

  /**
   * Loads the built-ins again for a runtime config or gates changed while the server runs (the workshop
   * settings): resource types that stay served are kept as they are (with their storages), the others come
   * and go, custom resources are untouched. Returns whether the served built-ins changed.
   */
  reloadBuiltIns(
    registry: GeneratedRegistry,
    config: RuntimeConfig,
    gates: Readonly<Record<string, boolean>>,
  ): boolean {
    const current = new Map<string, ResourceType>();
    for (const g of this.groupsByName.values())
      for (const v of g.versions)
        for (const rt of v.resources.values()) if (!rt.custom) current.set(builtInKey(rt), rt);
    const { versions, skipped } = this.builtInVersions(registry, config, gates, current);
    const wanted = new Set(versions.flatMap((v) => [...v.version.resources.values()].map(builtInKey)));
    if (wanted.size === current.size && [...wanted].every((k) => current.has(k))) return false;
    // Custom versions stay, after the built-in ones as addVersion places them.
    const custom = new Map<string, ServedVersion[]>();
    for (const g of this.groupsByName.values()) {
      const kept = g.versions.filter((v) => [...v.resources.values()].some((rt) => rt.custom));
      if (kept.length > 0) custom.set(g.name, kept);
    }
    this.groupsByName.clear();
    for (const { group, version } of versions) this.addVersion(group, version, false);
    for (const [group, kept] of custom) for (const v of kept) this.addVersion(group, v, false);
    this.skippedGroupVersions = skipped;
    this.assignStorageVersions();
    this.changed();
    return true;
  }

  /** The built-in versions the config and gates serve, reusing the types in `existing` (by group/version/resource). */
  private builtInVersions(
    registry: GeneratedRegistry,
    config: RuntimeConfig,
    gates: Readonly<Record<string, boolean>>,
    existing: ReadonlyMap<string, ResourceType>,
  ): { versions: { group: string; version: ServedVersion }[]; skipped: string[] } {
    const versions: { group: string; version: ServedVersion }[] = [];
    const skipped: string[] = [];
    for (const g of registry.groups) {
      const group = g.suffixed ? this.profile.suffixed(g.name) : g.name;
      for (const v of g.versions) {
        if (!isGroupVersionEnabled(config, group, v.version, v.stability, v.enabledByDefault)) continue;
        const resources = new Map<string, ResourceType>();
        for (const r of v.resources) {
          const enabledResource = config.resources.get(`${group}/${v.version}/${r.name}`);
          if (enabledResource === false) continue;
          // A gated resource's storage is installed only with its gate on (v1.27's REST storage providers).
          const gate = resourceGate(g.name, r.name);
          if (gate !== undefined && gates[gate] !== true) continue;
          resources.set(
            r.name,
            existing.get(`${group}/${v.version}/${r.name}`) ??
              this.builtInResource(group, v.version, v.stability, r),
          );
        }
        if (resources.size === 0) {
          skipped.push(group === '' ? v.version : `${group}/${v.version}`);
          continue;
        }
        versions.push({ group, version: { version: v.version, stability: v.stability, resources } });
      }
    }
    for (const e of emptyGroupVersions) {
      const group = e.suffixed ? this.profile.suffixed(e.group) : e.group;
      if (config.groupVersions.get(`${group}/${e.version}`) === true) skipped.push(`${group}/${e.version}`);
    }
    return { versions, skipped };
  }

  /** Enabled group/versions left with no resources at load (the real server logs and skips them). */
  skippedGroupVersions: readonly string[] = [];

  /** Every resource stores in its storage identity's preferred version (Events in the core group's). */
  private assignStorageVersions(): void {
    const families = builtInConversionFamilies(this.profile);
    for (const g of this.groupsByName.values())
      for (const v of g.versions)
        for (const rt of v.resources.values()) {
          if (rt.custom) continue;
          const home = this.preferred(rt.storage.group, rt.storage.resource) ?? rt;
          rt.storageVersion = { apiVersion: home.apiVersion, kind: home.kind };
          const family = families.get(`${rt.storage.group}/${rt.storage.resource}`);
          if (family !== undefined) rt.conversion = family;
        }
  }

  private builtInResource(
    group: string,
    version: string,
    stability: ServedVersion['stability'],
    r: GeneratedResource,
  ): ResourceType {
    const subresources = new Map<string, SubresourceType>();
    for (const s of r.subresources) subresources.set(s.name, this.subresource(s));
    return {
      group,
      version,
      resource: r.name,
      singularName: r.singularName,
      kind: r.kind,
      listKind: `${r.kind}List`,
      namespaced: r.namespaced,
      verbs: new Set(r.verbs),
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
      subresources,
      apiVersion: apiVersionOf(group, version),
      storage: storageIdentity(this.profile, group, r.name),
      storageVersion: { apiVersion: apiVersionOf(group, version), kind: r.kind },
      ...(deprecationOf(this.profile, group, version, r.kind) !== undefined
        ? { deprecation: deprecationOf(this.profile, group, version, r.kind) }
        : {}),
      definition: r.definition,
      stability,
      behavior: builtInKindBehavior(r.kind),
      custom: false,
    };
  }

  private subresource(s: GeneratedSubresource): SubresourceType {
    const group =
      s.group === undefined ? undefined : s.groupSuffixed === true ? this.profile.suffixed(s.group) : s.group;
    return {
      name: s.name,
      kind: s.kind,
      ...(group !== undefined ? { group } : {}),
      ...(s.version !== undefined ? { version: s.version } : {}),
      verbs: new Set(s.verbs),
      ...(s.definition !== undefined ? { definition: s.definition } : {}),
    };
  }

  /** Adds (or replaces) a served version of a group; custom versions go after built-in ones unless `preferFirst`. */
  addVersion(groupName: string, version: ServedVersion, notify = true, preferFirst = false): void {
    let group = this.groupsByName.get(groupName);
    if (group === undefined) {
      group = { name: groupName, versions: [] };
      this.groupsByName.set(groupName, group);
    }
    const at = group.versions.findIndex((v) => v.version === version.version);
    if (at >= 0) group.versions[at] = version;
    else if (preferFirst) group.versions.unshift(version);
    else group.versions.push(version);
    if (notify) this.changed();
  }

  /**
   * Replaces all versions of a group in one change (the CRD registrar rebuilds a group whenever one of its
   * CRDs changes); an empty list removes the group.
   */
  setGroupVersions(groupName: string, versions: ServedVersion[]): void {
    if (versions.length === 0) {
      this.removeGroup(groupName);
      return;
    }
    this.groupsByName.set(groupName, { name: groupName, versions });
    this.changed();
  }

  /** Removes a group entirely (custom resource groups when their last CRD goes). */
  removeGroup(groupName: string): void {
    if (this.groupsByName.delete(groupName)) this.changed();
  }

  groups(): ServedGroup[] {
    return [...this.groupsByName.values()].filter((g) => g.versions.length > 0);
  }

  group(name: string): ServedGroup | undefined {
    const g = this.groupsByName.get(name);
    return g !== undefined && g.versions.length > 0 ? g : undefined;
  }

  servedVersion(group: string, version: string): ServedVersion | undefined {
    return this.groupsByName.get(group)?.versions.find((v) => v.version === version);
  }

  lookup(group: string, version: string, resource: string): ResourceType | undefined {
    return this.servedVersion(group, version)?.resources.get(resource);
  }

  /** The resource serving `kind` in a group/version. */
  byKind(group: string, version: string, kind: string): ResourceType | undefined {
    const v = this.servedVersion(group, version);
    if (v === undefined) return undefined;
    for (const rt of v.resources.values()) if (rt.kind === kind) return rt;
    return undefined;
  }

  /** The preferred version's resource for a group/resource. */
  preferred(group: string, resource: string): ResourceType | undefined {
    for (const v of this.group(group)?.versions ?? []) {
      const rt = v.resources.get(resource);
      if (rt !== undefined) return rt;
    }
    return undefined;
  }

  /** Sets what installs storages (and so derives verbs) on every resource type, now and after each change. */
  setInstaller(install: () => void): void {
    this.installer = install;
    install();
  }

  onChange(listener: CatalogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.installer?.();
    this.generation++;
    for (const l of this.listeners) l();
  }
}

function builtInKey(rt: ResourceType): string {
  return `${rt.group}/${rt.version}/${rt.resource}`;
}

/**
 * Storage identity: every version of a resource shares one; `events` of the
 * events group share the core group's, as the real server stores both in
 * one place.
 */
function storageIdentity(
  profile: NamingProfile,
  group: string,
  resource: string,
): { group: string; resource: string } {
  if (group === profile.suffixed('events') && resource === 'events') return { group: '', resource: 'events' };
  return { group, resource };
}
