/** Secret: the keys of `data` and `stringData` must be valid config keys, each used once, and the data at most 1 MiB. */

import type { KubeObject } from '../../../../api/meta';
import { validateConfigKeys } from '../../../validation/config-keys';
import { validateSecretSize } from '../../../validation/size-limits';
import { validateImmutableData, validateSecretTypeUnchanged } from '../../../validation/immutable-data';
import type { KindRegistration } from '../../types';

const validate = (obj: KubeObject) => [
  ...validateConfigKeys(obj, ['data', 'stringData']),
  ...validateSecretSize(obj),
];

export const secret: KindRegistration = {
  hooks: {
    validate,
    validateUpdate: (obj, old) => [
      ...validate(obj),
      ...validateSecretTypeUnchanged(obj, old),
      ...validateImmutableData(obj, old, ['data']),
    ],
  },
};
