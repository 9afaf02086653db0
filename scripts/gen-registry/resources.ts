/**
 * Derives discovery facts (groups, versions, resources, subresources, verbs)
 * from the paths and operations of the upstream OpenAPI documents, keeps the
 * kinds that v1.27 has (their definition survived the protobuf
 * intersection), and completes them with the hand-written tables.
 */

import type {
  GeneratedGroup,
  GeneratedRegistry,
  GeneratedResource,
  GeneratedSubresource,
  GeneratedVersion,
} from '../../src/registry/generated/format';
import type { ConvertedDefinitions } from './definitions';
import { gvKey, neutralGroup, neutralRef } from './names';
import {
  HTTP_METHODS,
  type GroupVersionDocument,
  type HttpMethod,
  type Operation,
  type UpstreamGvk,
} from './openapi';
import {
  BETA_ENABLED_BY_DEFAULT,
  DISCOVERY_EXTRAS,
  GROUP_ORDER,
  RELEASE,
  V127_ONLY_SUBRESOURCES,
} from './tables';

interface SubresourceAcc {
  gvk: UpstreamGvk;
  verbs: Set<string>;
  bodyRef?: string;
}

interface ResourceAcc {
  name: string;
  namespaced: boolean;
  gvk?: UpstreamGvk;
  verbs: Set<string>;
  watchable: boolean;
  subresources: Map<string, SubresourceAcc>;
}

export interface DerivedRegistry {
  registry: GeneratedRegistry;
  /** Neutral `group/version` keys of every generated version. */
  keptGroupVersions: Set<string>;
  /** Definitions the registry names (resource and subresource bodies). */
  usedDefinitions: Set<string>;
  notes: { droppedResources: string[]; droppedVersions: string[] };
}

/**
 * Discovery verb of an operation. Connect operations (exec, attach, proxy, …)
 * are listed by HTTP method the way the upstream installer lists them;
 * HEAD and OPTIONS have no verb.
 */
function verbOf(action: string, method: HttpMethod): string | undefined {
  switch (action) {
    case 'get':
    case 'list':
    case 'patch':
    case 'delete':
    case 'deletecollection':
      return action;
    case 'post':
      return 'create';
    case 'put':
      return 'update';
    case 'connect':
      return {
        get: 'get',
        post: 'create',
        put: 'update',
        patch: 'patch',
        delete: 'delete',
        head: undefined,
        options: undefined,
      }[method];
    default:
      throw new Error(`unknown action ${action}`);
  }
}

function sameGvk(a: UpstreamGvk, b: UpstreamGvk): boolean {
  return a.group === b.group && a.version === b.version && a.kind === b.kind;
}

function bodyRefOf(op: Operation): string | undefined {
  const requests = Object.values(op.requestBody?.content ?? {});
  const responses = ['200', '201'].flatMap((code) => Object.values(op.responses?.[code]?.content ?? {}));
  for (const media of [...requests, ...responses]) {
    if (media.schema?.$ref !== undefined) return neutralRef(media.schema.$ref);
  }
  return undefined;
}

