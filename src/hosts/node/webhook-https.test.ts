import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../../../test/support/webhook-server';
import { WebhookCallError } from '../../server/index';
import { httpsWebhookTransport } from './webhook-https';

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
