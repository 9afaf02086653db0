/**
 * The garbage collector: keeps a graph of owner references over every
 * listable resource (informers on each, found through discovery and
 * re-checked periodically so new kinds join), and acts as the real one does:
 * - a dependent whose owners are all gone is deleted (in the background);
 *   dangling references beside live owners are removed;
 * - an owner deleted with propagationPolicy Orphan carries the `orphan`
 *   finalizer: its dependents lose their reference to it, then the
 *   finalizer goes;
 * - an owner deleted with Foreground carries `foregroundDeletion`: its
 *   dependents are deleted first, and once none with blockOwnerDeletion is
 *   left the finalizer goes.
 * Owners are verified with a live read (name and uid) before anything is
 * deleted, so a stale cache never deletes a live object's dependents.
 */

import type { KubeObject, OwnerReference } from '../api/meta';
import { ApiError } from '../client/errors';
import { parseApiVersion, type ResourceRef } from '../client/paths';
import type { ObjectRef } from '../client/client';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const orphanFinalizer = 'orphan';
const foregroundFinalizer = 'foregroundDeletion';
const rediscoverEveryMs = 5_000;

interface KindInfo {
  ref: ResourceRef;
  namespaced: boolean;
}

interface Node {
  uid: string;
  ref: ObjectRef;
  obj: KubeObject;
}

function terminating(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null;
}

function hasFinalizer(obj: KubeObject, f: string): boolean {
  return (obj.metadata?.finalizers ?? []).includes(f);
}

