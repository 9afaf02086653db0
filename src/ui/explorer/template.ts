/**
 * Starting points for new objects: a ConfigMap (the simplest object to play
 * with) or the bare envelope of the chosen kind. No YAML library needed, so
 * the explorer's first screen stays small.
 */

import type { ResourceChoice } from '../lib/resource-choice';

/** A starting point for the chosen kind, in `namespace` when the kind is namespaced. */
export function templateFor(choice: ResourceChoice | undefined, namespace: string): string {
  const ns = namespace === '*' ? 'default' : namespace;
  if (choice === undefined || (choice.group === '' && choice.resource.name === 'configmaps')) {
    return [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: example',
      `  namespace: ${ns}`,
      'data:',
      '  greeting: hello',
      '',
    ].join('\n');
  }
  const lines = [
    `apiVersion: ${choice.groupVersion}`,
    `kind: ${choice.resource.kind}`,
    'metadata:',
    '  name: example',
  ];
  if (choice.resource.namespaced) lines.push(`  namespace: ${ns}`);
  return `${lines.join('\n')}\n`;
}
