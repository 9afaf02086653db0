import { describe, expect, it } from 'vitest';
import { withBodyAside, withBodyBack } from './request-body';

describe('request bodies kept beside MSW', () => {
  it('routes a request without its body and gives the server the same request with it', async () => {
    const controller = new AbortController();
    const original = new Request('https://sandbox.test/api/v1/namespaces/default/configmaps?dryRun=All', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"kind":"ConfigMap","data":{"k":"ü"}}',
      signal: controller.signal,
    });
    const routed = withBodyAside(original);
    expect(routed.body).toBeNull();
    expect(routed.url).toBe(original.url);
    expect(routed.method).toBe('POST');
    expect(routed.headers.get('authorization')).toBe('Bearer t');

    const served = withBodyBack(routed);
    // The fetch event's own request, its body not read on the way: read once, by the server core.
    expect(served).toBe(original);
    expect(served.bodyUsed).toBe(false);
    expect(served.method).toBe('POST');
    expect(served.url).toBe(original.url);
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(await served.text()).toBe('{"kind":"ConfigMap","data":{"k":"ü"}}');
    // A client going away still reaches the server core's request.
    controller.abort();
    expect(served.signal.aborted).toBe(true);
  });

  it('keeps an empty body a body, and leaves requests without one and foreign requests as they are', async () => {
    const empty = withBodyBack(
      withBodyAside(new Request('https://sandbox.test/api', { method: 'PUT', body: '' })),
    );
    expect(empty.body).not.toBeNull();
    expect(await empty.text()).toBe('');

    const get = new Request('https://sandbox.test/api/v1/pods');
    expect(withBodyAside(get)).toBe(get);
    const other = new Request('https://sandbox.test/api', { method: 'POST', body: 'x' });
    expect(withBodyBack(other)).toBe(other);
  });
});
