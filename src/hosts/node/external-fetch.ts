/**
 * The Node host's transport for the calls the server makes to services
 * outside it (an OIDC issuer's discovery document and keys, a token-review
 * webhook): real HTTP(S) through `node:https`, trusting the CA the
 * configuration names (`caPEM`) instead of the system roots when one is
 * given — which Node's global fetch cannot do per request without an extra
 * dependency. The browser host routes the same calls to in-sandbox
 * backends instead.
 */

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ExternalFetch } from '../../auth/authn/config';

/** How long a call may take before it fails; the real webhook client's timeout is 30s. */
const defaultTimeoutMs = 30_000;

function responseOf(res: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const status = res.statusCode ?? 502;
  // A Response refuses a body for these statuses.
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : body, { status, statusText: res.statusMessage ?? '', headers });
}

/** Nothing: its argument stays reachable as long as the closure that passes it does. */
function keepReachable(_value: unknown): void {}

export function nodeExternalFetch(timeoutMs = defaultTimeoutMs): ExternalFetch {
  return async (request, options) => {
    const url = new URL(request.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`unsupported scheme "${url.protocol}" for ${request.url}`);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body !== undefined) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        {
          method: request.method,
          headers,
          signal: request.signal,
          timeout: timeoutMs,
          // Only a given CA replaces the system roots; without one Node's defaults apply.
          ...(url.protocol === 'https:' && options?.caPEM !== undefined ? { ca: options.caPEM } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(responseOf(res, Buffer.concat(chunks))));
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`${request.method} ${request.url}: timed out after ${timeoutMs}ms`)),
      );
      req.on('error', reject);
      // The caller's abort reaches `request.signal` only while `request` itself is reachable (undici follows a
      // parent signal from the Request alone; nodejs/node#55428): held here until the exchange is over.
      req.once('close', () => keepReachable(request));
      req.end(body);
    });
  };
}
