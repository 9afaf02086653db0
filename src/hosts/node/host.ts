/**
 * The Node host: the server core over `node:http` (through
 * @hono/node-server, which sends response headers before the first body
 * chunk so an idle watch is established at once, and aborts the request
 * when the client goes away). State lives in memory: by default in the
 * in-memory store (measured 2.4× faster than the same Dexie store over
 * fake-indexeddb, which is in memory too — see docs/decisions/0003), or in
 * the Dexie store with `--storage dexie`, the browser host's own backend.
 */

import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { createApiServer, type ApiServer } from '../../server/index';
import type { ProfileName } from '../../machinery/naming';
import type { ConnectionInfo } from '../../api/connection';
import { createDexieStorage } from '../../storage/dexie/dexie-storage';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import type { Storage } from '../../storage/types';
import { writeKubeconfig } from './kubeconfig';
import { answerClientError, maxHeaderBytes, rewriteIncomingTarget, statusBody } from './raw-target';

export interface NodeHostOptions {
  port?: number;
  host?: string;
  profile?: ProfileName;
  kubeconfig?: string;
  storage?: 'dexie' | 'memory';
  runtimeConfig?: string;
  featureGates?: Record<string, boolean>;
  compactionIntervalMs?: number;
  watchBookmarkIntervalMs?: number;
}

export interface NodeHost {
  url: string;
  port: number;
  /** The administrator bearer token (also in the kubeconfig). */
  token: string;
  api: ApiServer;
  /** The host's store, for tests that read the change history (the fuzzer's no-change check). */
  storage: Storage;
  close(): Promise<void>;
}

let dbCounter = 0;

/**
 * Header values carrying UTF-8 bytes (a warning about a field named `名前`)
 * are byte strings whose code units are those bytes. Node writes the head
 * in the body's encoding when the body is a string, which would encode the
 * bytes a second time; with a byte body the head is written as Latin-1,
 * i.e. as the very bytes the server meant. Streams are left alone.
 */
async function bytesBodyForRawHeaders(response: Response): Promise<Response> {
  let raw = false;
  // eslint-disable-next-line no-control-regex
  response.headers.forEach((value) => (raw ||= /[^\u0000-\u007f]/.test(value)));
  // Watches (`;stream=watch`) never end: they keep their stream.
  if (!raw || response.body === null || (response.headers.get('content-type') ?? '').includes('stream'))
    return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return new Response(bytes, { status: response.status, headers: response.headers });
}

/** What the core is told about a connection: the peer's address (TLS client certificates arrive with HTTPS). */
function connectionOf(incoming: { socket: IncomingMessage['socket'] }): ConnectionInfo {
  const socket = incoming.socket;
  return {
    ...(socket.remoteAddress !== undefined
      ? {
          remote: {
            address: socket.remoteAddress,
            ...(socket.remotePort !== undefined ? { port: socket.remotePort } : {}),
          },
        }
      : {}),
    secure: false,
  };
}

function makeStorage(kind: 'dexie' | 'memory', profile: ProfileName): Storage {
  if (kind === 'memory') return createMemoryStorage();
  // One in-memory database per host instance, so several hosts in one process stay apart.
  return createDexieStorage({
    name: `orch-sandbox-${profile}-${process.pid}-${++dbCounter}`,
    indexedDB,
    IDBKeyRange,
  });
}

export async function startNodeHost(options: NodeHostOptions = {}): Promise<NodeHost> {
  const profile = options.profile ?? 'orch';
  const token = randomBytes(24).toString('base64url');
  const storage = makeStorage(options.storage ?? 'memory', profile);
  const api = createApiServer({
    storage,
    profile,
    adminTokens: [token],
    runtimeConfig: options.runtimeConfig,
    featureGates: options.featureGates,
    compactionIntervalMs: options.compactionIntervalMs,
    watchBookmarkIntervalMs: options.watchBookmarkIntervalMs,
  });
  await api.ready;
  const listener = getRequestListener(
    (request: Request, env: { incoming: { socket: IncomingMessage['socket'] } }) =>
      api.fetch(request, connectionOf(env.incoming)).then(bytesBodyForRawHeaders),
    {
      hostname: options.host ?? '127.0.0.1',
      // The adapter could not build a Request (a Host header it refuses): 400 as a Status, like every other error.
      errorHandler: (error: unknown) =>
        new Response(statusBody(400, 'BadRequest', error instanceof Error ? error.message : String(error)), {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
        }),
    },
  );
  const http = createServer(
    { maxHeaderSize: maxHeaderBytes },
    (incoming: IncomingMessage, outgoing: ServerResponse) => {
      rewriteIncomingTarget(incoming);
      void listener(incoming, outgoing);
    },
  );
  http.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  if (options.kubeconfig !== undefined) await writeKubeconfig(options.kubeconfig, url, token);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    token,
    api,
    storage,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          // Open watches end when the server closes; idle keep-alive sockets go now.
          (http as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          void api.close();
        });
        await api.close();
      })();
      return closing;
    },
  };
}
