/** `kubectl create serviceaccount NAME`. */

import { generator, meta, typedPath } from './generator';

export const createServiceAccount = generator({
  name: 'serviceaccount',
  aliases: ['sa'],
  short: 'Create a service account with the specified name',
  flags: [],
  async build(_ctx, name, namespace, enforce) {
    return {
      object: {
        kind: 'ServiceAccount',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined),
      },
      path: typedPath('', 'v1', 'serviceaccounts', namespace),
    };
  },
});
