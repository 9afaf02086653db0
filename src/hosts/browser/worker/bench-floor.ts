/**
 * The benchmark's floor in the browser host: a request carrying the header
 * `x-bench-floor: 1` is answered with a constant JSON body, on the same path
 * and through the same worker (the API's own MSW route handler asks this
 * first), without touching the server core; `x-bench-floor: blob` with the
 * same body as a Blob made once, as a kept GET is answered (decision 0087).
 * `npm run bench` compares the API's figures with both; nothing else sends
 * that header.
 */

const constant = JSON.stringify({
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name: 'floor', namespace: 'default', resourceVersion: '1' },
  data: { k: 'v' },
});
let constantBlob: Blob | undefined;

/** Asked first inside the API's route handler (api-routes.ts), so that the floor and the API take one route. */
export const benchFloor = {
  matches: (request: Request): boolean => {
    const floor = request.headers.get('x-bench-floor');
    return floor === '1' || floor === 'blob';
  },
  answer: (request: Request): Response =>
    new Response(
      request.headers.get('x-bench-floor') === 'blob'
        ? (constantBlob ??= new Blob([constant], { type: 'application/json' }))
        : constant,
      { status: request.method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json' } },
    ),
};
