/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for
 * built-in kinds: what `kubectl apply` (client-side), `kubectl edit`,
 * `kubectl patch` and friends send. The kind's schema facts say how each
 * list merges (`patchStrategy`/`patchMergeKey`); the patch may carry the
 * directives `$patch`, `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>`, and null deletes a field. Failures are
 * StatusErrors with the real server's status and words.
 */

import { badRequest } from '../machinery/errors';
import { deepClone, isPlainObject } from '../machinery/json';
import { goTypeName } from '../machinery/go-format';
import type { DefinitionSet, SchemaNode } from '../machinery/schema';
import { mergeMap, PatchSchema } from './strategic/merge';

/**
 * Applies `patch` to `original` under the schema `root` (the kind's top
 * definition, e.g. `{ ref: 'api.apps.v1.Deployment' }`) and returns the
 * result. Neither argument is modified.
 */
export function strategicMergePatch(
  defs: DefinitionSet,
  root: SchemaNode,
  original: Record<string, unknown>,
  patch: unknown,
): Record<string, unknown> {
  if (patch === null) return deepClone(original);
  if (!isPlainObject(patch)) {
    const shown =
      goTypeName(patch) === '[]interface {}'
        ? 'array'
        : typeof patch === 'string'
          ? 'string'
          : typeof patch === 'boolean'
            ? 'bool'
            : 'number';
    throw badRequest(`json: cannot unmarshal ${shown} into Go value of type map[string]interface {}`);
  }
  return mergeMap(deepClone(original), deepClone(patch), new PatchSchema(defs, root));
}
