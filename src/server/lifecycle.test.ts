import { describe, expect, it } from 'vitest';
import { isLongRunningRequest, Lifecycle } from './lifecycle';
import { awaitedLater } from '../../test/support/awaited-later';

const request = (path: string, init: RequestInit = {}) => new Request(`https://h${path}`, init);

function lifecycle(sendRetryAfter: boolean) {
  const inflight = { mutating: 0, readOnly: 0 };
  const l = new Lifecycle({
    sendRetryAfter,
    loopbackUserAgentPrefix: 'kube-apiserver/',
    inflight: (mutating, change) => {
      inflight[mutating ? 'mutating' : 'readOnly'] += change;
    },
  });
  return { l, inflight };
}

describe('Lifecycle', () => {
  it('counts non-long-running requests in flight by kind, never watches', () => {
    const { l, inflight } = lifecycle(false);
    const get = l.admit(request('/api/v1/pods'));
    const post = l.admit(request('/api/v1/namespaces/d/pods', { method: 'POST' }));
    const watch = l.admit(request('/api/v1/pods?watch=true'));
    expect(inflight).toEqual({ mutating: 1, readOnly: 1 });
    for (const g of [get, post, watch]) if ('done' in g) g.done();
    expect(inflight).toEqual({ mutating: 0, readOnly: 0 });
  });

  it('drains once stopped and nothing is in flight; refuses new requests but never probes or the loopback', async () => {
    const { l } = lifecycle(true);
    const slow = l.admit(request('/api/v1/pods'));
    l.beginShutdown();
    const during = l.admit(request('/api/v1/pods'));
    if ('done' in during) during.done();
    else throw new Error('refused during the delay');
    l.stopAcceptingNew();
    let drained = false;
    const done = awaitedLater(l.drained().then(() => (drained = true)));
    const refused = l.admit(request('/api/v1/pods'));
    expect('response' in refused && refused.response.status).toBe(429);
    if ('response' in refused) {
      expect(refused.response.headers.get('retry-after')).toBe('5');
      expect(refused.response.headers.get('connection')).toBe('close');
      expect(await refused.response.text()).toBe('The apiserver is shutting down, please try again later.\n');
    }
    for (const exempt of ['/readyz', '/livez/ping', '/healthz', '/metrics'])
      expect('done' in l.admit(request(exempt)), exempt).toBe(true);
    expect(
      'done' in l.admit(request('/api/v1/pods', { headers: { 'user-agent': 'kube-apiserver/v1.27.16' } })),
    ).toBe(true);
    await Promise.resolve();
    expect(drained).toBe(false);
    if ('done' in slow) slow.done();
    await done;
    expect(drained).toBe(true);
  });

  it('without send-retry-after refuses with the 503 Status and Retry-After: 1', async () => {
    const { l } = lifecycle(false);
    l.stopAcceptingNew();
    const refused = l.admit(request('/apis/apps/v1/deployments'));
    if (!('response' in refused)) throw new Error('admitted');
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get('retry-after')).toBe('1');
    expect(await refused.response.json()).toMatchObject({
      reason: 'ServiceUnavailable',
      message: 'apiserver is shutting down',
      code: 503,
    });
  });

  it('knows the real long-running requests', () => {
    const lr = (path: string, method = 'GET') => isLongRunningRequest(method, new URL(`https://h${path}`));
    expect(lr('/api/v1/namespaces/d/pods?watch=1')).toBe(true);
    expect(lr('/api/v1/watch/pods')).toBe(true);
    expect(lr('/api/v1/namespaces/d/pods/p/exec', 'POST')).toBe(true);
    expect(lr('/api/v1/namespaces/d/pods/p/log')).toBe(true);
    expect(lr('/api/v1/namespaces/d/pods')).toBe(false);
    expect(lr('/readyz')).toBe(false);
  });
});
