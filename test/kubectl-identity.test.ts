/**
 * kubectl as different people against the Node host over HTTPS, through
 * the kubeconfig the host writes (kubernetes profile, so kubectl's own
 * group names apply): the administrator's token (the current context), the
 * client-certificate user (`--context admin-cert`), `alice` who may do
 * nothing, `auth whoami` (SelfSubjectReview, beta in v1.27 and off unless
 * `--runtime-config=authentication.k8s.io/v1beta1=true`), `auth can-i`,
 * impersonation with `--as`/`--as-group`, and an `exec` credential plugin
 * (a relative command resolved against the kubeconfig's directory, given
 * the cluster through `KUBERNETES_EXEC_INFO`). Skipped, with the reason
 * printed, without kubectl.
 */

import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const skip = kubectlSkipReason();

const forbiddenPods =
  'Error from server (Forbidden): pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"';

describe.skipIf(skip !== undefined)('kubectl with identities (profile kubernetes)', () => {
  let host: TestHost;
  const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);
  const username = (name: string): string => host.identities.find((i) => i.name === name)?.username ?? '';

  beforeAll(async () => {
    host = await startTestHost({
      profile: 'kubernetes',
      runtimeConfig: 'authentication.k8s.io/v1beta1=true',
    });
  });
  afterAll(() => host.close());

  it('get ns over HTTPS as the administrator (the current context)', async () => {
    const r = await k('get', 'ns', '-o', 'name');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n').sort()).toEqual([
      'namespace/default',
      'namespace/kube-node-lease',
      'namespace/kube-public',
      'namespace/kube-system',
    ]);
  });

  it('--context admin-cert authenticates with the client certificate', async () => {
    const r = await k('--context', 'admin-cert', 'get', 'ns', 'default', '-o', 'name');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('namespace/default');
    const who = await k('--context', 'admin-cert', 'auth', 'whoami', '-o', 'json');
    expect(who.code, who.stderr).toBe(0);
    const info = (JSON.parse(who.stdout) as { status: { userInfo: { username: string; groups: string[] } } })
      .status.userInfo;
    expect(info.username).toBe(username('admin-cert'));
    expect(info.groups).toContain('system:masters');
  });

  it('auth whoami names each identity', async () => {
    const admin = await k('auth', 'whoami');
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toMatch(/Username\s+/);
    expect(admin.stdout).toContain(username('admin'));
    expect(admin.stdout).toContain('system:masters');
    // The service account's context is named after its identity (the core calls it `service-account`).
    const account = host.identities.find((i) => i.username.startsWith('system:serviceaccount:'));
    const sa = await k(
      '--context',
      account?.name ?? '',
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
    );
    expect(sa.stdout).toBe(account?.username);
    expect(sa.stdout).toMatch(/^system:serviceaccount:[^:]+:[^:]+$/);
    const alice = await k(
      '--context',
      'alice',
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
    );
    expect(alice.stdout).toBe('alice');
  });

  it('auth can-i answers yes for the administrator and no for alice', async () => {
    const yes = await k('auth', 'can-i', 'create', 'namespaces');
    expect(yes.stdout.trim()).toBe('yes');
    expect(yes.code).toBe(0);
    const no = await k('--context', 'alice', 'auth', 'can-i', 'list', 'pods');
    expect(no.stdout.trim()).toBe('no');
    expect(no.code).toBe(1);
  });

  it('get pods as alice is Forbidden, in the real wording', async () => {
    const r = await k('--context', 'alice', 'get', 'pods');
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(forbiddenPods);
  });

  it('--as and --as-group impersonate (the administrator may)', async () => {
    const asAlice = await k('--as', 'alice', 'get', 'pods');
    expect(asAlice.stderr.trim()).toBe(forbiddenPods);
    const asMaster = await k('--as', 'alice', '--as-group', 'system:masters', 'get', 'pods');
    expect(asMaster.code, asMaster.stderr).toBe(0);
    expect(asMaster.stderr).toContain('No resources found in default namespace.');
    const canI = await k('--as', 'alice', 'auth', 'can-i', 'list', 'pods');
    expect(canI.stdout.trim()).toBe('no');
    // alice may not impersonate anyone.
    const byAlice = await k('--context', 'alice', '--as', 'system:admin', 'get', 'pods');
    expect(byAlice.stderr).toContain(
      'users "system:admin" is forbidden: User "alice" cannot impersonate resource "users"',
    );
  });

  it('an exec credential plugin supplies the administrator token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-exec-'));
    const infoFile = join(dir, 'exec-info.json');
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: host.token },
    });
    const script = join(dir, 'credential.sh');
    writeFileSync(
      script,
      `#!/bin/sh\nprintf '%s' "$KUBERNETES_EXEC_INFO" > '${infoFile}'\ncat <<'EOF'\n${credential}\nEOF\n`,
    );
    chmodSync(script, 0o755);
    const config = parse(readFileSync(host.kubeconfigPath, 'utf8')) as {
      clusters: unknown[];
      users: { name: string; user: Record<string, unknown> }[];
      contexts: { name: string; context: { cluster: string; user: string } }[];
    };
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: config.clusters,
        users: [
          {
            name: 'plugin',
            user: {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1',
                // Relative: resolved against the kubeconfig's directory.
                command: './credential.sh',
                interactiveMode: 'Never',
                provideClusterInfo: true,
              },
            },
          },
        ],
        contexts: [
          { name: 'plugin', context: { cluster: config.contexts[0]?.context.cluster, user: 'plugin' } },
        ],
        'current-context': 'plugin',
      }),
    );
    const r = await kubectl(kubeconfig, ['get', 'ns', 'default', '-o', 'name']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('namespace/default');
    const who = await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    expect(who.stdout).toBe(username('admin'));
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as {
      kind: string;
      spec: { interactive: boolean; cluster?: { server: string } };
    };
    expect(info.kind).toBe('ExecCredential');
    expect(info.spec.interactive).toBe(false);
    expect(info.spec.cluster?.server).toBe(host.url);
  });
});