/** Collects the resources of one group/version document from its paths. */
function collectResources(doc: GroupVersionDocument): Map<string, ResourceAcc> {
  const resources = new Map<string, ResourceAcc>();
  const resourceAcc = (name: string): ResourceAcc => {
    const existing = resources.get(name);
    if (existing !== undefined) return existing;
    const created: ResourceAcc = {
      name,
      namespaced: false,
      verbs: new Set(),
      watchable: false,
      subresources: new Map(),
    };
    resources.set(name, created);
    return created;
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(`${doc.prefix}/`)) throw new Error(`path ${path} outside ${doc.prefix}`);
    let segments = path
      .slice(doc.prefix.length + 1)
      .split('/')
      .filter(Boolean);
    if (segments.length === 0) continue; // the group/version's own discovery document
    // Watch paths exist only for storage that implements watch, so they, not
    // the list operation's `watch` parameter, decide the verb (componentstatuses lists but cannot watch).
    const watchPath = segments[0] === 'watch';
    if (watchPath) segments = segments.slice(1);
    let namespaced = false;
    if (segments[0] === 'namespaces' && segments[1] === '{namespace}' && segments.length >= 3) {
      namespaced = true;
      segments = segments.slice(2);
    }
    const [name, nameParam, subresource, rest, ...extra] = segments;
    if (name === undefined || (nameParam !== undefined && nameParam !== '{name}')) {
      throw new Error(`unexpected path ${path}`);
    }
    if (extra.length > 0 || (rest !== undefined && rest !== '{path}'))
      throw new Error(`unexpected path ${path}`);
    const acc = resourceAcc(name);
    acc.namespaced ||= namespaced;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const action = op['x-kubernetes-action'];
      const gvk = op['x-kubernetes-group-version-kind'];
      if (action === undefined || gvk === undefined)
        throw new Error(`${method} ${path} lacks action or kind`);
      if (watchPath) {
        if (action !== 'watch' && action !== 'watchlist')
          throw new Error(`${method} ${path}: action ${action}`);
        acc.watchable = true;
        continue;
      }
      const verb = verbOf(action, method);
      if (subresource !== undefined) {
        const sub = acc.subresources.get(subresource) ?? { gvk, verbs: new Set<string>() };
        if (!sameGvk(sub.gvk, gvk)) throw new Error(`${path}: subresource kinds disagree`);
        if (verb !== undefined) sub.verbs.add(verb);
        sub.bodyRef ??= bodyRefOf(op);
        acc.subresources.set(subresource, sub);
      } else {
        if (acc.gvk !== undefined && !sameGvk(acc.gvk, gvk))
          throw new Error(`${path}: resource kinds disagree`);
        acc.gvk = gvk;
        if (verb !== undefined) acc.verbs.add(verb);
      }
    }
  }
  return resources;
}

function stabilityOf(version: string): GeneratedVersion['stability'] {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  if (/^v\d+$/.test(version)) return 'stable';
  throw new Error(`unexpected version ${version}`);
}

