/**
 * HTTP/1.1 Upgrade requests (`kubectl exec` over SPDY, WebSocket clients):
 * the request goes through the server core like any other (authentication,
 * authorization, admission, the pod's checks) with a connection that can
 * switch protocols; when the core accepts the stream, the host answers
 * `101 Switching Protocols` and carries the exec session on the socket
 * (`remote-command.ts`), otherwise it writes the core's answer and closes.
 */

import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiServer, UpgradeOffer } from '../../server/index';
import { serveSpdy, serveWebSocket } from './remote-command';
import { rewriteIncomingTarget } from './raw-target';
import { connectionOf } from './tls';
import { acceptKey } from './websocket';

const reasons: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Writes a core answer onto a raw socket and closes it. */
async function writeResponse(socket: Socket, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  let head = `HTTP/1.1 ${response.status} ${reasons[response.status] ?? 'Unknown'}\r\n`;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection')
      head += `${name}: ${value}\r\n`;
  });
  head += `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

function switchingProtocols(offer: UpgradeOffer, request: IncomingMessage): string {
  const lines = ['HTTP/1.1 101 Switching Protocols'];
  if (offer.protocol === 'SPDY/3.1') {
    lines.push('Connection: Upgrade', 'Upgrade: SPDY/3.1', `X-Stream-Protocol-Version: ${offer.subprotocol}`);
  } else {
    const key = String(request.headers['sec-websocket-key'] ?? '');
    lines.push('Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${acceptKey(key)}`);
    // A client that named no channel protocol gets none back.
    if (request.headers['sec-websocket-protocol'] !== undefined)
      lines.push(`Sec-WebSocket-Protocol: ${offer.subprotocol}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The `upgrade` listener of the host's server; upgraded sockets are added to `sockets` until they close. */
export function upgradeListener(
  api: ApiServer,
  sockets: Set<Socket>,
): (request: IncomingMessage, socket: Socket, head: Buffer) => void {
  return (request, socket, head) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    void serve(api, request, socket, head).catch(() => socket.destroy());
  };
}

async function serve(api: ApiServer, incoming: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
  rewriteIncomingTarget(incoming);
  const host = incoming.headers.host ?? 'localhost';
  const url = new URL(incoming.url ?? '/', `https://${host}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2)
    headers.append(incoming.rawHeaders[i] ?? '', incoming.rawHeaders[i + 1] ?? '');
  let offer: UpgradeOffer | undefined;
  const conn = {
    ...connectionOf(incoming),
    upgrade: (o: UpgradeOffer) => {
      offer = o;
    },
  };
  const response = await api.fetch(new Request(url, { method: incoming.method ?? 'GET', headers }), conn);
  if (offer === undefined) return writeResponse(socket, response);
  // The core's placeholder answer is not sent: the connection switches protocols instead.
  await response.body?.cancel();
  socket.setNoDelay(true);
  socket.write(switchingProtocols(offer, incoming));
  if (offer.protocol === 'SPDY/3.1') serveSpdy(socket, head, offer);
  else serveWebSocket(socket, head, offer);
}
