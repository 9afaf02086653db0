/**
 * AlwaysPullImages: forces `imagePullPolicy: Always` on every container of a
 * new pod, and of an updated pod whose update brings an image the old pod
 * did not use (so a node's cached image cannot be run by someone without
 * pull credentials). Its validating half refuses a pod a later mutation
 * left with another policy, with the real aggregate of one Forbidden per
 * container — no API status as a whole, so a 500, which is what a mutating
 * webhook that resets the policy meets on the real server too.
 */

import type { KubeObject } from '../../api/meta';
import type { StatusError } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { admissionForbidden, aggregateMessage, plainError } from './support/errors';
import { clonePod, isNotPod, podSpecOf, visitContainers } from './support/pod-shape';

/** An update whose every image the old pod already used is left alone. */
function isUpdateWithNoNewImages(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE') return false;
  const oldImages = new Set<string>();
  visitContainers(podSpecOf(a.oldObject), (c) => {
    oldImages.add(c.image ?? '');
    return true;
  });
  let hasNew = false;
  visitContainers(podSpecOf(a.object), (c) => {
    if (!oldImages.has(c.image ?? '')) hasNew = true;
    return !hasNew;
  });
  return !hasNew;
}

const shouldIgnore = (a: AdmissionAttributes) =>
  isNotPod(a) || a.object === undefined || isUpdateWithNoNewImages(a);

export const alwaysPullImages: AdmissionPluginFactory = () => ({
  name: 'AlwaysPullImages',
  operations: ['CREATE', 'UPDATE'],
  admit(a): Promise<KubeObject | undefined> {
    if (shouldIgnore(a) || a.object === undefined) return Promise.resolve(undefined);
    const pod = clonePod(a.object);
    let changed = false;
    visitContainers(pod.spec, (c) => {
      if (c.imagePullPolicy !== 'Always') {
        c.imagePullPolicy = 'Always';
        changed = true;
      }
      return true;
    });
    return Promise.resolve(changed ? pod : undefined);
  },
  validate(a): Promise<void> {
    if (shouldIgnore(a)) return Promise.resolve();
    const errors: StatusError[] = [];
    visitContainers(podSpecOf(a.object), (c, path) => {
      if (c.imagePullPolicy !== 'Always') {
        errors.push(
          admissionForbidden(
            a,
            `${path}.imagePullPolicy: Unsupported value: "${c.imagePullPolicy ?? ''}": supported values: "Always"`,
          ),
        );
      }
      return true;
    });
    if (errors.length === 0) return Promise.resolve();
    // The real plugin returns an aggregate of one Forbidden per container, which is no API status: a 500.
    return Promise.reject(plainError(aggregateMessage(errors.map((e) => e.message))));
  },
});
