/** Priority against fixed PriorityClasses: the global default, named classes, the default-uniqueness check. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { StatusError } from '../../machinery/errors';
import { priority } from './priority';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'scheduling.orch.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});
const pod = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});

const classes = [
  pc('low-default', 10, { globalDefault: true, preemptionPolicy: 'Never' }),
  pc('high-default', 20, { globalDefault: true }),
  pc('gold', 1000, { preemptionPolicy: 'PreemptLowerPriority' }),
];
const plugin = priority(fakeDeps({ objects: { 'scheduling.orch.io/priorityclasses': classes } }));
const admit = (p: KubeObject) => plugin.admit?.(podAttributes(p));

describe('Priority admit', () => {
  it('uses the lowest global default for a pod without a class', async () => {
    const out = (await admit(pod())) as { spec: Record<string, unknown> };
    expect(out.spec).toMatchObject({
      priorityClassName: 'low-default',
      priority: 10,
      preemptionPolicy: 'Never',
    });
  });
  it('resolves a named class', async () => {
    const out = (await admit(pod({ priorityClassName: 'gold' }))) as { spec: Record<string, unknown> };
    expect(out.spec).toMatchObject({ priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
  });
  it('accepts a stated priority that matches and refuses one that does not', async () => {
    await expect(admit(pod({ priorityClassName: 'gold', priority: 1000 }))).resolves.toBeDefined();
    await expect(admit(pod({ priorityClassName: 'gold', priority: 1 }))).rejects.toThrow(
      'pods "p" is forbidden: the integer value of priority (1) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    );
  });
  it('a stored class shadows the built-in system value', async () => {
    const shadow = priority(
      fakeDeps({ objects: { 'scheduling.orch.io/priorityclasses': [pc('system-node-critical', 7)] } }),
    );
    const out = (await shadow.admit?.(podAttributes(pod({ priorityClassName: 'system-node-critical' })))) as {
      spec: Record<string, unknown>;
    };
    expect(out.spec.priority).toBe(7);
  });
  it('ignores subresources and other resources', async () => {
    expect(
      await plugin.admit?.(podAttributes(pod({ priorityClassName: 'nope' }), { subresource: 'status' })),
    ).toBeUndefined();
  });
});

describe('Priority validate (PriorityClass)', () => {
  const attrs = (object: KubeObject, operation: 'CREATE' | 'UPDATE') =>
    podAttributes(object, {
      operation,
      group: 'scheduling.orch.io',
      kind: 'PriorityClass',
      resource: 'priorityclasses',
      namespace: '',
    });
  it('refuses a second global default and admits re-saving the existing one', async () => {
    const err = await plugin
      .validate?.(attrs(pc('another', 5, { globalDefault: true }), 'CREATE'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status.message).toBe(
      'priorityclasses.scheduling.orch.io "another" is forbidden: PriorityClass low-default is already marked as default. Only one default can exist',
    );
    await expect(
      plugin.validate?.(attrs(pc('low-default', 10, { globalDefault: true }), 'UPDATE')),
    ).resolves.toBeUndefined();
    await expect(plugin.validate?.(attrs(pc('plain', 1), 'CREATE'))).resolves.toBeUndefined();
  });
});
