/**
 * apiextensions/v1 and apiregistration/v1 defaults: a CustomResourceDefinition
 * gets its singular and list kind names, conversion strategy None and the
 * storage version as its first stored version; services called for
 * conversion or for an APIService listen on 443.
 */

import { child, empty, items, maybe, ptr, type Defaulter } from './helpers';

const crd: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  const names = child(spec, 'names');
  const kind = typeof names.kind === 'string' ? names.kind : '';
  if (empty(names.singular)) names.singular = kind.toLowerCase();
  if (empty(names.listKind) && kind !== '') names.listKind = `${kind}List`;
  ptr(spec, 'conversion', { strategy: 'None' });
  const status = child(obj, 'status');
  if (empty(status.storedVersions)) {
    const storage = items(spec, 'versions').find((v) => v.storage === true);
    if (storage !== undefined) status.storedVersions = [storage.name];
  }
};

export const extensionDefaults: Record<string, Defaulter> = {
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition': crd,
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion': (conversion) => {
    const service = maybe(maybe(maybe(conversion, 'webhook') ?? {}, 'clientConfig') ?? {}, 'service');
    if (conversion.strategy === 'Webhook' && service !== undefined) ptr(service, 'port', 443);
  },
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference': (ref) => ptr(ref, 'port', 443),
  'kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference': (ref) => ptr(ref, 'port', 443),
};
