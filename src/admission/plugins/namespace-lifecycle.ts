/**
 * NamespaceLifecycle: rejects writes into a namespace that does not exist
 * (404 naming the namespace), creation of new objects in a terminating
 * namespace (403), and deletion of the namespaces the system needs. It runs
 * in the mutating phase, as in the real server, so these answers come before
 * any validation error.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginFactory, NamespaceLister } from '../types';
import { forbidden, notFound } from '../../machinery/errors';

export interface NamespaceLifecycleOptions {
  namespaces: NamespaceLister;
  /** Namespaces that may never be deleted (default and the two system namespaces). */
  immortal: readonly string[];
}

export const namespaceLifecycle: AdmissionPluginFactory = (deps) =>
  namespaceLifecyclePlugin({
    namespaces: deps.namespaces,
    immortal: ['default', deps.profile.systemNamespace, deps.profile.publicNamespace],
  });

export function namespaceLifecyclePlugin(options: NamespaceLifecycleOptions): AdmissionPlugin {
  const immortal = new Set(options.immortal);
  return {
    name: 'NamespaceLifecycle',
    async admit(a: AdmissionAttributes): Promise<KubeObject | undefined> {
      if (a.group === '' && a.resource === 'namespaces') {
        if (a.operation === 'DELETE' && immortal.has(a.name)) {
          throw forbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
        }
        return undefined;
      }
      // Like the real plugin, only creates and updates look at the namespace (CONNECT and DELETE pass).
      if (a.namespace === '' || a.operation === 'DELETE' || a.operation === 'CONNECT') return undefined;
      const ns = await options.namespaces.get(a.namespace);
      if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
      const phase = (ns.status as { phase?: string } | undefined)?.phase;
      if (a.operation !== 'CREATE' || phase !== 'Terminating') return undefined;
      const err = forbidden(
        { group: a.group, resource: a.resource },
        a.name,
        `unable to create new content in namespace ${a.namespace} because it is being terminated`,
      );
      const details = err.status.details ?? {};
      details.causes = [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${a.namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ];
      err.status.details = details;
      throw err;
    },
  };
}
