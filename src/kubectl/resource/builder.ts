/**
 * kubectl's resource builder (cli-runtime resource.Builder), reduced to
 * what the commands here need: from `TYPE NAME…`, `TYPE/NAME…`,
 * `TYPE1,TYPE2`, categories (`all`) or `-f` sources it makes the list of
 * "infos" — one resource (mapping, namespace, optional name, optional
 * object from a file) each — that a command then gets, lists, patches or
 * deletes; and it says whether a single item was implied (one name), which
 * decides between printing an object and printing a List.
 */

import type { KubeObject } from '../../api/meta';
import { parseApiVersion } from '../../client';
import type { CommandContext } from '../command';
import { KubectlError, usageError } from '../errors';
import { kindName, type Mapping } from '../restmapper';
import { readSources } from './files';

export interface Info {
  mapping: Mapping;
  /** Empty for cluster-scoped resources or all namespaces. */
  namespace: string;
  name?: string;
  /** The object read from a file (`-f`). */
  object?: KubeObject;
  source?: string;
}

export interface BuildOptions {
  filenames?: string[];
  recursive?: boolean;
  allNamespaces?: boolean;
  /** Types are optional here (as `apply`/`delete -f` need none). */
  requireResource?: boolean;
  /** A command whose message says "you must provide one or more resources …". */
  emptyMessage?: string;
}

export interface BuildResult {
  infos: Info[];
  singleItemImplied: boolean;
}

/** Infos from the typed arguments (no files). */
export async function infosFromArgs(
  ctx: CommandContext,
  args: string[],
  options: BuildOptions = {},
): Promise<BuildResult> {
  const mapper = await ctx.f.mapper();
  const { namespace } = await ctx.f.namespace();
  const all = options.allNamespaces === true;
  const ns = (m: Mapping) => (m.namespaced && !all ? namespace : '');
  if (args.length === 0) return { infos: [], singleItemImplied: false };
  const slashForm = args.some((a) => a.includes('/'));
  if (slashForm) {
    if (!args.every((a) => a.includes('/')))
      throw new KubectlError(
        "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
      );
    const infos: Info[] = [];
    for (const arg of args) {
      const slash = arg.indexOf('/');
      const type = arg.slice(0, slash);
      const name = arg.slice(slash + 1);
      if (name === '')
        throw new KubectlError(`error: arguments in resource/name form must have a single resource and name`);
      const m = mapper.mappingFor(type);
      infos.push({ mapping: m, namespace: ns(m), name });
    }
    return { infos, singleItemImplied: infos.length === 1 };
  }
  const [typesArg, ...names] = args as [string, ...string[]];
  const types = typesArg.split(',').filter((t) => t !== '');
  const mappings: Mapping[] = [];
  for (const t of types) {
    const category = mapper.category(t);
    if (category.length > 0 && !mapper.mappings.some((m) => m.resource === t || m.shortNames.includes(t)))
      mappings.push(...category);
    else mappings.push(mapper.mappingFor(t));
  }
  if (names.length === 0)
    return { infos: mappings.map((m) => ({ mapping: m, namespace: ns(m) })), singleItemImplied: false };
  const infos: Info[] = [];
  for (const m of mappings) for (const name of names) infos.push({ mapping: m, namespace: ns(m), name });
  return { infos, singleItemImplied: mappings.length === 1 && names.length === 1 };
}

/** Infos from `-f` sources: each object's mapping, namespace (checked against `-n`) and name. */
export async function infosFromFiles(
  ctx: CommandContext,
  filenames: string[],
  recursive: boolean,
): Promise<BuildResult> {
  const objects = await readSources(ctx.io, filenames, recursive);
  const mapper = await ctx.f.mapper();
  const { namespace, explicit } = await ctx.f.namespace();
  const infos: Info[] = [];
  for (const { object, source } of objects) {
    const { group, version } = parseApiVersion(object.apiVersion ?? '');
    const m = mapper.forKind(group, version, object.kind ?? '');
    if (m === undefined)
      throw new KubectlError(
        `error: resource mapping not found for name: "${object.metadata?.name ?? ''}" namespace: "${object.metadata?.namespace ?? ''}" from "${source}": no matches for kind "${object.kind}" in version "${object.apiVersion}"\nensure CRDs are installed first`,
      );
    let ns = '';
    if (m.namespaced) {
      const own = object.metadata?.namespace;
      if (own !== undefined && own !== '' && explicit && own !== namespace)
        throw new KubectlError(
          `error: the namespace from the provided object "${own}" does not match the namespace "${namespace}". You must pass '--namespace=${own}' to perform this operation.`,
        );
      ns = own !== undefined && own !== '' ? own : namespace;
    }
    const info: Info = { mapping: m, namespace: ns, object, source };
    const name = object.metadata?.name;
    if (name !== undefined && name !== '') info.name = name;
    infos.push(info);
  }
  return {
    infos,
    singleItemImplied: filenames.length === 1 && infos.length === 1 && filenames[0] !== '-' && false,
  };
}

/** The flags every resource-taking command shares: -f, -R, -k (refused here). */
export const filenameFlags = [
  { name: 'filename', shorthand: 'f', type: 'stringSlice' as const },
  { name: 'recursive', shorthand: 'R', type: 'bool' as const, noOptDefVal: 'true' },
  { name: 'kustomize', shorthand: 'k', type: 'string' as const },
];

/** `kind.group/name`, as kubectl names an object in messages. */
export function objectName(info: Info): string {
  return `${kindName(info.mapping)}/${info.name ?? info.object?.metadata?.name ?? ''}`;
}

export function requireArgsOrFiles(
  ctx: CommandContext,
  args: string[],
  filenames: string[],
  what: string,
): void {
  if (args.length === 0 && filenames.length === 0) throw usageError(ctx.path, what);
}
