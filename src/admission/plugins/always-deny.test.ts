/**
 * AlwaysDeny and AlwaysAdmit on their own (a host with AlwaysDeny cannot
 * start: its own bootstrap writes go through admission and are refused).
 */

import { describe, expect, it } from 'vitest';
import { alwaysAdmit } from './always-admit';
import { alwaysDeny } from './always-deny';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
const attrs = podAttributes(configMap, { kind: 'ConfigMap', resource: 'configmaps' });

describe('AlwaysDeny', () => {
  const plugin = alwaysDeny(fakeDeps());
  it.each(['admit', 'validate'] as const)('%s refuses with the real 403', async (half) => {
    await expect(plugin[half]?.(attrs)).rejects.toMatchObject({
      status: {
        code: 403,
        reason: 'Forbidden',
        message: 'configmaps "c" is forbidden: admission control is denying all modifications',
      },
    });
  });
  it('names a nameless delete Unknown', async () => {
    await expect(
      plugin.validate?.({ ...attrs, operation: 'DELETE', name: '', object: undefined }),
    ).rejects.toThrow('configmaps "Unknown" is forbidden');
  });
});

describe('AlwaysAdmit', () => {
  it('admits without change', async () => {
    const plugin = alwaysAdmit(fakeDeps());
    await expect(plugin.admit?.(attrs)).resolves.toBeUndefined();
    await expect(plugin.validate?.(attrs)).resolves.toBeUndefined();
  });
});
