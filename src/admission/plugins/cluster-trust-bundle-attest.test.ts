/**
 * ClusterTrustBundleAttest against a stub authorizer (the kind is not
 * served, so no HTTP scenario reaches it): inert without the feature gate,
 * bundles without a signer pass, `attest` on the signer or `<domain>/*`
 * admits, anything else is the real 403, and updates touching only owner
 * references or finalizers need no permission.
 */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import type { AuthorizationAttributes, Authorizer } from '../../auth/authorizer';
import { namingProfile } from '../../machinery/naming';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { clusterTrustBundleAttest } from './cluster-trust-bundle-attest';

function plugin(gate: boolean, allowed: string[]) {
  const authorizer: Authorizer = {
    authorize: async (a: AuthorizationAttributes) =>
      Promise.resolve({
        decision:
          a.verb === 'attest' &&
          a.resource === 'signers' &&
          a.apiGroup === 'certificates.orch.io' &&
          allowed.includes(a.name)
            ? 'Allow'
            : 'NoOpinion',
        reason: '',
      }),
    rulesFor: () => Promise.reject(new Error('unused')),
  };
  const deps = { profile: namingProfile('orch'), featureGates: { ClusterTrustBundle: gate }, authorizer };
  return clusterTrustBundleAttest(deps as unknown as AdmissionPluginDeps);
}

const bundle = (signerName: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  metadata: { name: 'example.com:foo:abc', ...extra },
  spec: { signerName, trustBundle: 'PEM' },
});

function attributes(object: KubeObject, oldObject?: KubeObject): AdmissionAttributes {
  return {
    operation: oldObject === undefined ? 'CREATE' : 'UPDATE',
    group: 'certificates.orch.io',
    version: 'v1alpha1',
    kind: 'ClusterTrustBundle',
    resource: 'clustertrustbundles',
    subresource: '',
    namespace: '',
    name: object.metadata?.name ?? '',
    object,
    ...(oldObject !== undefined ? { oldObject } : {}),
    user: { username: 'alice', groups: [] },
    dryRun: false,
  };
}

const denied =
  'clustertrustbundles.certificates.orch.io "example.com:foo:abc" is forbidden: user not permitted to attest for signerName "example.com/foo"';

describe('ClusterTrustBundleAttest', () => {
  const cases: { name: string; gate: boolean; allowed: string[]; a: AdmissionAttributes; error?: string }[] =
    [
      { name: 'gate off: inert', gate: false, allowed: [], a: attributes(bundle('example.com/foo')) },
      { name: 'no signer: passes', gate: true, allowed: [], a: attributes(bundle('')) },
      {
        name: 'attest on the signer',
        gate: true,
        allowed: ['example.com/foo'],
        a: attributes(bundle('example.com/foo')),
      },
      {
        name: 'attest on <domain>/*',
        gate: true,
        allowed: ['example.com/*'],
        a: attributes(bundle('example.com/foo')),
      },
      {
        name: 'attest on another signer: 403',
        gate: true,
        allowed: ['other.com/*'],
        a: attributes(bundle('example.com/foo')),
        error: denied,
      },
      {
        name: 'update of finalizers only: passes without permission',
        gate: true,
        allowed: [],
        a: attributes(bundle('example.com/foo', { finalizers: ['x'] }), bundle('example.com/foo')),
      },
      {
        name: 'update of the bundle: 403 without permission',
        gate: true,
        allowed: [],
        a: attributes(
          { ...bundle('example.com/foo'), spec: { signerName: 'example.com/foo', trustBundle: 'NEW' } },
          bundle('example.com/foo'),
        ),
        error: denied,
      },
    ];
  for (const c of cases)
    it(c.name, async () => {
      const run = plugin(c.gate, c.allowed).validate?.(c.a);
      if (c.error === undefined) await expect(run).resolves.toBeUndefined();
      else
        await expect(run).rejects.toMatchObject({
          status: { code: 403, reason: 'Forbidden', message: c.error },
        });
    });
});