export function garbageCollector(ctx: ControllerContext): Controller {
  const nodes = new Map<string, Node>();
  const dependents = new Map<string, Set<string>>();
  const kinds = new Map<string, KindInfo>();
  const informers = new Map<string, Informer>();
  let synced = false;
  let stopped = false;
  let rediscoverTimer: ReturnType<typeof setTimeout> | undefined;

  const owners = (obj: KubeObject): OwnerReference[] => obj.metadata?.ownerReferences ?? [];

  const link = (uid: string, refs: OwnerReference[]): void => {
    for (const o of refs) {
      let set = dependents.get(o.uid);
      if (set === undefined) dependents.set(o.uid, (set = new Set()));
      set.add(uid);
    }
  };
  const unlink = (uid: string, refs: OwnerReference[]): void => {
    for (const o of refs) dependents.get(o.uid)?.delete(uid);
  };

  const enqueueFor = (node: Node): void => {
    if (!synced) return;
    if (owners(node.obj).length > 0) queue.add(`dep:${node.uid}`);
    if (terminating(node.obj) && hasFinalizer(node.obj, orphanFinalizer)) queue.add(`orphan:${node.uid}`);
    if (terminating(node.obj) && hasFinalizer(node.obj, foregroundFinalizer)) queue.add(`fg:${node.uid}`);
    for (const o of owners(node.obj)) {
      const owner = nodes.get(o.uid);
      if (owner !== undefined && terminating(owner.obj)) queue.add(`fg:${o.uid}`);
    }
  };

  /**
   * Whether the graph needs the object: it has owners, carries a finalizer this controller removes, or owns
   * something. Every other object is left out of the graph and the informers' caches, so memory follows the
   * owner references, not the store (a store of 100k plain ConfigMaps holds none of them here).
   */
  const tracked = (obj: KubeObject): boolean =>
    owners(obj).length > 0 ||
    hasFinalizer(obj, orphanFinalizer) ||
    hasFinalizer(obj, foregroundFinalizer) ||
    (dependents.get(obj.metadata?.uid ?? '')?.size ?? 0) > 0;

  const upsert = (ref: ResourceRef, obj: KubeObject): void => {
    const uid = obj.metadata?.uid;
    if (uid === undefined) return;
    const prev = nodes.get(uid);
    if (prev !== undefined) unlink(uid, owners(prev.obj));
    if (!tracked(obj)) {
      nodes.delete(uid);
      return;
    }
    const node: Node = {
      uid,
      obj,
      ref: {
        ...ref,
        name: obj.metadata?.name ?? '',
        ...(obj.metadata?.namespace !== undefined ? { namespace: obj.metadata.namespace } : {}),
      },
    };
    nodes.set(uid, node);
    link(uid, owners(obj));
    // Only what the graph reads moves it, as the real graph builder's update handling: a pod's status write or
    // a node's Lease renewal (owned by its Node) changes neither its owners nor its deletion, and re-reading
    // the owners live on each made a running cluster's every status write cost a GET (the owner of each
    // object is read again when it changes, or when an owner goes).
    if (prev === undefined || graphChanged(prev.obj, obj)) enqueueFor(node);
  };

  const graphChanged = (before: KubeObject, after: KubeObject): boolean =>
    terminating(before) !== terminating(after) ||
    JSON.stringify(owners(before)) !== JSON.stringify(owners(after)) ||
    JSON.stringify(before.metadata?.finalizers ?? []) !== JSON.stringify(after.metadata?.finalizers ?? []);

  const remove = (obj: KubeObject): void => {
    const uid = obj.metadata?.uid;
    if (uid === undefined) return;
    nodes.delete(uid);
    unlink(uid, owners(obj));
    if (!synced) return;
    for (const d of dependents.get(uid) ?? []) queue.add(`dep:${d}`);
    for (const o of owners(obj)) if (nodes.has(o.uid)) queue.add(`fg:${o.uid}`);
  };

  /**
   * An owner left out of the graph (it owned nothing when it was seen) reports no deletion on a relist when it
   * went while the watch was down: after a relist of a kind (not its first list), the dependents whose owner
   * of that kind the graph does not hold are checked again (each check reads the owner live).
   */
  const recheckUnknownOwners = (group: string, kind: string): (() => void) => {
    let listed = false;
    return () => {
      const first = !listed;
      listed = true;
      if (first || !synced) return;
      for (const [owner, deps] of dependents) {
        if (nodes.has(owner)) continue;
        for (const d of deps) {
          const ref = owners(nodes.get(d)?.obj ?? {}).find((o) => o.uid === owner);
          if (ref !== undefined && kindKey(ref.apiVersion, ref.kind) === `${group}/${kind}`)
            queue.add(`dep:${d}`);
        }
      }
    };
  };

  const kindKey = (apiVersion: string, kind: string): string =>
    `${parseApiVersion(apiVersion).group}/${kind}`;

  /** Whether the owner a reference names exists (same name and uid), read live. Unknown kinds count as present. */
  const ownerExists = async (ref: OwnerReference, namespace: string | undefined): Promise<boolean> => {
    const info = kinds.get(kindKey(ref.apiVersion, ref.kind));
    if (info === undefined) return true;
    try {
      const owner = await ctx.client.get({
        ...info.ref,
        ...(info.namespaced && namespace !== undefined ? { namespace } : {}),
        name: ref.name,
      });
      return owner.metadata?.uid === ref.uid;
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return false;
      throw e;
    }
  };

  const del = async (
    node: Node,
    policy: 'Background' | 'Foreground' | 'Orphan',
    resourceVersion?: string,
  ): Promise<void> => {
    try {
      await ctx.client.delete(node.ref, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: policy,
        preconditions: { uid: node.uid, ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
      });
    } catch (e) {
      // Gone, or replaced (its uid differs); a resourceVersion that moved is retried, as `guardedPatch`'s 409.
      if (!(e instanceof ApiError && (e.code === 404 || (e.code === 409 && resourceVersion === undefined))))
        throw e;
    }
  };

  /** Merge-patches the object guarded by its resourceVersion; a 409 means someone moved first and we retry. */
  const guardedPatch = async (
    node: Node,
    metadata: Record<string, unknown>,
    seen: KubeObject = node.obj,
  ): Promise<void> => {
    await ctx.client.patch(
      node.ref,
      { metadata: { resourceVersion: seen.metadata?.resourceVersion, ...metadata } },
      'application/merge-patch+json',
    );
  };

  /** The object as it is now (same uid), read live; undefined when it is gone or was replaced. */
  const readLive = async (node: Node): Promise<KubeObject | undefined> => {
    try {
      const live = await ctx.client.get(node.ref);
      return live.metadata?.uid === node.uid ? live : undefined;
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return undefined;
      throw e;
    }
  };

  const reconcile = async (key: string): Promise<void> => {
    const [what, uid = ''] = key.split(':');
    const node = nodes.get(uid);
    if (node === undefined) return;
    if (what === 'dep') {
      if (owners(node.obj).length === 0 || terminating(node.obj)) return;
      const namespace = node.obj.metadata?.namespace;
      // An owner's absence is final (no other object takes its uid), so one found absent stays absent.
      const absent = new Set<string>();
      for (const ref of owners(node.obj)) if (!(await ownerExists(ref, namespace))) absent.add(ref.uid);
      if (absent.size === 0) return;
      // Before acting, the dependent as it is now rather than as the cache saw it when this check began: an
      // owner deleted with Orphan takes its reference out of its dependents and only then goes, so a check
      // begun before that patch finds the owner gone and would delete a dependent that no longer names it.
      // The delete or patch below is then guarded by this read's resourceVersion: a change made after it
      // (that same patch, landing in between) refuses it with a 409, and the key is checked again.
      const latest = await readLive(node);
      if (latest === undefined || terminating(latest)) return;
      const refs = owners(latest);
      for (const ref of refs)
        if (!absent.has(ref.uid) && !(await ownerExists(ref, namespace))) absent.add(ref.uid);
      const dangling = refs.filter((r) => absent.has(r.uid));
      if (dangling.length === 0) return;
      if (dangling.length === refs.length) {
        const policy = hasFinalizer(latest, orphanFinalizer)
          ? 'Orphan'
          : hasFinalizer(latest, foregroundFinalizer)
            ? 'Foreground'
            : 'Background';
        await del(node, policy, latest.metadata?.resourceVersion);
        return;
      }
      await guardedPatch(node, { ownerReferences: refs.filter((r) => !absent.has(r.uid)) }, latest);
      return;
    }
    if (what === 'orphan') {
      if (!terminating(node.obj) || !hasFinalizer(node.obj, orphanFinalizer)) return;
      for (const d of [...(dependents.get(uid) ?? [])]) {
        const dep = nodes.get(d);
        if (dep === undefined) continue;
        await guardedPatch(dep, { ownerReferences: owners(dep.obj).filter((r) => r.uid !== uid) });
      }
      await guardedPatch(node, {
        finalizers: (node.obj.metadata?.finalizers ?? []).filter((f) => f !== orphanFinalizer),
      });
      return;
    }
    if (what === 'fg') {
      if (!terminating(node.obj) || !hasFinalizer(node.obj, foregroundFinalizer)) return;
      let blocking = 0;
      for (const d of [...(dependents.get(uid) ?? [])]) {
        const dep = nodes.get(d);
        if (dep === undefined) continue;
        const ref = owners(dep.obj).find((r) => r.uid === uid);
        if (ref === undefined) continue;
        if (ref.blockOwnerDeletion === true) blocking++;
        if (!terminating(dep.obj))
          await del(dep, (dependents.get(d)?.size ?? 0) > 0 ? 'Foreground' : 'Background');
      }
      if (blocking === 0)
        await guardedPatch(node, {
          finalizers: (node.obj.metadata?.finalizers ?? []).filter((f) => f !== foregroundFinalizer),
        });
    }
  };

  const queue = new WorkQueue(reconcile);

  const discoverKinds = async (): Promise<void> => {
    const d = await ctx.client.discovery();
    const started: Informer[] = [];
    for (const gv of d.groupVersions) {
      for (const r of gv.resources) {
        if (r.name.includes('/')) continue;
        const info: KindInfo = {
          ref: { group: gv.group, version: gv.version, resource: r.name },
          namespaced: r.namespaced,
        };
        const kk = `${gv.group}/${r.kind}`;
        if (gv.preferred || !kinds.has(kk)) kinds.set(kk, info);
        if (
          !gv.preferred ||
          !r.verbs.includes('list') ||
          !r.verbs.includes('watch') ||
          !r.verbs.includes('delete')
        )
          continue;
        const ik = `${gv.group}/${r.name}`;
        if (informers.has(ik) || stopped) continue;
        const informer = new Informer(
          ctx.client,
          info.ref,
          {
            add: (o) => upsert(info.ref, o),
            update: (_old, o) => upsert(info.ref, o),
            delete: (o) => remove(o),
            relisted: recheckUnknownOwners(gv.group, r.kind),
          },
          // Metadata only, as the real graph builder's metadata informers: the graph reads owner references,
          // finalizers and uids, never a ConfigMap's data.
          { retain: tracked, metadataOnly: ctx.profile.metaGroup },
        );
        informers.set(ik, informer);
        informer.start();
        started.push(informer);
      }
    }
    await Promise.all(started.map((i) => i.synced));
    if (!synced) {
      synced = true;
      for (const node of nodes.values()) enqueueFor(node);
    } else {
      for (const i of started)
        for (const o of i.cache.values()) {
          const n = o.metadata?.uid !== undefined ? nodes.get(o.metadata.uid) : undefined;
          if (n !== undefined) enqueueFor(n);
        }
    }
  };

  let roundDone: () => void = () => undefined;
  const firstRound = new Promise<void>((resolve) => (roundDone = resolve));
  const loop = async (): Promise<void> => {
    if (stopped) return;
    try {
      await discoverKinds();
    } catch {
      // discovery failed this round; the next round retries
    }
    roundDone();
    if (!stopped) rediscoverTimer = setTimeout(() => void loop(), rediscoverEveryMs);
  };

  return {
    name: 'garbage-collector',
    start: () => void loop(),
    stop: () => {
      stopped = true;
      roundDone();
      if (rediscoverTimer !== undefined) clearTimeout(rediscoverTimer);
      for (const i of informers.values()) i.stop();
      queue.stop();
    },
    // Idle once the first discovery's informers have listed and what they queued is done.
    idle: async () => {
      await firstRound;
      await queue.idle();
    },
  };
}
