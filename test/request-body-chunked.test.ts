/**
 * Request bodies with and without a declared length over real HTTPS: a body
 * with Content-Length is read whole (the adapter's direct read), one sent
 * chunked is read as a stream under the same 3 MiB limit, and both decode
 * to the same object.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

const cms = '/api/v1/namespaces/default/configmaps';

/** A POST whose body is a stream: sent with `Transfer-Encoding: chunked` and no Content-Length. */
function postChunked(text: string): Promise<Response> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.length; at += 64 * 1024) c.enqueue(bytes.subarray(at, at + 64 * 1024));
      c.close();
    },
  });
  return fetchWithCA(`${host.url}${cms}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
}

it('a chunked body and a body with Content-Length create the same object', async () => {
  const chunked = await postChunked(JSON.stringify({ metadata: { name: 'chunked' }, data: { k: 'é' } }));
  expect(chunked.status).toBe(201);
  const sized = await host.request('POST', cms, { body: { metadata: { name: 'sized' }, data: { k: 'é' } } });
  expect(sized.status).toBe(201);
  const a = await host.request('GET', `${cms}/chunked`);
  expect(a.body.data).toEqual({ k: 'é' });
  expect(sized.body.data).toEqual(a.body.data);
});

it('a chunked body over 3 MiB is 413, as one with a declared length is', async () => {
  const big = `{"metadata":{"name":"huge"},"data":{"a":"${'x'.repeat(3 * 1024 * 1024)}"}}`;
  const r = await postChunked(big);
  expect(r.status).toBe(413);
  expect(((await r.json()) as { reason: string }).reason).toBe('RequestEntityTooLarge');
});
