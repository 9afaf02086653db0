/**
 * Following a path of keys and list items (`[]`) down a kind's schema, for
 * completion at the cursor.
 */

import type { SchemaCursor } from './openapi';
import { ITEM, type PathSegment } from './yaml-path';

export function schemaAt(root: SchemaCursor, path: PathSegment[]): SchemaCursor | undefined {
  let cursor: SchemaCursor | undefined = root;
  for (const segment of path) {
    if (cursor === undefined) return undefined;
    cursor = segment === ITEM ? cursor.items() : cursor.property(segment);
  }
  return cursor;
}
