import { describe, expect, it } from 'vitest';
import { configurationFor } from './wire';

const options = {
  kind: 'validating' as const,
  group: '',
  version: 'v1',
  resource: 'pods',
  operations: ['CREATE'],
  failurePolicy: 'Fail' as const,
  timeoutSeconds: 5,
};

describe('configurationFor', () => {
  it('points at the reserved URL of a backend without a service', () => {
    const c = configurationFor(
      { name: 'deny', kind: 'rules', rules: [] },
      options,
      'admissionregistration.orch.io',
    );
    expect(c).toMatchObject({
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'backend-deny' },
      webhooks: [
        {
          name: 'deny.webhooks.sandbox.invalid',
          clientConfig: { url: 'https://deny.webhooks.sandbox.invalid/' },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        },
      ],
    });
  });

  it('uses the service a backend declares', () => {
    const c = configurationFor(
      { name: 'm', namespace: 'hooks', kind: 'rules', rules: [] },
      { ...options, kind: 'mutating' },
      'admissionregistration.k8s.io',
    );
    expect(c.kind).toBe('MutatingWebhookConfiguration');
    expect((c.webhooks as { clientConfig: unknown }[])[0]?.clientConfig).toEqual({
      service: { name: 'm', namespace: 'hooks' },
    });
  });
});
