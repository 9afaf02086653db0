/**
 * Installs REST storages on the served resources: for each resource type
 * (built-in at start, custom as its CRD is established) the storage of the
 * main resource and of each subresource, from the generic store and the
 * kind's registration (`kinds/`). The verbs discovery lists and the
 * dispatcher accepts are derived from those storages' capabilities, and a
 * subresource with no storage is not served.
 */

import type { Catalog } from './catalog';
import { verbsOf, type RestStorage } from './rest/capabilities';
import type { KindHooks } from './rest/strategy';
import { GenericStore, type StoreDeps } from './generic/store';
import { mainStrategy, statusStrategy } from './generic/strategy';
import { ScaleStorage } from './generic/scale';
import { registrationFor } from './kinds/index';
import type { KindRegistration, KindServices, KindStorageContext } from './kinds/types';
import type { ResourceType, SubresourceType } from './resource-type';

export interface ResourceStorages {
  main: RestStorage;
  /** The generic store of a stored kind (absent for kinds that are never stored). */
  store?: GenericStore;
  subresources: ReadonlyMap<string, RestStorage>;
}

function hooksOf(
  registration: KindRegistration | undefined,
  rt: ResourceType,
  context: KindStorageContext,
): KindHooks | undefined {
  const hooks = registration?.hooks;
  return typeof hooks === 'function' ? hooks(rt, context) : hooks;
}

export class RestInstaller {
  private readonly installed = new WeakMap<ResourceType, ResourceStorages>();

  constructor(
    private readonly catalog: Catalog,
    private readonly deps: StoreDeps,
    private readonly services: KindServices,
  ) {}

  /** The storages of `rt`, building them on first use. */
  storages(rt: ResourceType): ResourceStorages {
    let s = this.installed.get(rt);
    if (s === undefined) {
      s = this.build(rt);
      this.installed.set(rt, s);
      rt.verbs = verbsOf(s.main);
      const subresources = new Map<string, SubresourceType>();
      for (const [name, sub] of rt.subresources) {
        const storage = s.subresources.get(name);
        if (storage !== undefined) subresources.set(name, { ...sub, verbs: verbsOf(storage) });
      }
      rt.subresources = subresources;
    }
    return s;
  }

  /** Installs every served resource that has no storages yet (called before the catalog announces a change). */
  installAll(): void {
    for (const g of this.catalog.groups())
      for (const v of g.versions) for (const rt of v.resources.values()) this.storages(rt);
  }

  /** The store of a served resource by group and resource, in its preferred version. */
  storeFor(group: string, resource: string): GenericStore | undefined {
    const rt = this.catalog.preferred(group, resource);
    return rt === undefined ? undefined : this.storages(rt).store;
  }

  private build(rt: ResourceType): ResourceStorages {
    const registration = registrationFor(rt);
    const context: KindStorageContext = {
      rt,
      deps: this.deps,
      services: this.services,
      storeFor: (group, resource) => this.storeFor(group, resource),
    };
    if (registration?.storage !== undefined)
      return { main: registration.storage(context), subresources: new Map() };

    const hooks = hooksOf(registration, rt, context);
    const store = new GenericStore(rt, mainStrategy(rt, hooks), this.deps);
    const stored = { ...context, store };
    const subresources = new Map<string, RestStorage>();
    for (const name of rt.subresources.keys()) {
      const special = registration?.subresources?.[name];
      if (special !== undefined) subresources.set(name, special(stored));
      else if (name === 'status') subresources.set(name, statusStorage(store, rt, hooks));
      else if (name === 'scale') subresources.set(name, new ScaleStorage(store));
    }
    return { main: registration?.main?.(stored) ?? store, store, subresources };
  }
}

function statusStorage(store: GenericStore, rt: ResourceType, hooks: KindHooks | undefined): RestStorage {
  const status = store.withStrategy(statusStrategy(rt, hooks));
  return {
    get: (scope, name, options) => status.get(scope, name, options),
    update: (scope, name, objInfo, options) => status.update(scope, name, objInfo, options),
  };
}
