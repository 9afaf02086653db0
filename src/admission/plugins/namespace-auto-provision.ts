/**
 * NamespaceAutoProvision: a create into a namespace that does not exist
 * first creates that namespace (as the API server itself, through the
 * namespace storage so watches see it), then proceeds. Dry runs create
 * nothing. A failed creation other than "already exists" is a 403 naming the
 * cause, as the real plugin answers.
 */

import { StatusError } from '../../machinery/errors';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';

export const namespaceAutoProvision: AdmissionPluginFactory = (deps) => ({
  name: 'NamespaceAutoProvision',
  operations: ['CREATE'],
  async admit(a) {
    if (a.dryRun) return undefined;
    if (a.namespace === '' || (a.group === '' && a.kind === 'Namespace')) return undefined;
    if ((await deps.namespaces.get(a.namespace)) !== undefined) return undefined;
    try {
      await deps.client.create('', 'namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: a.namespace },
      });
    } catch (e) {
      if (e instanceof StatusError && e.reason === 'AlreadyExists') return undefined;
      throw admissionForbidden(a, e instanceof Error ? e.message : String(e));
    }
    return undefined;
  },
});
