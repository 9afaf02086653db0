/** `kubectl create configmap NAME [--from-literal] [--from-file] [--from-env-file]`. */

import { generator, meta, sortedMap, typedPath } from './generator';
import { readSourcesData, sourceFlags } from './sources';

export const createConfigMap = generator({
  name: 'configmap',
  aliases: ['cm'],
  short: 'Create a config map from a local file, directory or literal value',
  flags: sourceFlags,
  async build(ctx, name, namespace, enforce) {
    const data = await readSourcesData(ctx, `ConfigMap "${name}"`);
    return {
      object: {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined),
        ...(data.size > 0 ? { data: sortedMap([...data]) } : {}),
      },
      path: typedPath('', 'v1', 'configmaps', namespace),
    };
  },
});
