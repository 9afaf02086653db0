/**
 * Test harness: starts the Node host in-process on a free port (real HTTP,
 * real sockets) and offers a tiny request helper that returns status,
 * headers and the parsed body.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeHost, type NodeHost, type NodeHostOptions } from '../../src/hosts/node/host';

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary JSON; narrowing happens in assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface TestHost extends NodeHost {
  kubeconfigPath: string;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; contentType?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
}

export async function startTestHost(options: NodeHostOptions = {}): Promise<TestHost> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-test-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const host = await startNodeHost({ port: 0, storage: 'memory', kubeconfig: kubeconfigPath, ...options });
  return {
    ...host,
    kubeconfigPath,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= opts.contentType ?? 'application/json';
      }
      const res = await fetch(`${host.url}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
  };
}
