/**
 * The MSW routing layer of the worker: one `http` handler per path prefix
 * the API server answers (`/api`, `/apis`, `/version`, …). A same-origin
 * request under one of them goes to the server core; everything else matches
 * no handler and falls through to the shell cache or the network.
 */

import { http, type HttpHandler } from 'msw';

/** Path prefixes answered by the in-browser API server. */
export const API_PREFIXES = [
  '/api',
  '/apis',
  '/version',
  '/openapi',
  '/healthz',
  '/livez',
  '/readyz',
  '/metrics',
  '/sandbox',
] as const;

/** True when `pathname` is `prefix` itself or below it (`/apis/x`, not `/apisx`). */
export function isUnderPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * Handlers that send the matching requests to `serve`. `origin` is the
 * worker's own: the page may also fetch other origins, which are not ours.
 */
export function apiHandlers(origin: string, serve: (request: Request) => Promise<Response>): HttpHandler[] {
  return API_PREFIXES.map((prefix) =>
    http.all(
      ({ request }) => {
        const url = new URL(request.url);
        return url.origin === origin && isUnderPrefix(url.pathname, prefix);
      },
      ({ request }) => serve(request),
    ),
  );
}
