/**
 * Composes the admission chain for one server: what each plugin is handed
 * (listers from the shared informers, the authorizer, a client that writes
 * through the storages as the API server itself, the served resources for
 * matching, the webhook transport) and the chain the flags enable.
 */

import type { GroupVersionResource, KubeObject } from '../api/meta';
import type { UserInfo } from '../api/authn';
import { buildAdmissionChain, type AdmissionOptions } from '../admission/build';
import type { AdmissionChain } from '../admission/chain';
import type { AdmissionMetrics } from '../admission/metrics';
import type {
  AdmissionClient,
  AdmissionFlags,
  AdmissionResources,
  NamespaceLister,
} from '../admission/types';
import type { WebhookTransport } from '../admission/webhook-transport';
import type { Authorizer } from '../auth/authorizer';
import { notFound } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import type { SharedInformerFactory } from '../registry/cache/factory';
import type { Catalog } from '../registry/catalog';
import { convertObject } from '../registry/conversion';
import type { RestInstaller } from '../registry/installer';
import { internalScope } from '../registry/rest/scope';
import type { Creater, Updater } from '../registry/rest/capabilities';

export interface ServerAdmissionDeps {
  profile: NamingProfile;
  featureGates: Readonly<Record<string, boolean>>;
  now(): Date;
  catalog: Catalog;
  informers: SharedInformerFactory;
  namespaces: NamespaceLister;
  authorizer: Authorizer;
  installer: () => RestInstaller;
  transport: WebhookTransport;
  metrics: AdmissionMetrics;
  flags: AdmissionFlags;
  /** See AdmissionPluginDeps.defaultServiceAccounts. */
  defaultServiceAccounts?: () => Promise<void>;
}

/** The API server's own loopback identity, as which plugins write (NamespaceAutoProvision, ResourceQuota). */
const apiserverUser: UserInfo = {
  username: 'system:apiserver',
  groups: ['system:masters', 'system:authenticated'],
};

export function createAdmission(options: AdmissionOptions, d: ServerAdmissionDeps): AdmissionChain {
  const listed = new Set<string>();
  // The informers' `synced` promises, all at once, for the listers named so far (every admission awaits it).
  let syncedFor = -1;
  let synced: Promise<unknown> = Promise.resolve();
  const resources = admissionResources(d.catalog);
  return buildAdmissionChain(
    options,
    {
      profile: d.profile,
      featureGates: d.featureGates,
      now: d.now,
      lister(group, resource) {
        listed.add(`${group}/${resource}`);
        return d.informers.listerFor({ group, resource });
      },
      async listersSynced() {
        // An informer is never replaced and its `synced` never changes: the same set waits on the same promises.
        if (syncedFor !== listed.size) {
          syncedFor = listed.size;
          synced = Promise.all(
            [...listed].map((id) => {
              const [group = '', resource = ''] = id.split('/');
              return d.informers.informerFor({ group, resource }).synced;
            }),
          );
        }
        await synced;
      },
      namespaces: d.namespaces,
      authorizer: d.authorizer,
      client: admissionClient(d),
      transport: d.transport,
      metrics: d.metrics,
      flags: d.flags,
      ...(d.defaultServiceAccounts !== undefined ? { defaultServiceAccounts: d.defaultServiceAccounts } : {}),
      resources,
      loadFile:
        options.loadFile ??
        ((path) => {
          // The browser host has no files: a configuration must carry what it would read (the `*-data` forms).
          throw new Error(
            `open ${path}: this host has no files to read; give the contents inline (certificate-authority-data, client-certificate-data, client-key-data, token)`,
          );
        }),
    },
    d.metrics,
  );
}

function admissionClient(d: ServerAdmissionDeps): AdmissionClient {
  const rtOf = (group: string, resource: string) => {
    const rt = d.catalog.preferred(group, resource);
    if (rt === undefined) throw notFound({ group, resource }, '');
    return rt;
  };
  const scope = (
    group: string,
    resource: string,
    verb: 'get' | 'create' | 'update',
    namespace: string,
    name: string,
    subresource = '',
  ) => {
    const rt = rtOf(group, resource);
    return internalScope(
      apiserverUser,
      {
        verb,
        namespace,
        name,
        subresource,
        requestResource: { group, version: rt.version, resource },
        requestKind: { group, version: rt.version, kind: rt.kind },
      },
      d.now(),
    );
  };
  return {
    async get(group, resource, namespace, name) {
      const store = d.installer().storeFor(group, resource);
      if (store === undefined) return undefined;
      try {
        return await store.get(scope(group, resource, 'get', namespace, name), name);
      } catch {
        return undefined;
      }
    },
    async create(group, resource, object) {
      const rt = rtOf(group, resource);
      const main = d.installer().storages(rt).main as Partial<Creater>;
      if (main.create === undefined) throw new Error(`${resource} cannot be created`);
      const ns = object.metadata?.namespace ?? '';
      return main.create(scope(group, resource, 'create', ns, ''), object, {});
    },
    async update(group, resource, object, subresource = '') {
      const rt = rtOf(group, resource);
      const storages = d.installer().storages(rt);
      const target = (subresource === '' ? storages.main : storages.subresources.get(subresource)) as
        Partial<Updater> | undefined;
      if (target?.update === undefined) throw new Error(`${resource}/${subresource} cannot be updated`);
      const name = object.metadata?.name ?? '';
      const ns = object.metadata?.namespace ?? '';
      const result = await target.update(
        scope(group, resource, 'update', ns, name, subresource),
        name,
        () => object,
        {},
      );
      return result.object;
    },
  };
}

function admissionResources(catalog: Catalog): AdmissionResources {
  return {
    lookup(group, version, resource) {
      const rt = catalog.lookup(group, version, resource);
      return rt === undefined ? undefined : { kind: rt.kind, namespaced: rt.namespaced };
    },
    equivalents(group, version, resource) {
      const rt = catalog.lookup(group, version, resource);
      if (rt === undefined) return [];
      const out: GroupVersionResource[] = [];
      for (const g of catalog.groups())
        for (const v of g.versions)
          for (const other of v.resources.values())
            if (other.storage.group === rt.storage.group && other.storage.resource === rt.storage.resource)
              out.push({ group: other.group, version: other.version, resource: other.resource });
      return out;
    },
    convert(object: KubeObject, toApiVersion: string) {
      const [group, version] = toApiVersion.includes('/') ? toApiVersion.split('/') : ['', toApiVersion];
      const rt = catalog.byKind(group ?? '', version ?? '', object.kind ?? '');
      if (rt === undefined) return undefined;
      return convertObject(object, rt.apiVersion, rt.kind, rt.conversion);
    },
  };
}

// What hosts need to read the admission flags (they import the server, never the admission layer).
export { loadAdmissionPlugins, validateAdmissionOptions, type AdmissionOptions } from '../admission/build';
export { AdmissionConfigError, parseAdmissionConfiguration } from '../admission/config';
