/**
 * The default class of a kind (IngressClass, StorageClass): the one object
 * whose default-class annotation is `"true"`. Shared by DefaultIngressClass
 * and DefaultStorageClass. Where several carry it, the seed's rule holds —
 * every creation that needs a default is refused (see decision 0016),
 * whereas real servers since v1.25/v1.26 pick the newest.
 */

import type { KubeObject } from '../../../api/meta';
import type { Lister } from '../../../machinery/lister';

export type DefaultClass =
  { kind: 'none' } | { kind: 'one'; name: string } | { kind: 'several'; count: number };

export function defaultClass(lister: Lister, annotations: readonly string[]): DefaultClass {
  const defaults = lister.list().filter((c: KubeObject) => {
    const a = c.metadata?.annotations ?? {};
    return annotations.some((key) => a[key] === 'true');
  });
  const [only] = defaults;
  if (only === undefined) return { kind: 'none' };
  if (defaults.length > 1) return { kind: 'several', count: defaults.length };
  return { kind: 'one', name: only.metadata?.name ?? '' };
}
