/**
 * The MSW routing layer of the worker: one request handler for every path
 * prefix the API server answers (`/api`, `/apis`, `/version`, …). A
 * same-origin request under one of them goes to the server core; everything
 * else matches no handler and falls through to the shell cache or the
 * network.
 */

import { RequestHandler } from 'msw';

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
 * The path of `url` (a serialized URL of `origin`, as a fetch event's request's is), read from the string: what
 * `new URL(url).pathname` gives for such a URL, without parsing it (every request asks).
 */
export function pathOfSameOrigin(url: string, origin: string): string {
  let end = url.length;
  const query = url.indexOf('?', origin.length);
  if (query !== -1) end = query;
  const fragment = url.indexOf('#', origin.length);
  if (fragment !== -1 && fragment < end) end = fragment;
  return url.slice(origin.length, end);
}

/** The benches' trivial handler (bench-floor.ts), asked inside the API's route. */
export interface AnswerFirst {
  matches(request: Request): boolean;
  answer(request: Request): Promise<Response>;
}

/**
 * The API's one MSW handler. MSW runs it as any other (`getResponse`: the request's clone, the resolver, the
 * response's cookies), but matches it by our own predicate on the request's URL string: `http.all`'s parse
 * parses the URL and the request's cookies (and the cookie store's) on every request, for a predicate and a
 * resolver that read neither.
 */
class ApiRoute extends RequestHandler {
  private readonly originSlash: string;

  constructor(
    private readonly origin: string,
    serve: (request: Request) => Promise<Response>,
    private readonly answerFirst: AnswerFirst | undefined,
  ) {
    super({
      info: { header: 'orch-sandbox API' },
      resolver: ({ request }) =>
        answerFirst?.matches(request) === true ? answerFirst.answer(request) : serve(request),
    });
    this.originSlash = `${origin}/`;
  }

  override parse(): Promise<undefined> {
    return resolvedUndefined;
  }

  predicate({ request }: { request: Request }): boolean {
    const url = request.url;
    return (
      url.startsWith(this.originSlash) &&
      (this.answerFirst?.matches(request) === true || isApiPath(pathOfSameOrigin(url, this.origin)))
    );
  }

  log(): void {}
}

const resolvedUndefined = Promise.resolve(undefined);

/**
 * One handler sending the matching requests to `serve`. `origin` is the
 * worker's own: the page may also fetch other origins, which are not ours.
 * One handler for every prefix, as MSW runs each handler in turn until one
 * matches: a handler per prefix made a `/sandbox` request pay nine.
 * `answerFirst` (the benches' trivial handler) is asked inside it, so its
 * answers take the same route.
 */
export function apiHandlers(
  origin: string,
  serve: (request: Request) => Promise<Response>,
  answerFirst?: AnswerFirst,
): RequestHandler[] {
  return [new ApiRoute(origin, serve, answerFirst)];
}
