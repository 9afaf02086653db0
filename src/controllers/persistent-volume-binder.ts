/**
 * The PersistentVolume binder, with a simulated provisioner: a pending
 * claim binds the smallest Available volume that fits it (same class,
 * access modes it covers, enough capacity, the same volume mode, labels
 * its selector matches) — both sides marked `bound-by-controller`, the
 * claim `bind-completed`, both phases Bound. A claim no volume fits, whose
 * class names a provisioner, gets a volume made for it (`pvc-<claim uid>`,
 * its size and modes, the class's reclaim policy, a host path standing for
 * the storage): the sandbox has no storage plugins, so every provisioner
 * is simulated here (`kubernetes.io/no-provisioner` excepted). A class
 * that binds `WaitForFirstConsumer` waits until a pod using the claim is
 * scheduled. When a bound claim is deleted its volume is Released, and
 * deleted if its reclaim policy says Delete.
 */

import type { KubeObject } from '../api/meta';
import { isNotFound } from './api-errors';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { podsRef } from './workload/pod-control';
import { labelSelectorMatcher } from './workload/selectors';
import { quantityValue } from '../machinery/quantity';
import type { LabelSelector, Pod } from './workload/types';

const claimsRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims' } as const;
const volumesRef = { group: '', version: 'v1', resource: 'persistentvolumes' } as const;
const claimKind: InvolvedKind = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' };

interface Claim extends KubeObject {
  spec?: {
    accessModes?: string[];
    resources?: { requests?: { storage?: string } };
    storageClassName?: string | null;
    volumeName?: string;
    volumeMode?: string;
    selector?: LabelSelector;
  };
  status?: { phase?: string; accessModes?: string[]; capacity?: Record<string, string> };
}

interface Volume extends KubeObject {
  spec?: {
    capacity?: { storage?: string };
    accessModes?: string[];
    storageClassName?: string;
    volumeMode?: string;
    persistentVolumeReclaimPolicy?: string;
    claimRef?: {
      kind?: string;
      apiVersion?: string;
      namespace?: string;
      name?: string;
      uid?: string;
      resourceVersion?: string;
    };
    [field: string]: unknown;
  };
  status?: { phase?: string };
}

interface StorageClass extends KubeObject {
  provisioner?: string;
  reclaimPolicy?: string;
  volumeBindingMode?: string;
}

const bytes = (q: string | undefined): number => quantityValue(q);

