/**
 * kubectl built for the `orch` profile (decision 0063): the browser
 * Terminal's kubectl names the profile's groups where kubectl v1.27 names
 * the upstream `*.k8s.io` ones. Run here through the Node front end with
 * `ORCH_KUBECTL_PROFILE=orch` against an orch-profile Node host, each step
 * beside what the upstream-named kubectl prints against the same server —
 * which the differential test proves is what the real kubectl v1.27 prints.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeKubectl } from '../src/hosts/node/kubectl/run';
import { janeCsr } from './kubectl-diff/fixtures';
import { startTestHost, type TestHost } from './support/host';

let host: TestHost;
let dir: string;

async function kubectl(args: string, profile: 'orch' | undefined, stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await runNodeKubectl(args.split(' '), {
    cwd: dir,
    env: { HOME: dir, KUBECONFIG: host.kubeconfigPath, ORCH_KUBECTL_PROFILE: profile },
    stdin: async () => stdin,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

const csr = `apiVersion: certificates.orch.io/v1
kind: CertificateSigningRequest
metadata:
  name: jane
spec:
  request: ${janeCsr}
  signerName: orch.io/apiserver-client
  usages: [client auth]
`;

beforeAll(async () => {
  host = await startTestHost({ profile: 'orch' });
  dir = mkdtempSync(join(tmpdir(), 'kubectl-orch-'));
  writeFileSync(join(dir, 'csr.yaml'), csr);
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Step {
  args: string;
  /** What kubectl built for the orch profile prints (a pattern per line, or the whole text). */
  orch: { code: number; stdout: RegExp | string };
  /** What kubectl v1.27's upstream names give against the same orch server. */
  upstream: { code: number; stdout?: RegExp | string; stderr?: RegExp | string };
}

// Steps run in order: later ones use what earlier ones created.
const steps: Step[] = [
  {
    args: 'get ns default',
    orch: { code: 0, stdout: /^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\S+\n$/ },
    upstream: { code: 0, stdout: /^NAME\s+AGE\ndefault\s+\S+\n$/ },
  },
  {
    args: 'create role reader --verb=get,list --resource=pods',
    orch: { code: 0, stdout: 'role.rbac.authorization.orch.io/reader created\n' },
    upstream: { code: 1, stderr: /NotFound/ },
  },
  {
    args: 'create rolebinding read-bob --role=reader --user=bob',
    orch: { code: 0, stdout: 'rolebinding.rbac.authorization.orch.io/read-bob created\n' },
    upstream: {
      code: 1,
      stderr: /^error: failed to create rolebinding: the server could not find the requested resource/,
    },
  },
  {
    args: 'describe role reader',
    orch: {
      code: 0,
      stdout:
        /PolicyRule:\n\s+Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n[\s\S]*pods\s+\[\]\s+\[\]\s+\[get list\]/,
    },
    upstream: { code: 0, stdout: /^Name:\s+reader\n/ },
  },
  {
    args: 'auth can-i list pods --as bob',
    orch: { code: 0, stdout: 'yes\n' },
    upstream: {
      code: 1,
      stderr:
        /^Error from server \(Forbidden\): selfsubjectaccessreviews\.authorization\.k8s\.io is forbidden/,
    },
  },
  {
    args: 'auth can-i delete pods --as bob',
    orch: { code: 1, stdout: 'no\n' },
    upstream: { code: 1, stderr: /^Error from server \(Forbidden\)/ },
  },
  {
    args: 'create priorityclass high --value=1000',
    orch: { code: 0, stdout: 'priorityclass.scheduling.orch.io/high created\n' },
    upstream: {
      code: 1,
      stderr: /^error: failed to create priorityclass: the server could not find the requested resource/,
    },
  },
  {
    args: 'explain roles.rules',
    orch: {
      code: 0,
      stdout:
        /^GROUP:\s+rbac\.authorization\.orch\.io\nKIND:\s+Role\nVERSION:\s+v1\n\nFIELD: rules <\[\]PolicyRule>/,
    },
    upstream: {
      code: 1,
      stderr: /^error: GVR \(rbac\.authorization\.orch\.io\/v1, Resource=roles\) not found in OpenAPI schema/,
    },
  },
  {
    args: 'create -f csr.yaml',
    orch: { code: 0, stdout: 'certificatesigningrequest.certificates.orch.io/jane created\n' },
    upstream: { code: 1, stderr: /AlreadyExists/ },
  },
  {
    args: 'certificate approve jane',
    orch: { code: 0, stdout: 'certificatesigningrequest.certificates.orch.io/jane approved\n' },
    upstream: {
      code: 1,
      stderr:
        /can only handle CertificateSigningRequest\.certificates\.k8s\.io objects, got CertificateSigningRequest\.certificates\.orch\.io/,
    },
  },
];

describe('kubectl built for the orch profile, against an orch-profile server', () => {
  it.each(steps)('kubectl $args', async (step) => {
    const orch = await kubectl(step.args, 'orch');
    expect(orch.code, orch.stderr).toBe(step.orch.code);
    if (typeof step.orch.stdout === 'string') expect(orch.stdout).toBe(step.orch.stdout);
    else expect(orch.stdout).toMatch(step.orch.stdout);
    // The same command with kubectl v1.27's own names, after the orch one (so it sees the same objects).
    const upstream = await kubectl(step.args, undefined);
    expect(upstream.code, JSON.stringify(upstream)).toBe(step.upstream.code);
    if (step.upstream.stdout !== undefined) expect(upstream.stdout).toMatch(step.upstream.stdout);
    if (step.upstream.stderr !== undefined) expect(upstream.stderr).toMatch(step.upstream.stderr);
  });

  it('applies a built-in kind twice with a strategic merge patch (the orch group is one kubectl knows)', async () => {
    const role = (verbs: string) =>
      `apiVersion: rbac.authorization.orch.io/v1\nkind: Role\nmetadata:\n  name: applied\nrules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: [${verbs}]\n`;
    expect((await kubectl('apply -f -', 'orch', role('get'))).stdout).toBe(
      'role.rbac.authorization.orch.io/applied created\n',
    );
    const second = await kubectl('apply -f - -v=8', 'orch', role('get, watch'));
    expect(second.stdout).toBe('role.rbac.authorization.orch.io/applied configured\n');
    expect(second.stderr).toMatch(
      /Request Headers:[\s\S]*Content-Type: application\/strategic-merge-patch\+json/,
    );
  });
});