/** Upstream version priority: stable before beta before alpha, then higher numbers first. */
function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (m === null) throw new Error(`unexpected version ${v}`);
    const level = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
    return [level, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [pa, pb] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sortedVerbs(verbs: Iterable<string>): string[] {
  return [...verbs].sort();
}

export function deriveRegistry(
  documents: GroupVersionDocument[],
  converted: ConvertedDefinitions,
): DerivedRegistry {
  // Upstream gvk → definition, for definitions that v1.27 has.
  const definitionOf = new Map<string, string>();
  for (const [name, gvks] of converted.upstreamGvk) {
    for (const g of gvks) {
      const key = `${g.group}/${g.version}/${g.kind}`;
      const previous = definitionOf.get(key);
      if (previous !== undefined && previous !== name) throw new Error(`${key} has two definitions`);
      definitionOf.set(key, name);
    }
  }

  const notes: DerivedRegistry['notes'] = { droppedResources: [], droppedVersions: [] };
  const usedDefinitions = new Set<string>();
  const usedExtras = new Set<string>();
  const usedSubresources = new Set<string>();
  const groups = new Map<string, GeneratedGroup>();

  for (const doc of documents) {
    const group = neutralGroup(doc.group);
    const resources: GeneratedResource[] = [];
    for (const acc of collectResources(doc).values()) {
      const where = `${doc.group}/${doc.version}/${acc.name}`;
      if (acc.gvk === undefined) throw new Error(`${where} has no kind`);
      const definition = definitionOf.get(`${acc.gvk.group}/${acc.gvk.version}/${acc.gvk.kind}`);
      if (definition === undefined) {
        notes.droppedResources.push(`${where} (${acc.gvk.kind})`);
        continue;
      }
      const subresources: GeneratedSubresource[] = [];
      for (const [name, sub] of acc.subresources) {
        const foreign = sub.gvk.group !== doc.group || sub.gvk.version !== doc.version;
        const subGroup = neutralGroup(sub.gvk.group);
        if (sub.bodyRef !== undefined) {
          if (!converted.definitions.has(sub.bodyRef))
            throw new Error(`${where}/${name}: body ${sub.bodyRef} missing`);
          usedDefinitions.add(sub.bodyRef);
        }
        subresources.push({
          name,
          kind: sub.gvk.kind,
          ...(foreign && { group: subGroup.name }),
          ...(foreign && subGroup.suffixed && { groupSuffixed: true }),
          ...(foreign && { version: sub.gvk.version }),
          verbs: sortedVerbs(sub.verbs),
          ...(sub.bodyRef !== undefined && { definition: sub.bodyRef }),
        });
      }
      const addedKey = `${gvKey(group.name, doc.version)}/${acc.name}`;
      for (const added of V127_ONLY_SUBRESOURCES[addedKey] ?? []) {
        if (acc.subresources.has(added.name)) throw new Error(`${where}/${added.name} is upstream already`);
        if (added.definition !== undefined) {
          if (!converted.definitions.has(added.definition))
            throw new Error(`${where}/${added.name}: no definition`);
          usedDefinitions.add(added.definition);
        }
        usedSubresources.add(addedKey);
        subresources.push({ ...added, verbs: sortedVerbs(added.verbs) });
      }
      const verbs = new Set(acc.verbs);
      if (acc.watchable) verbs.add('watch');
      const extrasKey = `${group.name}/${acc.name}`;
      const extras = DISCOVERY_EXTRAS[extrasKey];
      if (extras !== undefined) usedExtras.add(extrasKey);
      const resource: GeneratedResource = {
        name: acc.name,
        // Upstream discovery derives the singular name from the kind.
        singularName: acc.gvk.kind.toLowerCase(),
        kind: acc.gvk.kind,
        namespaced: acc.namespaced,
        verbs: sortedVerbs(verbs),
        ...(extras?.shortNames !== undefined && { shortNames: [...extras.shortNames] }),
        ...(extras?.categories !== undefined && { categories: [...extras.categories] }),
        definition,
        subresources: subresources.sort(byName),
      };
      usedDefinitions.add(definition);
      resources.push(resource);
    }
    if (resources.length === 0) {
      notes.droppedVersions.push(`${doc.group}/${doc.version}`);
      continue;
    }
    const stability = stabilityOf(doc.version);
    const version: GeneratedVersion = {
      version: doc.version,
      stability,
      enabledByDefault:
        stability === 'stable' ||
        (stability === 'beta' && BETA_ENABLED_BY_DEFAULT.has(gvKey(group.name, doc.version))),
      resources: resources.sort(byName),
    };
    const entry = groups.get(group.name) ?? { name: group.name, suffixed: group.suffixed, versions: [] };
    entry.versions.push(version);
    groups.set(group.name, entry);
  }

  const unused = [
    ...Object.keys(DISCOVERY_EXTRAS).filter((k) => !usedExtras.has(k)),
    ...Object.keys(V127_ONLY_SUBRESOURCES).filter((k) => !usedSubresources.has(k)),
  ];
  if (unused.length > 0) throw new Error(`hand-written entries match no resource: ${unused.join(', ')}`);
  for (const key of BETA_ENABLED_BY_DEFAULT) {
    const [g, v] = key.split('/');
    if (!groups.get(g ?? '')?.versions.some((x) => x.version === v))
      throw new Error(`${key} is not generated`);
  }

  const rank = (name: string): number => {
    const i = GROUP_ORDER.indexOf(name);
    if (i < 0) throw new Error(`group ${name} has no place in GROUP_ORDER`);
    return i;
  };
  const ordered = [...groups.values()].sort((a, b) => rank(a.name) - rank(b.name));
  const keptGroupVersions = new Set<string>();
  for (const group of ordered) {
    group.versions.sort((a, b) => compareVersions(a.version, b.version));
    for (const v of group.versions) keptGroupVersions.add(gvKey(group.name, v.version));
  }
  return { registry: { release: RELEASE, groups: ordered }, keptGroupVersions, usedDefinitions, notes };
}
