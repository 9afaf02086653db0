/**
 * A binding's parameter object: the policy's `paramKind` names a served
 * kind, the binding's `paramRef` one object of it, read from the informer
 * cache (so params take effect as soon as the cache sees them). Failures
 * carry the real texts (`paramKind kind `…` not known`, `<name> not
 * found`); the dispatcher wraps them as `failed to configure binding: …`.
 */

import type { KubeObject } from '../../api/meta';
import type { Lister } from '../../machinery/lister';
import type { AdmissionPluginDeps } from '../types';
import type { ParamKind, ParamRef } from './types';

export type ParamResult = { param: KubeObject | null } | { error: string };

type ParamDeps = Pick<AdmissionPluginDeps, 'resources' | 'lister' | 'listersSynced'>;

const listers = new WeakMap<ParamDeps, Map<string, Lister>>();

export async function lookupParam(
  kind: ParamKind | undefined,
  ref: ParamRef | undefined,
  deps: ParamDeps,
): Promise<ParamResult> {
  // No paramKind: any paramRef is ignored; a paramKind without a paramRef: params is null.
  if (kind === undefined || ref === undefined) return { param: null };
  const [group, version] = splitApiVersion(kind.apiVersion ?? '');
  const resource = resourceForKind(group, version, kind.kind ?? '', deps);
  const lister = resource === undefined ? undefined : await listerFor(group, resource, deps);
  if (lister === undefined) return { error: `paramKind kind \`${paramKindText(kind)}\` not known` };
  const name = ref.name ?? '';
  const stored = lister.get(ref.namespace ?? '', name);
  if (stored === undefined) return { error: `${name} not found` };
  const apiVersion = kind.apiVersion ?? '';
  const param =
    stored.apiVersion === apiVersion ? stored : (deps.resources.convert(stored, apiVersion) ?? stored);
  return { param };
}

/** Go's `%v` of the ParamKind struct, as the real message prints it. */
export function paramKindText(kind: ParamKind): string {
  return `&ParamKind{APIVersion:${kind.apiVersion ?? ''},Kind:${kind.kind ?? ''},}`;
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** The served resource of a kind: its plural form, confirmed by the served kind (the mapper's answer). */
function resourceForKind(group: string, version: string, kind: string, deps: ParamDeps): string | undefined {
  if (kind === '') return undefined;
  const lower = kind.toLowerCase();
  const candidates = [
    `${lower}s`,
    `${lower}es`,
    lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : '',
    lower,
  ];
  return candidates.find((c) => c !== '' && deps.resources.lookup(group, version, c)?.kind === kind);
}

async function listerFor(group: string, resource: string, deps: ParamDeps): Promise<Lister | undefined> {
  let byResource = listers.get(deps);
  if (byResource === undefined) listers.set(deps, (byResource = new Map()));
  const key = `${group}/${resource}`;
  let lister = byResource.get(key);
  if (lister === undefined) {
    try {
      lister = deps.lister(group, resource);
    } catch {
      return undefined;
    }
    byResource.set(key, lister);
    await deps.listersSynced();
  }
  return lister;
}