export function persistentVolumeBinder(ctx: ControllerContext, informers: SharedInformers): Controller {
  const classesRef = { group: ctx.profile.suffixed('storage'), version: 'v1', resource: 'storageclasses' };
  const claims = informers.informer(claimsRef);
  const volumes = informers.informer(volumesRef);
  const classes = informers.informer(classesRef);
  const pods = informers.informer(podsRef);
  const recorder = eventRecorder(ctx.client, 'persistentvolume-controller', ctx.now);
  const pv = (name: string) => ctx.profile.subPrefixed('pv', name);
  const boundByController = pv('bound-by-controller');
  const bindCompleted = pv('bind-completed');
  const provisionedBy = pv('provisioned-by');
  const selectedNode = ctx.profile.subPrefixed('volume', 'selected-node');

  const classOf = (claim: Claim): string => claim.spec?.storageClassName ?? '';

  const fits = (claim: Claim, volume: Volume): boolean => {
    const ref = volume.spec?.claimRef;
    if (
      ref !== undefined &&
      (ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace)
    )
      return false;
    if (ref?.uid !== undefined && ref.uid !== '' && ref.uid !== claim.metadata?.uid) return false;
    if (ref === undefined && volume.status?.phase !== 'Available') return false;
    if ((volume.spec?.storageClassName ?? '') !== classOf(claim)) return false;
    if ((volume.spec?.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem')) return false;
    const modes = volume.spec?.accessModes ?? [];
    if (!(claim.spec?.accessModes ?? []).every((m) => modes.includes(m))) return false;
    if (bytes(volume.spec?.capacity?.storage) < bytes(claim.spec?.resources?.requests?.storage)) return false;
    const match = labelSelectorMatcher(claim.spec?.selector ?? undefined);
    return (
      claim.spec?.selector === undefined || (!(match instanceof Error) && match(volume.metadata?.labels))
    );
  };

  /** Whether a pod using the claim has been scheduled (WaitForFirstConsumer). */
  const consumerScheduled = (claim: Claim): boolean =>
    claim.metadata?.annotations?.[selectedNode] !== undefined ||
    (pods.inNamespace(claim.metadata?.namespace ?? '') as Pod[]).some(
      (p) =>
        (p.spec?.nodeName ?? '') !== '' &&
        (p.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata?.name),
    );

  const bind = async (claim: Claim, volume: Volume): Promise<void> => {
    const m = claim.metadata ?? {};
    const boundVolume = await ctx.client.update<Volume>(
      { ...volumesRef, name: volume.metadata?.name ?? '' },
      {
        ...volume,
        metadata: {
          ...volume.metadata,
          annotations: { ...volume.metadata?.annotations, [boundByController]: 'yes' },
        },
        spec: {
          ...volume.spec,
          claimRef: {
            kind: 'PersistentVolumeClaim',
            namespace: m.namespace,
            name: m.name,
            uid: m.uid,
            apiVersion: 'v1',
            resourceVersion: m.resourceVersion,
          },
        },
      },
    );
    await ctx.client.update(
      { ...volumesRef, name: volume.metadata?.name ?? '', subresource: 'status' },
      { ...boundVolume, status: { phase: 'Bound' } },
    );
    const boundClaim = await ctx.client.update<Claim>(
      { ...claimsRef, namespace: m.namespace ?? '', name: m.name ?? '' },
      {
        ...claim,
        metadata: {
          ...m,
          annotations: { ...m.annotations, [bindCompleted]: 'yes', [boundByController]: 'yes' },
        },
        spec: { ...claim.spec, volumeName: volume.metadata?.name ?? '' },
      },
    );
    await ctx.client.update(
      { ...claimsRef, namespace: m.namespace ?? '', name: m.name ?? '', subresource: 'status' },
      {
        ...boundClaim,
        status: {
          phase: 'Bound',
          accessModes: volume.spec?.accessModes ?? [],
          capacity: { storage: volume.spec?.capacity?.storage ?? '0' },
        },
      },
    );
  };

  const provision = async (claim: Claim, sc: StorageClass): Promise<void> => {
    const m = claim.metadata ?? {};
    const name = `pvc-${m.uid ?? ''}`;
    const volume: Volume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, annotations: { [provisionedBy]: sc.provisioner ?? '' } },
      spec: {
        capacity: { storage: claim.spec?.resources?.requests?.storage ?? '1Gi' },
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata?.name ?? '',
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        hostPath: { path: `/var/lib/${ctx.profile.word}-sandbox/volumes/${name}`, type: '' },
        claimRef: {
          kind: 'PersistentVolumeClaim',
          namespace: m.namespace,
          name: m.name,
          uid: m.uid,
          apiVersion: 'v1',
        },
      },
    };
    try {
      await ctx.client.create(volumesRef, volume);
    } catch (e) {
      recorder.event(
        claimKind,
        claim,
        'Warning',
        'ProvisioningFailed',
        `failed to provision volume with StorageClass "${sc.metadata?.name ?? ''}": ${e instanceof Error ? e.message : String(e)}`,
      );
      throw e;
    }
    recorder.event(
      claimKind,
      claim,
      'Normal',
      'ProvisioningSucceeded',
      `Successfully provisioned volume ${name}`,
    );
  };

  const syncClaim = async (claim: Claim): Promise<void> => {
    if (claim.metadata?.deletionTimestamp) return;
    if (claim.status?.phase === 'Bound' && claim.spec?.volumeName) return;
    const volumeName = claim.spec?.volumeName ?? '';
    if (volumeName !== '') {
      // Pre-bound to a volume: bind when it exists and fits.
      const volume = volumes.get(undefined, volumeName) as Volume | undefined;
      if (volume !== undefined && fits(claim, volume)) await bind(claim, volume);
      return;
    }
    let className = claim.spec?.storageClassName;
    if (className === undefined || className === null) {
      // The DefaultStorageClass admission plugin names the class at creation; a claim without one has none.
      className = '';
    }
    const sc = classes.get(undefined, className) as StorageClass | undefined;
    if (sc?.volumeBindingMode === 'WaitForFirstConsumer' && !consumerScheduled(claim)) {
      recorder.event(
        claimKind,
        claim,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
      );
      return;
    }
    const candidates = (volumes.list() as Volume[])
      .filter((v) => fits(claim, v))
      .sort((a, b) => bytes(a.spec?.capacity?.storage) - bytes(b.spec?.capacity?.storage));
    const prebound = candidates.find((v) => v.spec?.claimRef !== undefined);
    const chosen = prebound ?? candidates[0];
    if (chosen !== undefined) return bind(claim, chosen);
    if (className === '') {
      recorder.event(
        claimKind,
        claim,
        'Normal',
        'FailedBinding',
        'no persistent volumes available for this claim and no storage class is set',
      );
      return;
    }
    if (sc === undefined) {
      recorder.event(
        claimKind,
        claim,
        'Warning',
        'ProvisioningFailed',
        `storageclass.storage.k8s.io "${className}" not found`,
      );
      return;
    }
    if (sc.provisioner === 'kubernetes.io/no-provisioner') {
      recorder.event(
        claimKind,
        claim,
        'Normal',
        'FailedBinding',
        'no persistent volumes available for this claim and no storage class is set',
      );
      return;
    }
    await provision(claim, sc);
  };

  const syncVolume = async (volume: Volume): Promise<void> => {
    const ref = volume.spec?.claimRef;
    const name = volume.metadata?.name ?? '';
    if (ref === undefined) {
      if (volume.status?.phase !== 'Available' && !volume.metadata?.deletionTimestamp)
        await ctx.client.update(
          { ...volumesRef, name, subresource: 'status' },
          { ...volume, status: { phase: 'Available' } },
        );
      return;
    }
    const claim = claims.get(ref.namespace ?? '', ref.name ?? '') as Claim | undefined;
    const gone = claim === undefined || (ref.uid !== undefined && claim.metadata?.uid !== ref.uid);
    if (!gone) {
      if (claim.spec?.volumeName !== name) queue.add(`claim:${objectKey(claim)}`);
      return;
    }
    // A volume made for a claim not yet seen by the cache (just provisioned): the claim's read decides.
    try {
      const live = await ctx.client.get<Claim>({
        ...claimsRef,
        namespace: ref.namespace ?? '',
        name: ref.name ?? '',
      });
      if (live.metadata?.uid === ref.uid) return;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    // Released first (the pv-protection finalizer holds a Bound volume), then deleted if its policy says so.
    if (volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed')
      await ctx.client.update(
        { ...volumesRef, name, subresource: 'status' },
        { ...volume, status: { phase: 'Released' } },
      );
    if (
      (volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain') === 'Delete' &&
      !volume.metadata?.deletionTimestamp
    ) {
      try {
        await ctx.client.delete({ ...volumesRef, name });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  };

  const reconcile = async (key: string): Promise<void> => {
    await Promise.all([claims.synced, volumes.synced, classes.synced, pods.synced]);
    const [what, rest = ''] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    if (what === 'claim') {
      const [namespace = '', name = ''] = rest.split('/');
      const claim = claims.get(namespace, name) as Claim | undefined;
      if (claim !== undefined) await syncClaim(claim);
      return;
    }
    const volume = volumes.get(undefined, rest) as Volume | undefined;
    if (volume !== undefined) await syncVolume(volume);
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });

  const claimKey = (c: KubeObject) => `claim:${objectKey(c)}`;
  const volumeKey = (v: KubeObject) => `volume:${v.metadata?.name ?? ''}`;
  claims.addHandlers({
    add: (c) => queue.add(claimKey(c)),
    update: (_old, c) => queue.add(claimKey(c)),
    delete: (c) => {
      const name = (c as Claim).spec?.volumeName;
      if (name !== undefined && name !== '') queue.add(`volume:${name}`);
    },
  });
  volumes.addHandlers({
    add: (v) => {
      queue.add(volumeKey(v));
      // A new volume may fit a pending claim.
      for (const c of claims.list()) if ((c as Claim).status?.phase === 'Pending') queue.add(claimKey(c));
    },
    update: (_old, v) => queue.add(volumeKey(v)),
  });
  pods.addHandlers({
    // A scheduled pod releases the claims waiting for their first consumer.
    update: (old, p) => {
      if (((old as Pod).spec?.nodeName ?? '') !== '' || ((p as Pod).spec?.nodeName ?? '') === '') return;
      for (const v of (p as Pod).spec?.volumes ?? [])
        if (v.persistentVolumeClaim !== undefined)
          queue.add(`claim:${p.metadata?.namespace ?? ''}/${v.persistentVolumeClaim.claimName}`);
    },
  });

  return {
    name: 'persistentvolume-binder',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}
