/**
 * kubectl and PodSecurity in the kubernetes naming profile: the labels are
 * the real `pod-security.kubernetes.io/*`; kubectl prints the plugin's
 * warning as `Warning: would violate PodSecurity ...`, an enforced violation
 * as the server's Forbidden message, and the existing-pod warnings when
 * `kubectl label` tightens the enforce level. Skipped, with the reason
 * printed, when kubectl is not on PATH.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();

const podYaml = (name: string, namespace: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  containers:
  - name: app
    image: nginx
`;

const violations =
  'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe.skipIf(skip !== undefined)('kubectl and PodSecurity (profile kubernetes)', () => {
  let host: TestHost;
  const k = (args: string[], input?: string) => kubectl(host.kubeconfigPath, args, input);
  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(async () => {
    await host.close();
  });

  const cases = [
    {
      name: 'warn: the pod is created and kubectl prints the warning',
      namespace: 'psa-warn',
      labels: { 'pod-security.kubernetes.io/warn': 'restricted' },
      code: 0,
      stdout: 'pod/web created',
      stderr: `Warning: would violate PodSecurity "restricted:latest": ${violations}`,
    },
    {
      name: 'enforce: the pod is refused with the Forbidden message',
      namespace: 'psa-enforce',
      labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
      code: 1,
      stdout: '',
      stderr: `Error from server (Forbidden): error when creating "STDIN": pods "web" is forbidden: violates PodSecurity "restricted:latest": ${violations}`,
    },
  ];

  it.each(cases)('$name', async (c) => {
    // The namespace is made over HTTP (faster); only the step under test runs kubectl.
    const ns = await host.request('POST', '/api/v1/namespaces', {
      body: { metadata: { name: c.namespace, labels: c.labels } },
    });
    expect(ns.status).toBe(201);
    const r = await k(['apply', '-f', '-'], podYaml('web', c.namespace));
    expect(r.code).toBe(c.code);
    expect(r.stdout).toContain(c.stdout);
    expect(r.stderr).toContain(c.stderr);
  });

  it('kubectl label prints the warnings for existing pods', async () => {
    expect(
      (await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'psa-later' } } }))
        .status,
    ).toBe(201);
    const old = await host.request('POST', '/api/v1/namespaces/psa-later/pods', {
      body: { metadata: { name: 'old' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    });
    expect(old.status).toBe(201);
    const r = await k(['label', 'namespace', 'psa-later', 'pod-security.kubernetes.io/enforce=restricted']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('namespace/psa-later labeled');
    expect(r.stderr).toContain(
      'Warning: existing pods in namespace "psa-later" violate the new PodSecurity enforce level "restricted:latest"',
    );
    expect(r.stderr).toContain(
      'Warning: old: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    );
  });
});
