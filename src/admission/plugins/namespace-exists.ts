/**
 * NamespaceExists: refuses a create, update or delete of a namespaced object
 * whose namespace does not exist, with the namespace storage's own 404
 * (`namespaces "x" not found`). Namespaces themselves pass. The namespace
 * cache hears commits as they happen, so the real plugin's second, live
 * lookup (for a lagging cache) has nothing to add here.
 */

import { notFound } from '../../machinery/errors';
import type { AdmissionPluginFactory } from '../types';

export const namespaceExists: AdmissionPluginFactory = (deps) => ({
  name: 'NamespaceExists',
  operations: ['CREATE', 'UPDATE', 'DELETE'],
  async validate(a) {
    if (a.namespace === '' || (a.group === '' && a.kind === 'Namespace')) return;
    if ((await deps.namespaces.get(a.namespace)) !== undefined) return;
    throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
  },
});
