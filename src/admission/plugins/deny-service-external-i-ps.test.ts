/** DenyServiceExternalIPs: new external IPs are refused, kept or removed ones are not. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { denyServiceExternalIPs } from './deny-service-external-i-ps';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const svc = (externalIPs?: string[]): KubeObject => ({
  metadata: { name: 's' },
  spec: { ports: [{ port: 80 }], ...(externalIPs !== undefined ? { externalIPs } : {}) },
});
const plugin = denyServiceExternalIPs(fakeDeps());
const write = (object: KubeObject, old?: KubeObject) =>
  plugin.validate?.(
    podAttributes(object, {
      kind: 'Service',
      resource: 'services',
      operation: old === undefined ? 'CREATE' : 'UPDATE',
      ...(old !== undefined ? { oldObject: old } : {}),
    }),
  );

describe('DenyServiceExternalIPs', () => {
  it.each([
    ['create without IPs', svc(), undefined],
    ['create with an empty list', svc([]), undefined],
    ['update keeping the IPs', svc(['192.0.2.1']), svc(['192.0.2.1', '192.0.2.2'])],
    ['update removing all', svc(), svc(['192.0.2.1'])],
  ])('admits %s', async (_n, object, old) => {
    await expect(write(object, old)).resolves.toBeUndefined();
  });
  it.each([
    ['create with IPs', svc(['192.0.2.1']), undefined],
    ['update adding one', svc(['192.0.2.1', '192.0.2.9']), svc(['192.0.2.1'])],
  ])('refuses %s', async (_n, object, old) => {
    await expect(write(object, old)).rejects.toThrow(
      'services "s" is forbidden: Use of external IPs is denied by admission control',
    );
  });
  it('ignores the status subresource', async () => {
    await expect(
      plugin.validate?.(podAttributes(svc(['192.0.2.1']), { resource: 'services', subresource: 'status' })),
    ).resolves.toBeUndefined();
  });
});
