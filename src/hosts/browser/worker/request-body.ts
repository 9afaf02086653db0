/**
 * Request bodies kept beside MSW instead of inside the requests it routes.
 * MSW clones every request it routes (`RequestHandler.run`), and cloning a
 * request with a body tees the body's stream: the tee and the reads of a
 * branch cost 1.5–3 ms per request in Chromium, where reading the same body
 * once without a clone costs ~0.1 ms (decision 0068's profile: the largest
 * single item of a create in the worker). So MSW routes a copy of an API
 * request without its body, and the handler that answers hands the server
 * core the fetch event's own request, its body still unread: the body is
 * read once, by whoever answers (decision 0089; it used to be read here
 * first and put back into a third request for the server core to read again).
 */

const originals = new WeakMap<Request, Request>();

/** `request` without its body, for routing (`withBodyBack` gives the original back); a request without one as it is. */
export function withBodyAside(request: Request): Request {
  if (request.body === null) return request;
  // What the server core reads of a request: its URL, method, headers and signal (a client going away).
  const bare = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
  });
  originals.set(bare, request);
  return bare;
}

/** The request `withBodyAside` was given, its body unread; any other request as it is. */
export function withBodyBack(request: Request): Request {
  return originals.get(request) ?? request;
}
