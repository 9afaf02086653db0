/**
 * The app shell for offline use, and the page's own files on a reload. Once
 * the page's first requests are answered, the worker caches the files the
 * build emitted (the list is injected at build time), `/index.html` last, so
 * a cache holding `/index.html` holds the whole shell. While installing it
 * declares static routes (Chrome's `InstallEvent.addRoutes`): `/assets/*`
 * and the navigation to `/` are answered from this build's cache by the
 * browser itself, without a `fetch` event on the worker's thread, which on
 * a reload is busy answering the page's first API requests. Same-origin GETs
 * that reach the `fetch` event and are not API requests are answered
 * cache-first with the network as fallback, and a navigation that the
 * network cannot answer gets the cached `index.html`. Each build has its own
 * cache, and older ones are dropped when a new worker activates.
 */

import manifest from 'virtual:orch-shell-manifest';

const CACHE_PREFIX = 'orch-sandbox-shell-';
const cacheName = `${CACHE_PREFIX}${manifest.version}`;

/** Under the dev server nothing is cached, so that edited modules are never stale. */
export const shellCachingEnabled = !manifest.dev;

/** One rule of Chrome's static router (a URL pattern and the cache that answers it). */
export interface ShellRoute {
  condition: {
    urlPattern: { baseURL: string; pathname: string; search?: string };
    requestMethod: string;
    requestMode?: string;
  };
  source: { cacheName: string };
}

/**
 * The static routes: the hashed build files and the navigation to `/`, from this build's cache. A file not
 * there yet (a first visit's lazy chunk before the fill) goes to the network, as the `fetch` event would send it.
 */
export function shellRoutes(origin: string): ShellRoute[] {
  if (!shellCachingEnabled) return [];
  const source = { cacheName };
  return [
    { condition: { urlPattern: { baseURL: origin, pathname: '/assets/*' }, requestMethod: 'GET' }, source },
    {
      condition: {
        urlPattern: { baseURL: origin, pathname: '/', search: '' },
        requestMethod: 'GET',
        requestMode: 'navigate',
      },
      source,
    },
  ];
}

/**
 * Fills this build's cache with what it does not hold yet, `/index.html` last (so a cache holding it holds
 * the whole shell). Best effort: a failure leaves the API working, only offline use is lost.
 */
export async function precacheShell(): Promise<void> {
  if (!shellCachingEnabled) return;
  try {
    const cache = await caches.open(cacheName);
    const held = new Set((await cache.keys()).map((request) => pathOf(request.url)));
    const missing = manifest.urls.filter((url) => url !== '/index.html' && !held.has(url));
    await Promise.all(missing.map((url) => putFetched(cache, url)));
    await putFetched(cache, '/index.html');
  } catch (error) {
    console.warn('orch-sandbox: precaching the app shell failed; offline use is unavailable', error);
  }
}

/**
 * Puts `url`'s answer in `cache` without its `Vary`: the server may send `Vary: Origin`, and the page's module
 * loads carry an Origin header the worker's fetch had not, so the static router (which cannot ignore `Vary`)
 * would miss every script. The files are this build's own, the same whoever asks.
 */
async function putFetched(cache: Cache, url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  if (!response.headers.has('vary')) return cache.put(url, response);
  const headers = new Headers(response.headers);
  headers.delete('vary');
  const { status, statusText } = response;
  return cache.put(url, new Response(response.body, { status, statusText, headers }));
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** Fills the cache when an earlier fill did not finish (the worker was stopped, or the network failed). */
export async function ensureShellCached(): Promise<void> {
  if (!shellCachingEnabled) return;
  if ((await cachedShellFile('/index.html')) === undefined) await precacheShell();
}

/** Deletes the caches of earlier builds. */
export async function dropOldShellCaches(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName)
      .map((name) => caches.delete(name)),
  );
}

/** A file of this build's shell cache, when it is there already. */
export async function cachedShellFile(url: string): Promise<Response | undefined> {
  if (!shellCachingEnabled) return undefined;
  return (await caches.open(cacheName)).match(url, { ignoreVary: true });
}

/** Answers a same-origin request that is not for the API. */
export async function shellResponse(request: Request): Promise<Response> {
  if (!shellCachingEnabled || request.method !== 'GET') return fetch(request);
  const cache = await caches.open(cacheName);
  // The server may send `Vary: Origin`; the precache requests had no Origin header, the page's module loads do.
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached !== undefined) return cached;
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode === 'navigate') {
      const index = await cache.match('/index.html', { ignoreVary: true });
      if (index !== undefined) return index;
    }
    throw error;
  }
}
