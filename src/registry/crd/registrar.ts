/**
 * Keeps the catalog in step with the stored CRDs, inside the server (as the
 * real server's CRD handler does, not as an API client): it reads every CRD
 * at start and after the state is replaced, then follows storage commits,
 * so a CRD's group, versions and resources are served — and appear in
 * discovery and OpenAPI — as soon as its Established condition is stored,
 * and disappear with it. A group's versions are rebuilt whole whenever one
 * of its CRDs changes; built-in resources of the same group always win.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { ChangeRecord, Storage } from '../../storage/types';
import type { Catalog, ServedVersion } from '../catalog';
import { collectionPrefix } from '../keys';
import type { ResourceType } from '../resource-type';
import { ResourceBuilder } from './resource-types';
import {
  asCrd,
  compareKubeVersions,
  crdGroup,
  CRD_RESOURCE,
  stabilityOf,
  type CustomResourceDefinition,
} from './types';

export class CrdRegistrar {
  private readonly crds = new Map<string, CustomResourceDefinition>();
  private readonly builder: ResourceBuilder;
  private readonly prefix: string;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly catalog: Catalog,
    private readonly storage: Storage,
    profile: NamingProfile,
  ) {
    this.builder = new ResourceBuilder(profile, catalog.definitions);
    this.prefix = collectionPrefix({ group: crdGroup(profile), resource: CRD_RESOURCE });
  }

  /** Loads the stored CRDs and follows every later commit. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.storage.onCommit((change) => this.onCommit(change));
    await this.resync();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Reads all CRDs again (after a reset or an import replaced the state underneath). */
  async resync(): Promise<void> {
    const groups = new Set([...this.crds.values()].map(groupOf));
    this.crds.clear();
    const list = await this.storage.list({ prefix: this.prefix });
    for (const item of list.items) {
      const crd = asCrd(item.object);
      this.crds.set(crd.metadata?.name ?? item.key, crd);
      groups.add(groupOf(crd));
    }
    for (const g of groups) this.rebuild(g);
  }

  private onCommit(change: ChangeRecord): void {
    if (!change.key.startsWith(this.prefix)) return;
    const name = change.key.slice(this.prefix.length);
    const groups = new Set<string>();
    const before = this.crds.get(name);
    if (before !== undefined) groups.add(groupOf(before));
    if (change.type === 'DELETED') {
      this.crds.delete(name);
      this.builder.forget(name);
    } else {
      const crd = asCrd(change.object);
      this.crds.set(name, crd);
      groups.add(groupOf(crd));
    }
    for (const g of groups) this.rebuild(g);
  }

  private rebuild(group: string): void {
    if (group === '') return;
    const versions = new Map<string, ServedVersion>();
    const order: string[] = [];
    for (const v of this.catalog.group(group)?.versions ?? []) {
      const builtIns = new Map([...v.resources].filter(([, rt]) => !rt.custom));
      if (builtIns.size === 0) continue;
      versions.set(v.version, { version: v.version, stability: v.stability, resources: builtIns });
      order.push(v.version);
    }
    const custom: ResourceType[] = [];
    for (const crd of this.crds.values()) if (groupOf(crd) === group) custom.push(...this.builder.build(crd));
    const customVersions: string[] = [];
    for (const rt of custom) {
      let served = versions.get(rt.version);
      if (served === undefined) {
        served = { version: rt.version, stability: stabilityOf(rt.version), resources: new Map() };
        versions.set(rt.version, served);
        customVersions.push(rt.version);
      }
      if (!served.resources.has(rt.resource)) served.resources.set(rt.resource, rt);
    }
    customVersions.sort(compareKubeVersions);
    this.catalog.setGroupVersions(
      group,
      [...order, ...customVersions]
        .map((v) => versions.get(v))
        .filter((v): v is ServedVersion => v !== undefined),
    );
  }
}

function groupOf(crd: CustomResourceDefinition): string {
  return crd.spec?.group ?? '';
}
