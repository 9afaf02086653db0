/**
 * The Node host's connection handling at the edges the parser decides:
 * a refusal of a HEAD request carries no body (its Content-Length still
 * says what a GET would get); a request with 10,000 headers is read whole
 * (Go's server has no limit on their number, only on their 1 MiB size, and
 * a header after the ten thousandth still counts); and a keep-alive
 * connection whose idle timer fires while the next request already waits
 * in the socket (the event loop was busy past the timer) serves that
 * request instead of resetting it — as Go's server closes only idle
 * connections; and 300 writes pipelined on one TLS connection are all
 * answered, in order, while their answers queue up.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { collectRaw, exchange, parseResponse } from './support/raw-tls';

let host: TestHost;
const idleMs = 150;

beforeAll(async () => {
  host = await startTestHost({ connectionTimeouts: { idleMs } });
});

afterAll(async () => {
  await host?.close();
});

it('a refused HEAD request is answered without a body', async () => {
  const raw = Buffer.concat([
    Buffer.from('HEAD /api/v1/'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
  ]);
  const head = await exchange(host.port, raw);
  expect(head.status).toBe(400);
  expect(head.body).toBe('');
  expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  expect(head.closedByServer).toBe(true);
  // The same refusal of a GET carries the Status.
  const get = await exchange(
    host.port,
    Buffer.concat([
      Buffer.from('GET /api/v1/'),
      Buffer.from([0xff]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]),
  );
  expect(get.status).toBe(400);
  expect(get.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
});

it('10,000 headers are read whole: one after them still counts; over 1 MiB is 431 with a Status', async () => {
  const many = Array.from({ length: 10_000 }, (_, i) => `X-Header-${i}: v\r\n`).join('');
  const served = await exchange(
    host.port,
    `GET /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n${many}Authorization: Bearer ${host.token}\r\nConnection: close\r\n\r\n`,
  );
  expect(served.status).toBe(200);
  expect(served.body).toContain('"kind":"ConfigMapList"');
  const huge = Array.from({ length: 10_000 }, (_, i) => `X-Header-${i}: ${'v'.repeat(120)}\r\n`).join('');
  const refused = await exchange(host.port, `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${huge}\r\n`);
  expect(refused.status).toBe(431);
  expect(refused.json).toMatchObject({ kind: 'Status', reason: 'RequestHeaderFieldsTooLarge', code: 431 });
});

it('a request already sent on a keep-alive connection is served even when the idle timer fires first', async () => {
  const connection = await collectRaw(host.port);
  const { socket } = connection;
  const request = `GET /api/v1/namespaces/default HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${host.token}\r\n\r\n`;
  socket.write(request);
  await connection.responses(1);
  // The next request reaches the socket, then the event loop is held past the idle deadline: when it is
  // free again, the idle timer fires before the request's bytes are read, as under a long request.
  socket.write(request);
  // (Node arms the idle timer a second after the advertised idle time.)
  const until = performance.now() + idleMs + 1500;
  while (performance.now() < until) {
    // busy: nothing else runs
  }
  await connection.responses(2);
  expect(connection.closed()).toBe(false);
  const received = connection.received();
  const second = parseResponse(received.slice(received.lastIndexOf('HTTP/1.1 ')));
  expect(second.status).toBe(200);
  // Idle with nothing arriving, the connection closes after the idle time.
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  expect(connection.closed()).toBe(true);
});

it('pipelined writes on one TLS connection are all answered, in order, while answers queue up', async () => {
  // Enough answers queue behind the first that Node pauses the socket and its parser; the TLS socket still
  // hands over records it had decrypted, which Node alone would refuse and then close the connection.
  const count = 300;
  const connection = await collectRaw(host.port);
  const { socket } = connection;
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `pipelined-${i}` },
      data: { payload: 'x'.repeat(2000) },
    });
    socket.write(
      `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${host.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  await connection.responses(count, 10);
  expect(connection.closed()).toBe(false);
  const received = connection.received();
  expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(Array.from({ length: count }, () => 'HTTP/1.1 201'));
  const names = [...received.matchAll(/"name":"(pipelined-\d+)"/g)].map((m) => m[1]);
  expect(names).toEqual(Array.from({ length: count }, (_, i) => `pipelined-${i}`));
  socket.destroy();
});
