/**
 * ConfigMap: the keys of `data` and `binaryData` must be valid config keys, each used once, and all data at
 * most 1 MiB. The checks pass over every key, so a wide ConfigMap (100,000 keys) is checked in slices that let
 * other requests run (machinery/cooperative.ts): they are the kind's asynchronous validation, which keeps their
 * place after the generic checks.
 */

import type { KubeObject } from '../../../../api/meta';
import { runNow, runSliced, type Work } from '../../../../machinery/cooperative';
import type { FieldError } from '../../../../machinery/field-errors';
import { jsonSizeAtMost, slicedAbove } from '../../../../machinery/json';
import { configKeysWork } from '../../../validation/config-keys';
import { configMapSizeWork } from '../../../validation/size-limits';
import { validateImmutableData } from '../../../validation/immutable-data';
import type { KindRegistration } from '../../types';

function* checks(obj: KubeObject, old: KubeObject | undefined): Work<FieldError[]> {
  return [
    ...(yield* configKeysWork(obj, ['data', 'binaryData'])),
    ...(yield* configMapSizeWork(obj)),
    ...(old !== undefined ? validateImmutableData(obj, old, ['data', 'binaryData']) : []),
  ];
}

export const configMap: KindRegistration = {
  hooks: {
    validateAsync: (obj, old) =>
      jsonSizeAtMost(obj, slicedAbove)
        ? Promise.resolve(runNow(checks(obj, old)))
        : runSliced(checks(obj, old)),
  },
};
