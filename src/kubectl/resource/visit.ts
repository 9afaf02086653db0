/**
 * Resolving infos to the objects they name, as the builder's visitors do
 * for commands that act on existing objects (delete, label, annotate,
 * patch, scale, describe, wait): a named info is fetched (its NotFound is
 * an error of that object), an info without a name is listed with
 * `-l`/`--field-selector` (or `--all`) and every item becomes an info of
 * its own.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import { resourcePath, withQuery, type QueryParams } from '../../client';
import type { CommandContext } from '../command';
import type { Info } from './builder';

export function objectPath(info: Info, name?: string, subresource?: string): string {
  return resourcePath({
    group: info.mapping.group,
    version: info.mapping.version,
    resource: info.mapping.resource,
    ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined && name !== undefined ? { subresource } : {}),
  });
}

export interface Resolved {
  info: Info;
  name: string;
  object: KubeObject;
}

/** Fetches or lists every info; errors are collected per object in `errors`. */
export async function resolveObjects(
  ctx: CommandContext,
  infos: Info[],
  errors: unknown[],
  selectors: { labelSelector?: string; fieldSelector?: string } = {},
): Promise<Resolved[]> {
  const client = await ctx.f.client();
  const out: Resolved[] = [];
  for (const info of infos) {
    try {
      if (info.name !== undefined) {
        const object = (await client.send<KubeObject>('GET', objectPath(info, info.name))).body;
        out.push({ info, name: info.name, object });
        continue;
      }
      const query: QueryParams = {};
      if (selectors.labelSelector) query['labelSelector'] = selectors.labelSelector;
      if (selectors.fieldSelector) query['fieldSelector'] = selectors.fieldSelector;
      const list = (await client.send<KubeList>('GET', withQuery(objectPath(info), query))).body;
      const kind = list.kind.replace(/List$/, '');
      for (const item of list.items) {
        const object = { apiVersion: list.apiVersion, kind, ...item };
        const name = item.metadata?.name ?? '';
        const ns = item.metadata?.namespace ?? '';
        out.push({ info: { ...info, name, namespace: info.mapping.namespaced ? ns : '' }, name, object });
      }
    } catch (error) {
      errors.push(error);
    }
  }
  return out;
}
