/**
 * Our kubectl in Node (the in-process front end the differential test runs) ends a watch when it is told to,
 * even after a garbage collection while the watch waits: `rollout status --timeout=1s` of a Deployment that
 * never finishes times out and says so, and a `get -w` whose caller aborts ends. A `Request`'s signal follows
 * its caller's only while the `Request` object lives (nodejs/node#55428); the watch's requests were held by
 * nothing once the response had begun, so a collection in that second left the abort without effect and the
 * command waiting for the server to end the watch — test/kubectl-diff.test.ts hung that way in CI (decision
 * 0096). The collections here are forced, so the case does not depend on when one happens.
 */

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeKubectl } from '../src/hosts/node/kubectl/run';
import { pendingWebDeployment } from './kubectl-diff/fixtures';
import { startTestHost, type TestHost } from './support/host';

// A full collection on demand (the flag is read when a context is made).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let host: TestHost;
let dir: string;

async function kubectl(args: string[], signal?: AbortSignal, printed?: (stdout: string) => void) {
  let stdout = '';
  let stderr = '';
  const code = await runNodeKubectl(args, {
    cwd: dir,
    env: { HOME: dir, KUBECONFIG: join(dir, '.kube', 'config') },
    stdin: async () => '',
    stdout: (text) => {
      stdout += text;
      printed?.(stdout);
    },
    stderr: (text) => (stderr += text),
    ...(signal !== undefined ? { signal } : {}),
  });
  return { code, stdout, stderr };
}

/** Runs `work` while collecting garbage every 50 ms (the watch's wait has many collections in it). */
async function whileCollecting<T>(work: () => Promise<T>): Promise<T> {
  const collector = setInterval(collectGarbage, 50);
  try {
    return await work();
  } finally {
    clearInterval(collector);
  }
}

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
  dir = mkdtempSync(join(tmpdir(), 'kubectl-abort-'));
  mkdirSync(join(dir, '.kube'));
  copyFileSync(host.kubeconfigPath, join(dir, '.kube', 'config'));
  writeFileSync(join(dir, 'web.yaml'), pendingWebDeployment);
  expect((await kubectl(['create', '-f', 'web.yaml'])).code).toBe(0);
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('our kubectl ends a watch it was told to end, garbage collected or not', () => {
  it('rollout status --timeout=1s times out', async () => {
    const r = await whileCollecting(() => kubectl(['rollout', 'status', 'deployment/web', '--timeout=1s']));
    // What it printed while waiting depends on how far the controller got; the end does not.
    expect(r.stdout).toMatch(/^Waiting for deployment "web" /);
    expect(r.stderr).toBe('error: timed out waiting for the condition\n');
    expect(r.code).toBe(1);
  }, 20_000);

  it('get -w ends when its caller aborts', async () => {
    const stop = new AbortController();
    let listed: () => void = () => undefined;
    const list = new Promise<void>((resolve) => (listed = resolve));
    const r = await whileCollecting(async () => {
      const watching = kubectl(['get', 'deployments', '-w', '-o', 'name'], stop.signal, (stdout) => {
        if (stdout.includes('\n')) listed();
      });
      // The watch starts once the list before it is printed; a few collections later, the abort.
      await list;
      await new Promise((resolve) => setTimeout(resolve, 500));
      stop.abort();
      return watching;
    });
    expect(r).toEqual({ code: 0, stdout: 'deployment.apps/web\n', stderr: '' });
  }, 20_000);
});
