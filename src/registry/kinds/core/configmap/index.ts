/** ConfigMap: the keys of `data` and `binaryData` must be valid config keys, each used once, and all data at most 1 MiB. */

import type { KubeObject } from '../../../../api/meta';
import { validateConfigKeys } from '../../../validation/config-keys';
import { validateConfigMapSize } from '../../../validation/size-limits';
import { validateImmutableData } from '../../../validation/immutable-data';
import type { KindRegistration } from '../../types';

const validate = (obj: KubeObject) => [
  ...validateConfigKeys(obj, ['data', 'binaryData']),
  ...validateConfigMapSize(obj),
];

export const configMap: KindRegistration = {
  hooks: {
    validate,
    validateUpdate: (obj, old) => [
      ...validate(obj),
      ...validateImmutableData(obj, old, ['data', 'binaryData']),
    ],
  },
};
