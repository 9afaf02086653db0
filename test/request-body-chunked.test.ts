/**
 * Request bodies with and without a declared length over real HTTPS: a body
 * with Content-Length is read whole (the adapter's direct read), one sent
 * chunked is read as a stream under the same 3 MiB limit, and both decode
 * to the same object. A body that cannot be read — a malformed chunk, a
 * body that stops arriving — is answered at once with a Status (400, 408)
 * and the connection closed; the request is not left in flight.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { exchange } from './support/raw-tls';

let host: TestHost;
beforeAll(async () => {
  // The whole request must arrive within 1 s here (60 s by default, as the real --request-timeout).
  host = await startTestHost({ connectionTimeouts: { requestMs: 1000 } });
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

it("a malformed chunk is answered 400 with a Status and the connection closed, as the issue's reproduction", async () => {
  const r = await exchange(
    host.port,
    `POST ${cms} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${host.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
  );
  expect(r.status).toBe(400);
  expect(r.headers.connection).toBe('close');
  expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
  expect(r.closedByServer).toBe(true);
  // Nothing was created, and the server goes on serving.
  const list = await host.request('GET', cms);
  expect(list.status).toBe(200);
});

it('a body that stops arriving is answered 408 with a Status within the request deadline, and closed', async () => {
  const r = await exchange(
    host.port,
    `POST ${cms} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${host.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metadata":`,
  );
  expect(r.status).toBe(408);
  expect(r.json).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 408 });
  expect(r.closedByServer).toBe(true);
  // The same for a chunked body whose last chunk never comes.
  const chunked = await exchange(
    host.port,
    `POST ${cms} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${host.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`,
  );
  expect(chunked.status).toBe(408);
  expect(chunked.closedByServer).toBe(true);
});
