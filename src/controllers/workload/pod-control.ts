/**
 * Creating and deleting a controller's pods, as the real `PodControl`: a
 * pod is its template's labels, annotations, finalizers and spec, named
 * after the controller (`<name>-` and a random suffix, unless the
 * controller names it), controlled by it; every create and delete is
 * recorded as an Event on the controller (`SuccessfulCreate`,
 * `FailedCreate`, `SuccessfulDelete`, `FailedDelete`), except failures
 * because the namespace is being deleted.
 */

import type { KubeObject, OwnerReference } from '../../api/meta';
import type { ApiClient } from '../../client/client';
import { deepClone } from '../../machinery/json';
import { isNamespaceTerminating, isNotFound } from '../api-errors';
import type { EventRecorder, InvolvedKind } from '../events';
import type { Pod, PodTemplateSpec } from './types';

export const podsRef = { group: '', version: 'v1', resource: 'pods' } as const;

/** `<name>-`, the real controllers' generateName prefix. */
export function podsPrefix(ownerName: string): string {
  return `${ownerName}-`;
}

export function podFromTemplate(
  template: PodTemplateSpec | undefined,
  owner: KubeObject,
  controllerRef: OwnerReference | undefined,
): Pod {
  const meta = template?.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(meta.labels !== undefined ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations !== undefined ? { annotations: { ...meta.annotations } } : {}),
      generateName: podsPrefix(owner.metadata?.name ?? ''),
      ...(meta.finalizers !== undefined ? { finalizers: [...meta.finalizers] } : {}),
      ...(controllerRef !== undefined ? { ownerReferences: [controllerRef] } : {}),
    },
    spec: deepClone(template?.spec ?? {}),
  };
  return pod;
}

export class PodControl {
  constructor(
    private readonly client: ApiClient,
    private readonly recorder: EventRecorder,
  ) {}

  /** Creates `pod` in `namespace` for `owner`; throws the API error after recording it. */
  async create(namespace: string, pod: Pod, owner: KubeObject, ownerKind: InvolvedKind): Promise<Pod> {
    if (Object.keys(pod.metadata?.labels ?? {}).length === 0)
      throw new Error('unable to create pods, no labels');
    try {
      const created = await this.client.create<Pod>({ ...podsRef, namespace }, pod);
      this.recorder.event(
        ownerKind,
        owner,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${created.metadata?.name ?? ''}`,
      );
      return created;
    } catch (e) {
      if (!isNamespaceTerminating(e))
        this.recorder.event(ownerKind, owner, 'Warning', 'FailedCreate', `Error creating: ${message(e)}`);
      throw e;
    }
  }

  /** Deletes a pod of `owner` (a pod already gone is not an error). */
  async delete(pod: Pod, owner: KubeObject, ownerKind: InvolvedKind): Promise<void> {
    const name = pod.metadata?.name ?? '';
    try {
      await this.client.delete(
        { ...podsRef, namespace: pod.metadata?.namespace ?? '', name },
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          ...(pod.metadata?.uid !== undefined ? { preconditions: { uid: pod.metadata.uid } } : {}),
        },
      );
    } catch (e) {
      if (isNotFound(e)) return;
      this.recorder.event(ownerKind, owner, 'Warning', 'FailedDelete', `Error deleting: ${message(e)}`);
      throw e;
    }
    this.recorder.event(ownerKind, owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  }
}

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
