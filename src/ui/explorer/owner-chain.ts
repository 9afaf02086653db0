/**
 * An object's owner chain, as the workload controllers build it: up from
 * the object through each controller reference (a Pod → its ReplicaSet →
 * its Deployment), read one owner at a time, and down to what the object's
 * controller makes (a Deployment's ReplicaSets and their Pods, a CronJob's
 * Jobs and theirs, a Service's EndpointSlices), found by listing only the
 * kinds such a controller creates in the object's namespace — so the chain
 * costs a few requests, not one per served kind.
 */

import type { KubeObject } from '../../api/meta';
import type { ApiClient, DiscoveredGroupVersion } from '../../client/index';
import { choiceForKind, type ResourceChoice } from '../lib/resource-choice';

/** The Explorer link of an object of a kind (the UI passes its router's; tests their own). */
export type HrefFor = (
  choice: ResourceChoice,
  namespace: string | undefined,
  name: string | undefined,
) => string;

export interface ChainLink {
  kind: string;
  name: string;
  uid: string;
  /** A short state: `3/3 ready` for a ReplicaSet, the phase of a Pod. */
  summary: string;
  href: string | undefined;
  children: ChainLink[];
}

export interface OwnerChain {
  /** From the topmost owner down to the object's direct owner. */
  ancestors: ChainLink[];
  self: ChainLink;
}

/** The kinds each controller creates, by the owner's kind (apiVersion, kind). */
const childKinds: Record<string, [string, string][]> = {
  Deployment: [['apps/v1', 'ReplicaSet']],
  ReplicaSet: [['v1', 'Pod']],
  ReplicationController: [['v1', 'Pod']],
  StatefulSet: [
    ['v1', 'Pod'],
    ['apps/v1', 'ControllerRevision'],
  ],
  DaemonSet: [
    ['v1', 'Pod'],
    ['apps/v1', 'ControllerRevision'],
  ],
  Job: [['v1', 'Pod']],
  CronJob: [['batch/v1', 'Job']],
};

/** The most levels followed each way (a Deployment's Pods are two down). */
const maxDepth = 2;

function summary(kind: string, obj: KubeObject): string {
  const status = (obj['status'] ?? {}) as Record<string, unknown>;
  const spec = (obj['spec'] ?? {}) as Record<string, unknown>;
  switch (kind) {
    case 'Pod':
      return typeof status['phase'] === 'string' ? status['phase'] : '';
    case 'Deployment':
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'StatefulSet':
      return `${Number(status['readyReplicas'] ?? 0)}/${Number(spec['replicas'] ?? 0)} ready`;
    case 'DaemonSet':
      return `${Number(status['numberReady'] ?? 0)}/${Number(status['desiredNumberScheduled'] ?? 0)} ready`;
    case 'Job':
      return `${Number(status['succeeded'] ?? 0)} succeeded`;
    case 'ControllerRevision':
      return `revision ${Number(obj['revision'] ?? 0)}`;
    default:
      return '';
  }
}

function link(
  hrefFor: HrefFor,
  choice: ResourceChoice | undefined,
  kind: string,
  obj: KubeObject,
): ChainLink {
  const m = obj.metadata ?? {};
  return {
    kind,
    name: m.name ?? '',
    uid: m.uid ?? '',
    summary: summary(kind, obj),
    href: choice === undefined ? undefined : hrefFor(choice, m.namespace, m.name),
    children: [],
  };
}

function controllerRef(obj: KubeObject) {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

async function descendants(
  hrefFor: HrefFor,
  client: ApiClient,
  groupVersions: DiscoveredGroupVersion[],
  kind: string,
  obj: KubeObject,
  depth: number,
): Promise<ChainLink[]> {
  if (depth >= maxDepth) return [];
  const uid = obj.metadata?.uid;
  const namespace = obj.metadata?.namespace;
  const out: ChainLink[] = [];
  for (const [apiVersion, childKind] of childKinds[kind] ?? []) {
    const choice = choiceForKind(groupVersions, apiVersion, childKind);
    if (choice === undefined || namespace === undefined) continue;
    try {
      const list = await client.list({
        group: choice.group,
        version: choice.version,
        resource: choice.resource.name,
        namespace,
      });
      for (const item of list.items) {
        if (controllerRef(item)?.uid !== uid) continue;
        const l = link(hrefFor, choice, childKind, item);
        l.children = await descendants(hrefFor, client, groupVersions, childKind, item, depth + 1);
        out.push(l);
      }
    } catch {
      // A kind this identity may not list: the chain shows what it can.
    }
  }
  return out.sort((a, b) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`));
}

/** The chain of `object` (read with its apiVersion and kind, as a GET returns it). */
export async function ownerChain(
  client: ApiClient,
  groupVersions: DiscoveredGroupVersion[],
  object: KubeObject,
  hrefFor: HrefFor,
): Promise<OwnerChain> {
  const kind = object.kind ?? '';
  const self = link(hrefFor, choiceForKind(groupVersions, object.apiVersion, kind), kind, object);
  self.children = await descendants(hrefFor, client, groupVersions, kind, object, 0);
  const ancestors: ChainLink[] = [];
  let current = object;
  for (let i = 0; i < 5; i++) {
    const ref = controllerRef(current);
    if (ref === undefined) break;
    const choice = choiceForKind(groupVersions, ref.apiVersion, ref.kind);
    if (choice === undefined) {
      ancestors.unshift({
        kind: ref.kind,
        name: ref.name,
        uid: ref.uid,
        summary: '',
        href: undefined,
        children: [],
      });
      break;
    }
    try {
      const owner = await client.get({
        group: choice.group,
        version: choice.version,
        resource: choice.resource.name,
        ...(choice.resource.namespaced && object.metadata?.namespace !== undefined
          ? { namespace: object.metadata.namespace }
          : {}),
        name: ref.name,
      });
      if (owner.metadata?.uid !== ref.uid) break;
      ancestors.unshift(link(hrefFor, choice, ref.kind, owner));
      current = owner;
    } catch {
      // The owner is gone (the garbage collector will follow) or not readable: the chain stops here.
      ancestors.unshift({
        kind: ref.kind,
        name: ref.name,
        uid: ref.uid,
        summary: 'not found',
        href: undefined,
        children: [],
      });
      break;
    }
  }
  return { ancestors, self };
}
