/**
 * The service worker entry (`/sw.js`, scope `/`): the browser host of the API
 * server. Its `fetch` listener routes same-origin requests through MSW's
 * handlers (API prefixes → the server core, plus the stream probe), and lets
 * unmatched ones fall through to the shell cache or the network. It takes over
 * at once (`skipWaiting` + `clients.claim`) so a first visit is served without
 * a reload. Streamed responses go straight to `respondWith`, never into
 * `waitUntil`, which Chrome ends after about five minutes.
 */

// First: msw reads localStorage while its modules are evaluated.
import './local-storage-shim';
import { getResponse } from 'msw';
import type { Status } from '../../../api/meta';
import { CLAIM_MESSAGE } from '../messages';
import { apiHandlers } from './api-routes';
import { apiServer, profileFromScriptUrl } from './server-instance';
import { dropOldShellCaches, precacheShell, shellResponse } from './shell-cache';
import { probeHandlers } from './stream-probe';
import { benchFloorHandler } from './bench-floor';

declare const self: ServiceWorkerGlobalScope;

const profile = profileFromScriptUrl(self.location.href);
const origin = self.location.origin;
const handlers = [benchFloorHandler(origin), ...apiHandlers(origin, serveApi), ...probeHandlers(origin)];

self.addEventListener('install', (event) => {
  event.waitUntil(precacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([dropOldShellCaches(), self.clients.claim()]));
});

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === CLAIM_MESSAGE) {
    event.waitUntil(self.clients.claim());
  }
});

self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).origin !== origin) return;
  event.respondWith(route(event.request));
});

async function route(request: Request): Promise<Response> {
  const answered = await getResponse(handlers, request);
  return answered ?? shellResponse(request);
}

async function serveApi(request: Request): Promise<Response> {
  let server;
  try {
    server = await apiServer(profile);
  } catch (error) {
    return unavailable(error);
  }
  return server.fetch(request);
}

function unavailable(error: unknown): Response {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the in-browser API server could not start: ${error instanceof Error ? error.message : String(error)}`,
    reason: 'ServiceUnavailable',
    code: 503,
  };
  return Response.json(status, { status: 503 });
}
