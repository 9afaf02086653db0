/**
 * The app shell for offline use. Once active, the worker precaches the files
 * the build emitted (the list is injected at build time) in one atomic
 * `addAll`, so a cache holding `/index.html` holds the whole shell; same-origin GETs
 * that are not API requests are answered cache-first with the network as
 * fallback, and a navigation that the network cannot answer gets the cached
 * `index.html`. Each build has its own cache, and older ones are dropped when
 * a new worker activates.
 */

import manifest from 'virtual:orch-shell-manifest';

const CACHE_PREFIX = 'orch-sandbox-shell-';
const cacheName = `${CACHE_PREFIX}${manifest.version}`;

/** Under the dev server nothing is cached, so that edited modules are never stale. */
export const shellCachingEnabled = !manifest.dev;

/** Fills this build's cache. Best effort: a failure leaves the API working, only offline use is lost. */
export async function precacheShell(): Promise<void> {
  if (!shellCachingEnabled) return;
  try {
    const cache = await caches.open(cacheName);
    await cache.addAll(manifest.urls);
  } catch (error) {
    console.warn('orch-sandbox: precaching the app shell failed; offline use is unavailable', error);
  }
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
