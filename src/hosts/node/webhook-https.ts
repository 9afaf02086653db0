/**
 * The Node host's webhook transport: a real HTTPS POST to a webhook's URL
 * (or its service's DNS name), the server verified against the
 * configuration's `caBundle` or the system roots, with the credentials the
 * admission kubeconfig gives (client certificate, token, basic), bounded by
 * the webhook's timeout. Failures read as the real server's Go client
 * words them (`Post "<url>?timeout=10s": dial tcp <host:port>: connect:
 * connection refused`, `… context deadline exceeded`).
 */

import { request as httpsRequest } from 'node:https';
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
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (kind: WebhookCallError['kind'], text: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new WebhookCallError(kind, `Post "${shown}": ${text}`));
      };
      const req = httpsRequest(
        url,
        {
          method: 'POST',
          headers,
          ...(call.clientConfig.caBundle !== undefined && call.clientConfig.caBundle !== ''
            ? { ca: fromBase64(call.clientConfig.caBundle) }
            : {}),
          ...(c?.clientCertificateData !== undefined ? { cert: fromBase64(c.clientCertificateData) } : {}),
          ...(c?.clientKeyData !== undefined ? { key: fromBase64(c.clientKeyData) } : {}),
          // One connection per call: webhooks' certificates and credentials differ, and nothing lingers after a test.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'] ?? null,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', (e) => fail('unreachable', e.message));
        },
      );
      const timer = setTimeout(() => {
        fail('timeout', 'context deadline exceeded');
        req.destroy();
      }, call.timeoutMs);
      call.signal?.addEventListener('abort', () => {
        fail('timeout', 'context canceled');
        req.destroy();
      });
      req.on('error', (e: NodeJS.ErrnoException) =>
        fail('unreachable', goDialError(e, url.hostname, hostPort)),
      );
      req.end(call.body);
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
