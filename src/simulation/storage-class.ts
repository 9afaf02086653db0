/**
 * The simulated cluster's default StorageClass, as a cluster installer
 * leaves one (kind's `standard`, minikube's): `standard`, annotated the
 * default class so the DefaultStorageClass admission plugin names it in a
 * claim without a class (a StatefulSet's `volumeClaimTemplates`), binding
 * `WaitForFirstConsumer` (the scheduler picks the node, then the claim is
 * provisioned there), reclaim policy Delete. Its provisioner is simulated
 * by the PersistentVolume binder, which makes a volume for each claim
 * (decision 0058). Made when the simulation starts if no class of that
 * name exists; a learner may change or delete it, and it is not put back
 * until the simulation starts again.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import { isAlreadyExists } from '../client/api-errors';
import type { Clock } from '../machinery/clock';
import type { NamingProfile } from '../machinery/naming';

export const defaultStorageClassName = 'standard';
export const simulatedProvisioner = 'sandbox.orch.io/host-path';

export function defaultStorageClass(profile: NamingProfile): KubeObject {
  return {
    apiVersion: `${profile.suffixed('storage')}/v1`,
    kind: 'StorageClass',
    metadata: {
      name: defaultStorageClassName,
      annotations: { [profile.subPrefixed('storageclass', 'is-default-class')]: 'true' },
    },
    provisioner: simulatedProvisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  } as KubeObject;
}

/**
 * Creates the default class unless it exists; tried again a few times (on the server's clock) if the server is
 * not ready yet. `idle` settles once the latest attempt has (so a caller waiting for the cluster's work sees the
 * class, or knows the attempt failed).
 */
export function ensureDefaultStorageClass(
  client: ApiClient,
  profile: NamingProfile,
  clock: Clock,
  attempts = 5,
): { stop(): void; idle(): Promise<void> } {
  let cancel: (() => void) | undefined;
  let stopped = false;
  let latest: Promise<void> = Promise.resolve();
  const attempt = (left: number): void => {
    const ref = { group: profile.suffixed('storage'), version: 'v1', resource: 'storageclasses' };
    latest = client.create(ref, defaultStorageClass(profile)).then(
      () => undefined,
      (e: unknown) => {
        if (isAlreadyExists(e) || stopped || left <= 1) return;
        cancel = clock.setTimer(1000, () => attempt(left - 1));
      },
    );
  };
  attempt(attempts);
  return {
    stop: () => {
      stopped = true;
      cancel?.();
    },
    idle: () => latest,
  };
}
