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

/** True when `pathname` is one the API server answers. */
export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) => isUnderPrefix(pathname, prefix));
}

/**
 * One handler sending the matching requests to `serve`. `origin` is the
 * worker's own: the page may also fetch other origins, which are not ours.
 * One handler for every prefix, as MSW runs each handler in turn (parsing
 * the request's cookies before its predicate) until one matches: a handler
 * per prefix made a `/sandbox` request pay nine. `answerFirst` (the benches'
 * trivial handler) is asked inside it, so its answers take the same route.
 */
export function apiHandlers(
  origin: string,
  serve: (request: Request) => Promise<Response>,
  answerFirst?: { matches(request: Request): boolean; answer(request: Request): Promise<Response> },
): HttpHandler[] {
  return [
    http.all(
      ({ request }) => {
        const url = new URL(request.url);
        return url.origin === origin && (answerFirst?.matches(request) === true || isApiPath(url.pathname));
      },
      ({ request }) =>
        answerFirst?.matches(request) === true ? answerFirst.answer(request) : serve(request),
    ),
  ];
}
