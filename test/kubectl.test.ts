/**
 * kubectl against the Node host, in both naming profiles, through the
 * kubeconfig the host writes: namespaces, configmaps, YAML output,
 * deletion (including a namespace, which waits for the namespace
 * controller), api-resources under the profile's group names, and
 * `kubectl get -w` seeing changes as they happen. Skipped, with the reason
 * printed, when kubectl is not on PATH.
 */

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlPath, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();

for (const profile of ['orch', 'kubernetes'] as const) {
  const suffix = profile === 'orch' ? 'orch.io' : 'k8s.io';
  const system = profile === 'orch' ? 'orch-system' : 'kube-system';
  const pub = profile === 'orch' ? 'orch-public' : 'kube-public';
  const lease = profile === 'orch' ? 'orch-node-lease' : 'kube-node-lease';

  describe.skipIf(skip !== undefined)(`kubectl (profile ${profile})`, () => {
    let host: TestHost;
    const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);
    beforeAll(async () => {
      host = await startTestHost({ profile });
    });
    afterAll(async () => {
      await host.close();
    });

    it('get ns lists the initial namespaces', async () => {
      const r = await k('get', 'ns', '-o', 'name');
      expect(r.stderr).toBe('');
      expect(r.stdout.trim().split('\n').sort()).toEqual(
        ['namespace/default', `namespace/${pub}`, `namespace/${system}`, `namespace/${lease}`].sort(),
      );
    });

    it('create ns, create configmap, get -o yaml, delete', async () => {
      expect((await k('create', 'ns', 'demo')).stdout).toContain('namespace/demo created');
      expect(
        (await k('-n', 'demo', 'create', 'configmap', 'settings', '--from-literal=color=blue')).stdout,
      ).toContain('configmap/settings created');
      const yaml = await k('-n', 'demo', 'get', 'cm', 'settings', '-o', 'yaml');
      expect(yaml.stdout).toMatch(/^apiVersion: v1\n/);
      expect(yaml.stdout).toContain('color: blue');
      expect(yaml.stdout).toContain('kind: ConfigMap');
      expect(yaml.stdout).toMatch(/resourceVersion: "\d+"/);
      expect((await k('-n', 'demo', 'delete', 'cm', 'settings')).stdout).toContain(
        'configmap "settings" deleted',
      );
      const notFound = await k('-n', 'demo', 'get', 'cm', 'settings');
      expect(notFound.code).not.toBe(0);
      expect(notFound.stderr).toContain('configmaps "settings" not found');
      const del = await k('delete', 'ns', 'demo', '--timeout=30s');
      expect(del.stdout).toContain('namespace "demo" deleted');
      expect((await k('get', 'ns', 'demo')).code).not.toBe(0);
    });

    it('api-resources lists every group on by default, under the profile names', async () => {
      const r = await k('api-resources', '-o', 'name');
      expect(r.code).toBe(0);
      const lines = r.stdout.trim().split('\n');
      for (const name of [
        'pods',
        'configmaps',
        'namespaces',
        'deployments.apps',
        'cronjobs.batch',
        `customresourcedefinitions.apiextensions.${suffix}`,
        `leases.coordination.${suffix}`,
        `clusterroles.rbac.authorization.${suffix}`,
        `flowschemas.flowcontrol.apiserver.${suffix}`,
        `certificatesigningrequests.certificates.${suffix}`,
        `horizontalpodautoscalers.autoscaling`,
        `poddisruptionbudgets.policy`,
        `storageclasses.storage.${suffix}`,
      ])
        expect(lines).toContain(name);
      expect(r.stdout).not.toContain(profile === 'orch' ? 'k8s.io' : 'orch.io');
      const versions = await k('api-versions');
      expect(versions.stdout).toContain(`flowcontrol.apiserver.${suffix}/v1beta3`);
      expect(versions.stdout).not.toMatch(/alpha/);
    });

    it('get -w prints changes as they happen', async () => {
      await k('create', 'configmap', 'watched', '--from-literal=a=1');
      const child = spawn(
        kubectlPath ?? 'kubectl',
        ['--kubeconfig', host.kubeconfigPath, 'get', 'configmaps', '-w', '--output-watch-events'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const waitFor = async (text: string) => {
        const deadline = Date.now() + 15_000;
        while (!out.includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        return out.includes(text);
      };
      try {
        expect(await waitFor('watched')).toBe(true);
        await k('patch', 'configmap', 'watched', '--type=merge', '-p', '{"data":{"a":"2"}}');
        expect(await waitFor('MODIFIED')).toBe(true);
        await k('delete', 'configmap', 'watched');
        expect(await waitFor('DELETED')).toBe(true);
        const lines = out
          .trim()
          .split('\n')
          .filter((l) => l.includes('watched'));
        expect(lines[0]).toMatch(/^ADDED\s+watched\s/);
        expect(lines.some((l) => /^MODIFIED\s+watched\s/.test(l))).toBe(true);
        expect(lines.some((l) => /^DELETED\s+watched/.test(l))).toBe(true);
      } finally {
        child.kill('SIGTERM');
      }
    });

    it('errors come back as kubectl shows real server errors', async () => {
      const dup = await k('create', 'ns', 'default');
      expect(dup.stderr).toContain('namespaces "default" already exists');
      const missing = await k('-n', 'nowhere', 'create', 'configmap', 'x');
      expect(missing.stderr).toContain('namespaces "nowhere" not found');
      const bad = await k('create', 'configmap', 'Bad_Name');
      expect(bad.stderr).toContain('is invalid');
    });
  });
}
