/**
 * kubectl's transport in Node: HTTPS (or HTTP) through node:https with the
 * kubeconfig's TLS settings — the cluster CA instead of the system roots,
 * a client certificate and key, `insecure-skip-tls-verify`, a TLS server
 * name — which Node's global fetch cannot take per request. Response
 * bodies stream, so watches and `logs -f` print as data arrives.
 */

import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import type { FetchFunction } from '../../../client';
import type { Connection } from '../../../kubectl';

/**
 * The requests whose exchange is under way, held until their connection's request closes (the answer read
 * whole, or cut off). A `Request`'s signal follows its caller's signal only while the `Request` object lives
 * (undici keeps the controller behind it from the `Request` alone; nodejs/node#55428), and once the response
 * has begun nothing else holds it: after a garbage collection, kubectl's `--timeout` or a stopped watch no
 * longer reached the connection, which stayed open until the server ended the watch (the differential
 * test's `rollout status --timeout=1s` waited so in CI; decision 0096).
 */
const underWay = new Set<Request>();

export function nodeTransport(connection: Connection): FetchFunction {
  const agent = connection.server.startsWith('https:')
    ? new HttpsAgent({
        keepAlive: true,
        rejectUnauthorized: !connection.insecureSkipTlsVerify,
        ...(connection.caPEM !== undefined ? { ca: connection.caPEM } : {}),
        ...(connection.clientCertPEM !== undefined ? { cert: connection.clientCertPEM } : {}),
        ...(connection.clientKeyPEM !== undefined ? { key: connection.clientKeyPEM } : {}),
        ...(connection.tlsServerName !== undefined ? { servername: connection.tlsServerName } : {}),
      })
    : new HttpAgent({ keepAlive: true });
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body !== undefined) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        { method: request.method, headers, agent, signal: request.signal },
        (res: IncomingMessage) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 205 || status === 304;
          const stream = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(
            new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
          );
        },
      );
      underWay.add(request);
      req.once('close', () => underWay.delete(request));
      req.on('error', reject);
      req.end(body);
    });
  };
}
