/**
 * The `kubectl.kubernetes.io/last-applied-configuration` annotation:
 * the object as applied, serialised (without the annotation itself, with
 * `annotations: {}` left behind when it was the only one) as kubectl's
 * unstructured JSON encoder writes it — sorted keys, compact, a final
 * newline.
 */

import type { KubeObject } from '../../../api/meta';
import { goJson } from '../../printers/json';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** The serialised configuration kubectl stores for `object`. */
export function modifiedConfiguration(object: KubeObject): string {
  const annotations = { ...(object.metadata?.annotations ?? {}) };
  delete annotations[lastAppliedAnnotation];
  const copy: KubeObject = { ...object, metadata: { ...object.metadata, annotations } };
  return goJson(copy) + '\n';
}

/** Sets the annotation on `object` (in place) and returns the serialised configuration. */
export function setLastApplied(object: KubeObject): string {
  const config = modifiedConfiguration(object);
  object.metadata = {
    ...object.metadata,
    annotations: { ...(object.metadata?.annotations ?? {}), [lastAppliedAnnotation]: config },
  };
  return config;
}
