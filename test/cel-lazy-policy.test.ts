/**
 * The CEL library is loaded on first use by the admission of a
 * ValidatingAdmissionPolicy: on a fresh server whose policy and binding are
 * already stored (written to storage directly, as an earlier server left
 * them, so that no validation of theirs loaded the library), the first
 * write the policy applies to loads it and is denied with the policy's real
 * message; writes it does not apply to do not load it. Then a policy created
 * over HTTP denies too. This file must not load the library itself (each
 * test file runs in its own process).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { celLibrary } from '../src/cel/engine';
import { PROFILES } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';

const group = PROFILES.orch.suffixed('admissionregistration');
const apiVersion = `${group}/v1alpha1`;
const API = `/apis/${apiVersion}`;

const policySpec = {
  failurePolicy: 'Fail',
  matchConstraints: {
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    resourceRules: [
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['configmaps'],
        scope: '*',
      },
    ],
  },
  validations: [{ expression: 'size(object.data) <= 1', message: 'at most one key' }],
};

describe('the lazily loaded CEL library, first used by a validating admission policy', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({
      featureGates: { ValidatingAdmissionPolicy: true },
      runtimeConfig: `${apiVersion}=true`,
    });
    const ns = await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'policed' } } });
    expect(ns.status, ns.text).toBe(201);
  });
  afterAll(async () => {
    await host.close();
  });

  const configMap = (name: string, data: Record<string, string>) => ({
    metadata: { name },
    data,
  });

  it('is loaded by the first write a stored policy applies to, which it denies', async () => {
    const meta = (name: string) => ({
      name,
      uid: `uid-${name}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      generation: 1,
    });
    await host.storage.create(`/${group}/validatingadmissionpolicies/one-key`, {
      apiVersion,
      kind: 'ValidatingAdmissionPolicy',
      metadata: meta('one-key'),
      spec: policySpec,
    });
    await host.storage.create(`/${group}/validatingadmissionpolicybindings/one-key-binding`, {
      apiVersion,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: meta('one-key-binding'),
      spec: { policyName: 'one-key', validationActions: ['Deny'] },
    });

    // A write the policy does not apply to evaluates nothing.
    const secret = await host.request('POST', '/api/v1/namespaces/policed/secrets', {
      body: { metadata: { name: 's' }, stringData: { a: '1', b: '2' } },
    });
    expect(secret.status, secret.text).toBe(201);
    expect(celLibrary.loaded).toBe(false);

    const denied = await host.request('POST', '/api/v1/namespaces/policed/configmaps', {
      body: configMap('two', { a: '1', b: '2' }),
    });
    expect(denied.status, denied.text).toBe(422);
    expect(denied.body?.message).toBe(
      `configmaps "two" is forbidden: ValidatingAdmissionPolicy 'one-key' with binding 'one-key-binding' denied request: at most one key`,
    );
    expect(celLibrary.loaded).toBe(true);

    const allowed = await host.request('POST', '/api/v1/namespaces/policed/configmaps', {
      body: configMap('one', { a: '1' }),
    });
    expect(allowed.status, allowed.text).toBe(201);
  });

  it('denies by a policy created over HTTP as well', async () => {
    const created = await host.request('POST', `${API}/validatingadmissionpolicies`, {
      body: {
        apiVersion,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'no-x' },
        spec: { ...policySpec, validations: [{ expression: "!('x' in object.data)" }] },
      },
    });
    expect(created.status, created.text).toBe(201);
    const bound = await host.request('POST', `${API}/validatingadmissionpolicybindings`, {
      body: {
        apiVersion,
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'no-x-binding' },
        spec: { policyName: 'no-x', validationActions: ['Deny'] },
      },
    });
    expect(bound.status, bound.text).toBe(201);
    const denied = await host.request('POST', '/api/v1/namespaces/policed/configmaps', {
      body: configMap('has-x', { x: '1' }),
    });
    expect(denied.status, denied.text).toBe(422);
    expect(denied.body?.message).toBe(
      `configmaps "has-x" is forbidden: ValidatingAdmissionPolicy 'no-x' with binding 'no-x-binding' denied request: failed expression: !('x' in object.data)`,
    );
  });
});
