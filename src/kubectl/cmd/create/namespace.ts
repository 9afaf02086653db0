/** `kubectl create namespace NAME`. */

import { generator, meta, typedPath } from './generator';

export const createNamespace = generator({
  name: 'namespace',
  aliases: ['ns'],
  short: 'Create a namespace with the specified name',
  flags: [],
  async build(_ctx, name) {
    return {
      object: { kind: 'Namespace', apiVersion: 'v1', metadata: meta(name, undefined), spec: {}, status: {} },
      path: typedPath('', 'v1', 'namespaces'),
    };
  },
});
