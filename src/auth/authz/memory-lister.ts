/**
 * An `ObjectLister` over a fixed array of objects, with index functions:
 * for tests, and for evaluating policy that is not stored (what-if
 * questions in the UI, the default policy before the server starts).
 */

import type { KubeObject } from '../../api/meta';
import type { ObjectLister } from '../listers';

export type IndexFunctions = Readonly<Record<string, (obj: KubeObject) => readonly string[]>>;

export function memoryLister(objects: readonly KubeObject[], indexes: IndexFunctions = {}): ObjectLister {
  const ns = (o: KubeObject) => o.metadata?.namespace ?? '';
  return {
    get: (namespace, name) => objects.find((o) => ns(o) === namespace && o.metadata?.name === name),
    list: (namespace) =>
      namespace === undefined ? [...objects] : objects.filter((o) => ns(o) === namespace),
    byIndex: (indexName, value) => {
      const fn = indexes[indexName];
      if (fn === undefined) throw new Error(`index ${indexName} is not registered`);
      return objects.filter((o) => fn(o).includes(value));
    },
  };
}
