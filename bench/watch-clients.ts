/**
 * A bench's watch clients in a process of their own (see watchers.ts): opens
 * `count` raw TLS watches on ConfigMaps against the given port, notes when
 * each `ev-<i>` event arrives (wall-clock ms, comparable across processes),
 * and on `stop` from the parent sends back, per event, how many watchers got
 * it and their delivery times.
 */

import { connect } from 'node:tls';

const [portText = '0', token = '', countText = '0', floor = '0'] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const path = '/api/v1/namespaces/default/configmaps';
const now = (): number => performance.timeOrigin + performance.now();

const arrivals = new Map<number, number[]>();
const sockets: ReturnType<typeof connect>[] = [];
let closed = 0;

async function open(): Promise<void> {
  for (let k = 0; k < count; k++) {
    const socket = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
      const s = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => resolve(s));
      s.once('error', reject);
    });
    let tail = '';
    socket.on('data', (c: Buffer) => {
      const t = now();
      const text = tail + c.toString('latin1');
      for (const m of text.matchAll(/"ev-(\d+)"/g)) {
        const i = Number(m[1]);
        const list = arrivals.get(i);
        if (list === undefined) arrivals.set(i, [t]);
        else list.push(t);
      }
      tail = text.slice(-16);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (closed += 1));
    socket.write(
      `GET ${path}?watch=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        (floor === '1' ? 'x-bench-floor: 1\r\n' : '') +
        '\r\n',
    );
    sockets.push(socket);
  }
  process.send?.({ ready: true });
}

process.on('message', (m: { stop?: boolean }) => {
  if (m.stop !== true) return;
  process.send?.({ arrivals: [...arrivals.entries()], closed }, () => {
    for (const s of sockets) s.destroy();
    process.exit(0);
  });
});

void open();
