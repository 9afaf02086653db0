/**
 * The benchmark's floor in the browser host: a request carrying the header
 * `x-bench-floor: 1` is answered with a constant JSON body by this
 * trivial MSW handler, on the same path and through the same worker, without
 * touching the server core. `npm run bench` compares the API's figures with
 * it; nothing else sends that header.
 */

import { http, type HttpHandler } from 'msw';

const constant = JSON.stringify({
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name: 'floor', namespace: 'default', resourceVersion: '1' },
  data: { k: 'v' },
});

export function benchFloorHandler(origin: string): HttpHandler {
  return http.all(
    ({ request }) => request.headers.get('x-bench-floor') === '1' && new URL(request.url).origin === origin,
    ({ request }) =>
      new Response(constant, {
        status: request.method === 'POST' ? 201 : 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
}
