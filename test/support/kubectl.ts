/**
 * kubectl for integration tests: runs the binary on PATH against a
 * kubeconfig, or tells the test to skip with a printed reason when there is
 * no kubectl on this machine.
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findKubectl(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const kubectlPath = findKubectl();

/** A versioned client (`kubectl.1.27`) on PATH or beside the dispatcher's real binary, if this machine has it. */
export function findVersionedKubectl(version: string): string | undefined {
  const name = `kubectl.${version}`;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/lib/google-cloud-sdk/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Printed once per suite that needs kubectl, so a skip always carries its reason. */
export function kubectlSkipReason(): string | undefined {
  if (kubectlPath !== undefined) return undefined;
  const reason = 'kubectl is not on PATH: the kubectl scenarios are skipped (install kubectl to run them)';
  console.warn(`SKIP: ${reason}`);
  return reason;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(
  kubeconfig: string,
  args: string[],
  input?: string,
  binary: string = kubectlPath ?? 'kubectl',
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      ['--kubeconfig', kubeconfig, ...args],
      {
        timeout: 30_000,
        env: {
          ...process.env,
          HOME: process.env.HOME ?? '/tmp',
          KUBECACHEDIR: join(process.env.TMPDIR ?? '/tmp', `kubectl-cache-${process.pid}`),
        },
      },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
