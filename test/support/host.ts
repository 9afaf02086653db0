/**
 * Test harness: starts the Node host in-process on a free port (real HTTPS,
 * real sockets) and offers a tiny request helper that returns status,
 * headers and the parsed body. Requests trust the host's CA and act as the
 * cluster administrator unless told otherwise (`{ as: 'alice' }`, a built-in
 * identity; `{ as: 'anonymous' }`, no credentials; or any bearer token), so
 * scenarios written before the server had identity keep their meaning. A
 * host runs without the simulated cluster (nodes, scheduler) unless the
 * options ask for it (`simulation: {}`).
 * `fetchWithCA` does the same for tests that call `fetch` themselves.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from './etcd';
import { Agent } from 'undici';
import {
  startNodeHost,
  type HostIdentity,
  type NodeHost,
  type NodeHostOptions,
} from '../../src/hosts/node/host';

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary JSON; narrowing happens in assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/**
 * Who a request acts as: a built-in identity by name (`admin`, `admin-cert`
 * — a client certificate —, `alice`, `service-account`), `anonymous` (no
 * credentials), or any other string as a bearer token.
 */
export type As =
  'admin' | 'admin-cert' | 'alice' | 'service-account' | 'anonymous' | (string & NonNullable<unknown>);

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  as?: As;
}

export interface TestHost extends NodeHost {
  kubeconfigPath: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
}

/** What a test host's clients need: its CA, its identities, and one connection pool per client certificate. */
interface HostTrust {
  caPEM?: string;
  token: string;
  identities: HostIdentity[];
  agents: Map<string, Agent>;
}

const hosts = new Map<string, HostTrust>();

/** The credentials `as` stands for on a given host. */
function credentialsOf(
  trust: HostTrust,
  as: As | undefined,
): { token?: string; cert?: { certPEM: string; keyPEM: string } } {
  if (as === 'anonymous') return {};
  if (as === undefined || as === 'admin') return { token: trust.token };
  const identity = trust.identities.find((i) => i.name === as);
  if (identity === undefined) return { token: as };
  if (identity.token !== undefined) return { token: identity.token };
  if (identity.clientCertificatePEM !== undefined && identity.clientKeyPEM !== undefined)
    return { cert: { certPEM: identity.clientCertificatePEM, keyPEM: identity.clientKeyPEM } };
  throw new Error(`identity ${as} has neither a token nor a client certificate`);
}

/** An undici pool that trusts the host's CA and, when given, presents a client certificate. */
function agentFor(trust: HostTrust, cert?: { certPEM: string; keyPEM: string }): Agent {
  const key = cert?.certPEM ?? '';
  let agent = trust.agents.get(key);
  if (agent === undefined) {
    agent = new Agent({
      // The server's explanation header on a denial (x-sandbox-explain) can pass undici's 16 KiB default.
      maxHeaderSize: 1 << 20,
      connect: {
        ...(trust.caPEM !== undefined ? { ca: trust.caPEM } : {}),
        ...(cert !== undefined ? { cert: cert.certPEM, key: cert.keyPEM } : {}),
      },
    });
    trust.agents.set(key, agent);
  }
  return agent;
}

/** A `RequestInit` for `url` on a test host: its CA, and the credentials of `as` unless the init sets Authorization. */
export function initFor(url: string, init: RequestInit = {}, as?: As): RequestInit {
  const trust = hosts.get(new URL(url).origin);
  if (trust === undefined) return init;
  const headers = new Headers(init.headers);
  const credentials = credentialsOf(trust, as);
  if (credentials.token !== undefined && !headers.has('authorization'))
    headers.set('authorization', `Bearer ${credentials.token}`);
  // Node's fetch takes an undici dispatcher; its typings name undici-types' class, the same shape.
  const dispatcher = agentFor(trust, credentials.cert) as unknown as RequestInit['dispatcher'];
  return { ...init, headers, dispatcher };
}

/**
 * `fetch` against a test host started by `startTestHost`: trusts its CA and
 * sends the administrator token unless the request carries its own
 * Authorization header or `as` says otherwise. Other URLs go out unchanged.
 */
export function fetchWithCA(url: string, init?: RequestInit, as?: As): Promise<Response> {
  return fetch(url, initFor(url, init, as));
}

export async function startTestHost(options: NodeHostOptions = {}): Promise<TestHost> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-test-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  // ORCH_TEST_STORAGE=etcd runs a suite's default hosts on a throwaway etcd member each.
  const member =
    process.env['ORCH_TEST_STORAGE'] === 'etcd' && options.storage === undefined
      ? await startEtcd()
      : undefined;
  const host = await startNodeHost({
    port: 0,
    storage: 'memory',
    kubeconfig: kubeconfigPath,
    // The server alone unless a suite asks for the simulated cluster (its scenarios: simulation-*.test.ts).
    simulation: false,
    ...(member ? { storage: 'etcd' as const, etcd: { servers: [member.url] } } : {}),
    ...options,
  });
  const trust: HostTrust = {
    ...(host.caPEM !== undefined ? { caPEM: host.caPEM } : {}),
    token: host.token,
    identities: host.identities,
    agents: new Map(),
  };
  const origin = new URL(host.url).origin;
  hosts.set(origin, trust);
  return {
    ...host,
    kubeconfigPath,
    async close() {
      await host.close();
      await member?.stop();
      hosts.delete(origin);
      await Promise.all([...trust.agents.values()].map((a) => a.close()));
    },
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] ??= opts.contentType ?? 'application/json';
      }
      const res = await fetchWithCA(`${host.url}${path}`, { method, headers, body }, opts.as);
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
