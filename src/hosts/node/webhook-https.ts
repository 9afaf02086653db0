/**
 * The Node host's webhook transport: a real HTTPS POST to a webhook's URL
 * (or its service's DNS name), the server verified against the
 * configuration's `caBundle` or the system roots, with the credentials the
 * admission kubeconfig gives (client certificate, token, basic), bounded by
 * the webhook's timeout. Failures read as the real server's Go client
 * words them (`Post "<url>?timeout=10s": dial tcp <host:port>: connect:
 * connection refused`, `… context deadline exceeded`).
 *
 * Connections are kept alive between calls, one pool per distinct trust
 * and client-certificate combination, so consecutive calls to a webhook
 * skip the TCP and TLS handshakes the real server's cached clients skip too.
 */

import type { ClientRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import {
  WebhookCallError,
  type WebhookCall,
  type WebhookCallResult,
  type WebhookTransport,
} from '../../server/index';

/** The address a call goes to, with the `timeout` parameter the real client adds. */
export function webhookURL(call: WebhookCall): URL {
  const cc = call.clientConfig;
  let url: URL;
  if (cc.url !== undefined) url = new URL(cc.url);
  else if (cc.service !== undefined) {
    const s = cc.service;
    url = new URL(`https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? '/'}`);
  } else throw new WebhookCallError('unreachable', 'no URL or service configured');
  url.searchParams.set('timeout', `${Math.round(call.timeoutMs / 1000)}s`);
  return url;
}

function fromBase64(text: string): string {
  return Buffer.from(text, 'base64').toString('utf8');
}

/** How many distinct (caBundle, client certificate) pools stay open. */
const MAX_AGENTS = 32;
/** Idle pooled connections close after this; well above the 30 s longest webhook timeout. */
const IDLE_MS = 60_000;

/** Keep-alive pools by TLS identity, least recently used first (a Map iterates in insertion order). */
const agents = new Map<string, Agent>();

function agentFor(ca: string | undefined, cert: string | undefined, key: string | undefined): Agent {
  const id = JSON.stringify([ca ?? null, cert ?? null, key ?? null]);
  const found = agents.get(id);
  if (found !== undefined) {
    agents.delete(id);
    agents.set(id, found);
    return found;
  }
  // Node's agent unrefs idle sockets, so a pooled connection never keeps the process alive.
  const agent = new Agent({ keepAlive: true, timeout: IDLE_MS, scheduling: 'lifo' });
  agents.set(id, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldestId, oldest] = agents.entries().next().value as [string, Agent];
    agents.delete(oldestId);
    // In-flight calls on the evicted pool finish; its idle connections go now, later ones at IDLE_MS.
    for (const sockets of Object.values(oldest.freeSockets)) for (const s of sockets ?? []) s.destroy();
  }
  return agent;
}

/** Closes every pooled webhook connection (a host shutting down, or a test cleaning up). */
export function closeWebhookConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export const httpsWebhookTransport: WebhookTransport = {
  call(call: WebhookCall): Promise<WebhookCallResult> {
    let url: URL;
    try {
      url = webhookURL(call);
    } catch (e) {
      return Promise.reject(
        e instanceof WebhookCallError ? e : new WebhookCallError('unreachable', String(e)),
      );
    }
    const shown = url.toString();
    const hostPort = `${url.hostname}:${url.port === '' ? '443' : url.port}`;
    const c = call.credentials;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, */*',
      'Content-Length': String(Buffer.byteLength(call.body)),
    };
    if (c?.token !== undefined) headers.Authorization = `Bearer ${c.token}`;
    else if (c?.username !== undefined)
      headers.Authorization = `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
    const caBundle = call.clientConfig.caBundle;
    const tlsOptions = {
      ...(caBundle !== undefined && caBundle !== '' ? { ca: fromBase64(caBundle) } : {}),
      ...(c?.clientCertificateData !== undefined ? { cert: fromBase64(c.clientCertificateData) } : {}),
      ...(c?.clientKeyData !== undefined ? { key: fromBase64(c.clientKeyData) } : {}),
    };
    const agent = agentFor(tlsOptions.ca, tlsOptions.cert, tlsOptions.key);
    return new Promise((resolve, reject) => {
      let settled = false;
      let req: ClientRequest | undefined;
      const onAbort = () => {
        fail('timeout', 'context canceled');
        req?.destroy();
      };
      const fail = (kind: WebhookCallError['kind'], text: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        call.signal?.removeEventListener('abort', onAbort);
        reject(new WebhookCallError(kind, `Post "${shown}": ${text}`));
      };
      const send = (retry: boolean) => {
        const r = httpsRequest(url, { method: 'POST', headers, ...tlsOptions, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            call.signal?.removeEventListener('abort', onAbort);
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'] ?? null,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', (e) => fail('unreachable', e.message));
        });
        req = r;
        r.on('error', (e: NodeJS.ErrnoException) => {
          // A pooled connection the server closed while it sat idle: resend once on a fresh one, as Node advises.
          if (retry && !settled && r.reusedSocket && e.code === 'ECONNRESET') send(false);
          else fail('unreachable', goDialError(e, url.hostname, hostPort));
        });
        r.end(call.body);
      };
      // Destroying the request destroys its socket, so a call cut off mid-way never goes back to the pool.
      const timer = setTimeout(() => {
        fail('timeout', 'context deadline exceeded');
        req?.destroy();
      }, call.timeoutMs);
      call.signal?.addEventListener('abort', onAbort, { once: true });
      send(true);
    });
  },
};

/** Node's socket and TLS errors in the Go client's words. */
function goDialError(e: NodeJS.ErrnoException, host: string, hostPort: string): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${host}: no such host`;
    case 'ECONNRESET':
      return `read tcp ${hostPort}: read: connection reset by peer`;
    case 'EHOSTUNREACH':
      return `dial tcp ${hostPort}: connect: no route to host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is valid for other names, not ${host}`;
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    default:
      return e.message;
  }
}
