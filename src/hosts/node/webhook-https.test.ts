import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCA, issueCertificate } from '../../../test/support/pki';
import { startWebhookServer, type WebhookServer } from '../../../test/support/webhook-server';
import { WebhookCallError } from '../../server/index';
import { closeWebhookConnections, httpsWebhookTransport } from './webhook-https';

describe('the Node host webhook transport', () => {
  let wh: WebhookServer;
  beforeAll(async () => {
    wh = await startWebhookServer();
  });
  afterAll(() => wh.close());

  const review = JSON.stringify({
    apiVersion: 'admission.orch.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u1' },
  });

  it.each([
    [{ token: 't0k3n' }, 'Bearer t0k3n'],
    [{ username: 'hook', password: 'secret' }, `Basic ${Buffer.from('hook:secret').toString('base64')}`],
  ])('posts with the caBundle and credentials %j', async (credentials, authorization) => {
    const r = await httpsWebhookTransport.call({
      clientConfig: { url: `${wh.url}/allow/creds`, caBundle: wh.caBundle },
      body: review,
      timeoutMs: 5000,
      credentials,
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ response: { uid: 'u1', allowed: true } });
    expect(wh.calls('/allow/creds').at(-1)?.authorization).toBe(authorization);
  });

  it.each([
    [
      { url: 'https://127.0.0.1:1/x' },
      1000,
      'Post "https://127.0.0.1:1/x?timeout=1s": dial tcp 127.0.0.1:1: connect: connection refused',
    ],
    [{ url: '', caBundle: '' }, 1000, 'Post "URL?timeout=1s": context deadline exceeded'],
  ])('fails %j in the Go client words', async (clientConfig, timeoutMs, message) => {
    const target = clientConfig.url === '' ? { url: `${wh.url}/slow`, caBundle: wh.caBundle } : clientConfig;
    const error = await httpsWebhookTransport
      .call({ clientConfig: target, body: review, timeoutMs })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookCallError);
    expect((error as Error).message).toBe(message.replace('URL', `${wh.url}/slow`));
  });
});

describe('the Node host webhook transport connection pool', () => {
  let server: Server;
  let url = '';
  let caBundle = '';
  let connections = 0;
  beforeAll(async () => {
    const ca = await createTestCA('pool-ca');
    const leaf = await issueCertificate(ca, {
      cn: 'pool',
      dns: ['localhost'],
      ips: ['127.0.0.1'],
      server: true,
    });
    server = createServer({ cert: leaf.certPEM, key: leaf.keyPEM }, (req, res) => {
      req.resume();
      req.on('end', () => {
        const delay = req.url?.startsWith('/slow') === true ? 1500 : 0;
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{}');
        }, delay);
      });
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    caBundle = Buffer.from(ca.certPEM).toString('base64');
  });
  afterAll(async () => {
    closeWebhookConnections();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const call = (path: string, timeoutMs = 5000) =>
    httpsWebhookTransport.call({ clientConfig: { url: `${url}${path}`, caBundle }, body: '{}', timeoutMs });

  it('reuses one connection for consecutive calls, and drops one a timeout cut off', async () => {
    const steps: { path: string; timeoutMs?: number; want: string; connections: number }[] = [
      { path: '/a', want: '200', connections: 1 },
      { path: '/b', want: '200', connections: 1 },
      { path: '/c', want: '200', connections: 1 },
      {
        path: '/slow',
        timeoutMs: 1000,
        want: `Post "URL/slow?timeout=1s": context deadline exceeded`,
        connections: 1,
      },
      { path: '/d', want: '200', connections: 2 },
      { path: '/e', want: '200', connections: 2 },
    ];
    for (const step of steps) {
      const got = await call(step.path, step.timeoutMs).then(
        (r) => String(r.status),
        (e: unknown) => (e instanceof WebhookCallError ? e.message : String(e)),
      );
      expect({ path: step.path, got, connections }).toEqual({
        path: step.path,
        got: step.want.replace('URL', url),
        connections: step.connections,
      });
    }
  });
});
