/**
 * The service worker entry (`/sw.js`, scope `/`): the browser host of the API
 * server. Its `fetch` listener routes same-origin requests through MSW's
 * handlers (API prefixes → the server core, plus the stream probe), and lets
 * unmatched ones fall through to the shell cache or the network. It takes over
 * at once (`skipWaiting` + `clients.claim`) so a first visit is served without
 * a reload (on a first install the server starts while it installs), declares
 * static routes for the page's own files (shell-cache.ts), and fills the
 * offline shell cache only once the page's first requests are answered: the
 * page that installed it already has its files, and filling the cache would
 * hold back its first screen. Streamed responses go straight to
 * `respondWith`, never into `waitUntil`, which Chrome ends after about five
 * minutes.
 */

// Before anything: the moment the script's evaluation begins (bench timeline).
import './script-start-mark';
// Then: msw reads localStorage while its modules are evaluated.
import './local-storage-shim';
import { getResponse, type RequestHandler } from 'msw';
import type { Status } from '../../../api/meta';
import { CLAIM_MESSAGE, PAGE_COMING_MESSAGE } from '../messages';
import { apiHandlers, isApiPath, pathOfSameOrigin } from './api-routes';
import { withBodyAside, withBodyBack } from './request-body';
import { apiServer, profileFromScriptUrl, startedApiServer } from './server-instance';
import {
  dropOldShellCaches,
  ensureShellCached,
  precacheShell,
  shellResponse,
  shellRoutes,
  type ShellRoute,
} from './shell-cache';
import { probeHandlers } from './stream-probe';
import { benchFloor } from './bench-floor';
import { setLazyModuleLoader } from '../../../machinery/lazy-module';
import { setReadBodiesWhole } from '../../../server/index';
import { answering } from '../../../machinery/after-answer';
import { loadLazyModule, prefetchLazyModule } from './lazy-modules';

declare const self: ServiceWorkerGlobalScope;

setLazyModuleLoader(loadLazyModule);
// Every body here comes from a page this worker controls, already in the browser's memory (http/body.ts).
setReadBodiesWhole(true);
// On the worker's performance timeline, for `npm run bench -- timeline` (bench/first-visit-timeline.ts).
performance.mark('orch:evaluated');
const profile = profileFromScriptUrl(self.location.href);
const origin = self.location.origin;
// A first install: no other worker serves this scope, so none writes the store, and the server starts now,
// while the browser installs and activates this worker and the page gets ready to ask, instead of after
// activation. An update (an older worker active or waiting) starts it only once this one takes over. Started
// from a microtask (still before `install`), as every start below, so that no stack taken while the server
// is built holds this script's top level (see `requestHandlers`). The page's first list is a Table: the
// table printers' script is fetched meanwhile (not run), not after it is asked — from the microtask too: a
// fetch called from the top level cost 150–400 ms here (the stack again).
if (self.registration.active === null && self.registration.waiting === null)
  queueMicrotask(() => {
    prefetchLazyModule('table-printers');
    // The definitions the start does not carry (0134): the post-start writes load them right after the first
    // screen, before the shell cache holds them.
    prefetchLazyModule('builtin-definitions');
    void apiServer(profile).catch(() => undefined);
    // The request handlers too, in the next task: the thread then waits for the browser's install and
    // IndexedDB's creation of the store, where the page's first request (at activation) would make them
    // while the server's start runs (0109).
    setTimeout(() => requestHandlers(), 0);
  });
/**
 * The MSW handlers, made by the first fetch event. MSW notes where each handler was made (a `new Error()`);
 * made during this script's evaluation, that stack holds the script's top level, whose source positions V8
 * then computes by parsing the whole 0.9 MB script again (0.2–0.5 s on a loaded machine, measured), all
 * before the worker can install on a first visit. From a fetch event the stack holds only small functions.
 */
let handlers: RequestHandler[] | undefined;
const requestHandlers = (): RequestHandler[] =>
  (handlers ??= [
    ...apiHandlers(origin, (request) => serveApi(withBodyBack(request)), benchFloor),
    ...probeHandlers(origin),
  ]);

/** The server start and shell precache under way; fetch events keep the worker alive until they are done. */
let shellFilling: Promise<void> | undefined;

/**
 * Starts the server, then fills the shell cache once the page's first requests are answered (see
 * `deferPostStart`), so that the two do not compete for the worker's thread and the fill's forty-odd requests
 * do not queue the page's own (a lazy library the first list needs) behind them at the web server.
 */
function startServerThenFill(fill: () => Promise<void>): void {
  const filling = apiServer(profile)
    .then((server) => server.firstRequestsDone)
    .catch(() => undefined)
    .then(fill)
    .finally(() => {
      if (shellFilling === filling) shellFilling = undefined;
    });
  shellFilling = filling;
}

// A worker the browser starts again after stopping it idle is woken by a request (often a navigation, whose
// page then asks the API): the server starts now rather than at the first API request, and a shell fill that
// an earlier run did not finish is done again.
if (self.serviceWorker.state === 'activated') queueMicrotask(() => startServerThenFill(ensureShellCached));

self.addEventListener('install', (event) => {
  performance.mark('orch:install');
  // The page's own files from the cache without this thread where Chrome can (shell-cache.ts); a browser
  // without static routes sends them through the fetch event as before.
  const routed = (event as ExtendableEvent & { addRoutes?: (rules: ShellRoute[]) => Promise<void> })
    .addRoutes?.(shellRoutes(origin))
    .catch((error: unknown) => console.warn('orch-sandbox: static routes refused', error));
  event.waitUntil(Promise.all([self.skipWaiting(), routed]));
});

self.addEventListener('activate', (event) => {
  performance.mark('orch:activate');
  // Fetch events wait for activation to finish, so the server's start and the precache run after it, not
  // inside it: the server starts at once, before the page's first request.
  event.waitUntil(Promise.all([dropOldShellCaches(), self.clients.claim()]));
  startServerThenFill(precacheShell);
});

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (type === CLAIM_MESSAGE) event.waitUntil(self.clients.claim());
  // A page of this scope is going away (most often a reload): the next page's first requests are coming.
  else if (type === PAGE_COMING_MESSAGE) startedApiServer()?.pageComing();
});

self.addEventListener('fetch', (event) => {
  // A request's URL is serialized: it is of this origin exactly when it starts with the origin and a slash.
  if (!event.request.url.startsWith(originSlash)) return;
  if (shellFilling !== undefined) event.waitUntil(shellFilling);
  // The server's work left after an answer (audit events, request metrics) runs once this answer has been
  // handed over (machinery/after-answer.ts): `respondWith` took its reaction to the promise first.
  const handedOver = answering();
  const answered = route(event.request);
  event.respondWith(answered);
  answered.then(handedOver, handedOver);
});

const originSlash = `${origin}/`;

async function route(request: Request): Promise<Response> {
  // An API request's body goes around MSW, whose clone of a request with a body is its costliest step
  // (request-body.ts); every other request keeps its body, as it may go on to the network.
  const api = isApiPath(pathOfSameOrigin(request.url, origin));
  const answered = await getResponse(requestHandlers(), api ? withBodyAside(request) : request);
  return answered ?? shellResponse(request);
}

function serveApi(request: Request): Promise<Response> {
  // Once started, the server answers at once: no turn of the microtask queue here before its pipeline.
  const server = startedApiServer();
  return server !== undefined ? server.fetch(request) : serveOnceStarted(request);
}

async function serveOnceStarted(request: Request): Promise<Response> {
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
