/**
 * Keeps the catalog in step with the stored CRDs, inside the server (as the
 * real server's CRD handler does, not as an API client): it follows the
 * shared CRD informer, whose cache changes synchronously inside each commit,
 * so a CRD's group, versions and resources are served — and appear in
 * discovery and OpenAPI — as soon as its Established condition is stored,
 * and disappear with it. A group's versions are rebuilt whole whenever one
 * of its CRDs changes; built-in resources of the same group always win.
 * The builder of a CRD's resources is a lazy script (crd/library.ts): the
 * start loads it when CRDs are stored, before it serves; the CRD strategy
 * loads it before a CRD write, so a commit still serves the CRD at once; a
 * CRD that reaches the informer otherwise (another writer, an import) is
 * served once the script is loaded.
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import type { SharedInformerFactory } from '../cache/factory';
import type { SharedInformer } from '../cache/informer';
import type { Catalog, ServedVersion } from '../catalog';
import type { ResourceType } from '../resource-type';
import { crdMachinery } from './library';
import type { ResourceBuilder } from './resource-types';
import { asCrd, compareKubeVersions, crdGroup, CRD_RESOURCE, stabilityOf } from './types';

/** Index of the CRD informer: CRDs by `spec.group`. */
const BY_GROUP = 'crd-registrar/group';
const byGroup = (obj: KubeObject): readonly string[] => [groupOf(obj)];

export class CrdRegistrar {
  private builderOnce: ResourceBuilder | undefined;
  private readonly informer: SharedInformer;
  private starting: Promise<void> | undefined;
  private removeHandler: (() => void) | undefined;
  /** Groups to rebuild once the initial sync is done (one rebuild per group, not one per CRD). */
  private pending: Set<string> | undefined;

  /** `informers`: the server's shared factory (the registrar follows its CRD informer). */
  constructor(
    private readonly catalog: Catalog,
    informers: SharedInformerFactory,
    private readonly profile: NamingProfile,
  ) {
    this.informer = informers.informerFor({ group: crdGroup(profile), resource: CRD_RESOURCE });
    this.informer.addIndex(BY_GROUP, byGroup);
  }

  /** Serves the stored CRDs and follows every later change; resolves once the CRD informer has synced. */
  start(): Promise<void> {
    this.starting ??= this.follow();
    return this.starting;
  }

  private async follow(): Promise<void> {
    const pending = new Set<string>();
    this.pending = pending;
    this.removeHandler = this.informer.addEventHandler({
      add: (crd) => this.changed(crd),
      update: (before, crd) => this.changed(before, crd),
      delete: (crd) => {
        this.builderOnce?.forget(crd.metadata?.name ?? '');
        this.changed(crd);
      },
    });
    try {
      await this.informer.start();
      if (this.informer.lister.list().length > 0) await crdMachinery.load();
    } catch (error) {
      this.stop(); // so that a later start() tries again
      throw error;
    } finally {
      // Not after a stop() that came meanwhile: a stopped registrar leaves the catalog alone.
      if (this.pending === pending) {
        this.pending = undefined;
        for (const g of pending) this.rebuild(g);
      }
    }
  }

  stop(): void {
    this.starting = undefined;
    this.removeHandler?.();
    this.removeHandler = undefined;
    this.pending = undefined;
  }

  private changed(...crds: KubeObject[]): void {
    for (const group of new Set(crds.map(groupOf))) {
      if (this.pending !== undefined) this.pending.add(group);
      else this.rebuild(group);
    }
  }

  /** The builder, once its script is loaded. */
  private builder(): ResourceBuilder | undefined {
    if (this.builderOnce === undefined && crdMachinery.loaded)
      this.builderOnce = new (crdMachinery.get().ResourceBuilder)(this.profile, this.catalog.definitions);
    return this.builderOnce;
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
    // By name, so that which CRD wins a contested plural does not depend on the order of events.
    const crds = this.informer.lister
      .byIndex(BY_GROUP, group)
      .map(asCrd)
      .sort((a, b) => compareStrings(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    const builder = this.builder();
    if (builder === undefined && crds.length > 0) {
      // Not written through this server's strategy (which loads it first): served once the script is here.
      void crdMachinery.load().then(
        () => this.starting !== undefined && this.rebuild(group),
        (error: unknown) => console.error(`serving the CRDs of ${group}`, error),
      );
      return;
    }
    const custom: ResourceType[] = builder === undefined ? [] : crds.flatMap((crd) => builder.build(crd));
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

function groupOf(obj: KubeObject): string {
  return asCrd(obj).spec?.group ?? '';
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
