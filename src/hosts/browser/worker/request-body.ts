/**
 * Request bodies kept beside MSW instead of inside the requests it routes.
 * MSW clones every request it routes (`RequestHandler.run`), and cloning a
 * request with a body tees the body's stream: the tee and the reads of a
 * branch cost 1.5–3 ms per request in Chromium, where reading the same body
 * once without a clone costs ~0.1 ms (decision 0068's profile: the largest
 * single item of a create in the worker). So an API request's body is read
 * whole first, MSW routes a copy of the request without it, and the handler
 * that answers puts the bytes back for the server core. The page's requests
 * carry whole bodies (it streams none up), so no request waits longer.
 */

const asideBodies = new WeakMap<Request, ArrayBuffer>();

/** `request` without its body (kept aside for `withBodyBack`); a request without a body as it is. */
export async function withBodyAside(request: Request): Promise<Request> {
  if (request.body === null) return request;
  const body = await request.arrayBuffer();
  // What the server core reads of a request: its URL, method, headers and signal (a client going away).
  const bare = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
  });
  asideBodies.set(bare, body);
  return bare;
}

/** The request `withBodyAside` made, with its body back; any other request as it is. */
export function withBodyBack(request: Request): Request {
  const body = asideBodies.get(request);
  return body === undefined ? request : new Request(request, { body });
}
