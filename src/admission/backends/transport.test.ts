import { describe, expect, it } from 'vitest';
import { WebhookCallError, type WebhookCall, type WebhookTransport } from '../webhook-transport';
import { sandboxTransport } from './transport';
import { resolveBackend } from './address';
import { podReview } from './fixtures.test-support';
import type { ScriptOutcome, ScriptRunner, WebhookBackend } from './types';

const deny: WebhookBackend = {
  name: 'deny',
  kind: 'rules',
  service: { namespace: 'hooks', name: 'deny-svc', path: '/validate' },
  rules: [{ allowed: false, message: 'no' }],
};
const shorthand: WebhookBackend = { name: 'short', namespace: 'hooks', kind: 'rules', rules: [] };
const js: WebhookBackend = { name: 'js', kind: 'javascript', source: '(r) => r' };

describe('resolveBackend', () => {
  const backends = [deny, shorthand, js];
  const cases: { name: string; config: WebhookCall['clientConfig']; want: string }[] = [
    {
      name: 'service with matching path',
      config: { service: { namespace: 'hooks', name: 'deny-svc', path: '/validate' } },
      want: 'deny',
    },
    {
      name: 'service, other path',
      config: { service: { namespace: 'hooks', name: 'deny-svc', path: '/mutate' } },
      want: 'elsewhere',
    },
    {
      name: 'service, other namespace',
      config: { service: { namespace: 'x', name: 'deny-svc', path: '/validate' } },
      want: 'elsewhere',
    },
    {
      name: 'namespace shorthand, any port',
      config: { service: { namespace: 'hooks', name: 'short', port: 8443 } },
      want: 'short',
    },
    { name: 'reserved URL', config: { url: 'https://js.webhooks.sandbox.invalid/any' }, want: 'js' },
    {
      name: 'reserved URL with port, upper case',
      config: { url: 'https://JS.webhooks.sandbox.invalid:8443/' },
      want: 'js',
    },
    {
      name: 'reserved URL, unknown backend',
      config: { url: 'https://nope.webhooks.sandbox.invalid/' },
      want: 'unknown',
    },
    {
      name: 'real URL',
      config: { url: 'https://example.com/js.webhooks.sandbox.invalid' },
      want: 'elsewhere',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const r = resolveBackend(c.config, backends);
      expect(r.kind === 'backend' ? r.backend.name : r.kind).toBe(c.want);
    });
});

function transport(outcome?: ScriptOutcome, backends = [deny, js]) {
  const fallbackCalls: WebhookCall[] = [];
  const fallback: WebhookTransport = {
    call(call) {
      fallbackCalls.push(call);
      return Promise.resolve({ status: 200, contentType: 'application/json', body: 'fallback' });
    },
  };
  const runner: ScriptRunner = { run: () => Promise.resolve(outcome ?? { kind: 'timeout' }) };
  return {
    t: sandboxTransport(fallback, {
      backends: { list: () => Promise.resolve(backends) },
      scriptRunner: runner,
    }),
    fallbackCalls,
  };
}

const jsCall = (body = podReview()): WebhookCall => ({
  clientConfig: { url: 'https://js.webhooks.sandbox.invalid/check' },
  body,
  timeoutMs: 2000,
});

describe('sandboxTransport', () => {
  it('answers a rules backend with the exact reply body', async () => {
    const { t } = transport();
    const r = await t.call({
      clientConfig: deny.service !== undefined ? { service: deny.service } : {},
      body: podReview(),
      timeoutMs: 10_000,
    });
    expect(r).toEqual({
      status: 200,
      contentType: 'application/json',
      body: '{"apiVersion":"admission.orch.io/v1","kind":"AdmissionReview","response":{"uid":"u-1","allowed":false,"status":{"code":403,"message":"no"}}}',
    });
  });

  it('hands other addresses to the fallback', async () => {
    const { t, fallbackCalls } = transport();
    expect(
      (await t.call({ clientConfig: { url: 'https://example.com/' }, body: '{}', timeoutMs: 1000 })).body,
    ).toBe('fallback');
    expect(fallbackCalls).toHaveLength(1);
  });

  it('an unknown reserved name does not resolve', async () => {
    const { t } = transport();
    await expect(
      t.call({
        clientConfig: { url: 'https://nope.webhooks.sandbox.invalid/' },
        body: podReview(),
        timeoutMs: 10_000,
      }),
    ).rejects.toThrow(
      'Post "https://nope.webhooks.sandbox.invalid/?timeout=10s": dial tcp: lookup nope.webhooks.sandbox.invalid: no such host',
    );
  });

  it('a JS timeout is context deadline exceeded', async () => {
    const { t } = transport({ kind: 'timeout' });
    const error = await t.call(jsCall()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookCallError);
    expect((error as WebhookCallError).kind).toBe('timeout');
    expect((error as WebhookCallError).message).toBe(
      'Post "https://js.webhooks.sandbox.invalid/check?timeout=2s": context deadline exceeded',
    );
  });

  it('no runner available is unreachable', async () => {
    const { t } = transport({ kind: 'unavailable', message: 'no sandbox page is open' });
    const error = (await t.call(jsCall()).catch((e: unknown) => e)) as WebhookCallError;
    expect(error.kind).toBe('unreachable');
  });

  it('a throw is a 500 with the error text', async () => {
    const { t } = transport({ kind: 'threw', message: 'TypeError: boom' });
    expect(await t.call(jsCall())).toEqual({
      status: 500,
      contentType: 'text/plain; charset=utf-8',
      body: 'TypeError: boom\n',
    });
  });

  it('a returned string goes out verbatim (garbage for the dispatcher to report)', async () => {
    const { t } = transport({ kind: 'returned', text: 'not json', raw: true });
    expect((await t.call(jsCall())).body).toBe('not json');
  });

  it('a bare response is wrapped in a review of the same version, patch list encoded', async () => {
    const { t } = transport({
      kind: 'returned',
      text: JSON.stringify({ allowed: true, patch: [{ op: 'add', path: '/x', value: 1 }] }),
      raw: false,
    });
    const body = JSON.parse(
      (await t.call(jsCall(podReview(undefined, 'admission.orch.io/v1beta1')))).body,
    ) as Record<string, unknown>;
    expect(body).toEqual({
      apiVersion: 'admission.orch.io/v1beta1',
      kind: 'AdmissionReview',
      response: {
        uid: 'u-1',
        allowed: true,
        patch: btoa('[{"op":"add","path":"/x","value":1}]'),
        patchType: 'JSONPatch',
      },
    });
  });

  it('a full review goes out as returned, another version included', async () => {
    const text = JSON.stringify({
      apiVersion: 'admission.orch.io/v1beta1',
      kind: 'AdmissionReview',
      response: { allowed: true },
    });
    const { t } = transport({ kind: 'returned', text, raw: false });
    expect((await t.call(jsCall())).body).toBe(text);
  });

  it('undefined returned is an empty body', async () => {
    const { t } = transport({ kind: 'returned', text: undefined, raw: false });
    expect((await t.call(jsCall())).body).toBe('');
  });
});
