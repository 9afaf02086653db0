/** The Create template proposes a name the list does not hold yet (issue 29 item 16). */

import { describe, expect, it } from 'vitest';
import { templateFor, withFreeName } from './template';

const among = (names: string[]) => (name: string) => names.includes(name);

describe('withFreeName', () => {
  const configMap = templateFor(undefined, 'default');

  it('keeps `example` while no listed object has it', () => {
    expect(withFreeName(configMap, among(['other']))).toBe(configMap);
  });

  it('proposes the first free example-N, and only renames the object (not a label or a reference)', () => {
    const text = withFreeName(configMap, among(['example', 'example-2']));
    expect(text).toContain('  name: example-3\n  namespace: default');
    expect(text.match(/example/g)).toHaveLength(1);
    const workload = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: example',
      '  namespace: default',
      'spec:',
      '  template:',
      '    metadata:',
      '      labels:',
      '        app: example',
      '',
    ].join('\n');
    expect(withFreeName(workload, among(['example']))).toContain('  name: example-2\n');
    expect(withFreeName(workload, among(['example']))).toContain('app: example\n');
  });

  it('leaves a template without a metadata name alone', () => {
    const review =
      'apiVersion: v1\nkind: SelfSubjectAccessReview\nspec:\n  resourceAttributes:\n    name: example\n';
    expect(withFreeName(review, among(['example']))).toBe(review);
  });
});
