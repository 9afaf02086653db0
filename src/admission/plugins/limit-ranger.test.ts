/** LimitRanger as a plugin: what it looks at, the copy it returns, and the profile's annotation name. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { StatusError } from '../../machinery/errors';
import { PROFILES } from '../../machinery/naming';
import type { AdmissionAttributes } from '../types';
import { limitRanger } from './limit-ranger';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const range: KubeObject = {
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'r', namespace: 'ns' },
  spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' }, min: { cpu: '50m' } }] },
};

function plugin(profile: keyof typeof PROFILES) {
  return limitRanger(
    fakeDeps({ profile: PROFILES[profile], objects: { '/limitranges': [Object.freeze(range)] } }),
  );
}

function write(operation: 'CREATE' | 'UPDATE', object: KubeObject, extra: Partial<AdmissionAttributes> = {}) {
  return podAttributes(object, {
    operation,
    namespace: 'ns',
    name: 'p',
    user: { username: 'u', groups: [] },
    ...extra,
  });
}

const pod = (resources?: unknown): KubeObject =>
  Object.freeze({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'app', image: 'x', ...(resources !== undefined ? { resources } : {}) }] },
  });

describe('LimitRanger plugin', () => {
  it('returns a defaulted copy annotated under the profile domain, leaving the original alone', async () => {
    const original = pod();
    const out = await plugin('kubernetes').admit?.(write('CREATE', original));
    expect(out?.metadata?.annotations).toEqual({
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container app',
    });
    expect(original.metadata?.annotations).toBeUndefined();
  });

  it('looks at neither pod updates, subresources nor other namespaces', async () => {
    const p = plugin('orch');
    expect(await p.admit?.(write('UPDATE', pod()))).toBeUndefined();
    expect(await p.admit?.(write('CREATE', pod(), { subresource: 'status' }))).toBeUndefined();
    expect(await p.admit?.(write('CREATE', pod(), { namespace: 'other' }))).toBeUndefined();
    await expect(p.validate?.(write('UPDATE', pod({ requests: { cpu: '1m' } })))).resolves.toBeUndefined();
  });

  it('refuses with 403 naming the pod', async () => {
    const err = await plugin('orch')
      .validate?.(write('CREATE', pod({ requests: { cpu: '10m' } })))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "p" is forbidden: minimum cpu usage per Container is 50m, but request is 10m',
    });
  });
});
