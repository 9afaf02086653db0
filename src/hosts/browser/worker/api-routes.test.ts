// The worker's one API route: every prefix the server answers goes to it (and nothing else of the origin, nor
// another origin), and the benches' trivial handler is asked first inside it.
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiHandlers, pathOfSameOrigin } from './api-routes';
import { benchFloor } from './bench-floor';

const origin = 'https://sandbox.test';

describe('apiHandlers', () => {
  const served: string[] = [];
  const handlers = apiHandlers(
    origin,
    (request) => {
      served.push(new URL(request.url).pathname);
      return Promise.resolve(new Response('served'));
    },
    benchFloor,
  );
  const answer = async (url: string, headers: Record<string, string> = {}) => {
    const response = await getResponse(handlers, new Request(url, { headers }));
    return response === undefined ? undefined : response.text();
  };

  it('sends every API prefix to the server through one handler', async () => {
    expect(handlers).toHaveLength(1);
    for (const path of ['/api', '/api/v1/namespaces', '/apis/apps/v1', '/version', '/sandbox/v1/identities'])
      expect(await answer(`${origin}${path}`), path).toBe('served');
    expect(served).toEqual([
      '/api',
      '/api/v1/namespaces',
      '/apis/apps/v1',
      '/version',
      '/sandbox/v1/identities',
    ]);
  });

  it('leaves the shell, look-alike prefixes and other origins alone', async () => {
    served.length = 0;
    for (const url of [
      `${origin}/`,
      `${origin}/apisx`,
      `${origin}/assets/app.js`,
      'https://other.test/api/v1',
    ])
      expect(await answer(url), url).toBeUndefined();
    expect(served).toEqual([]);
  });

  it('answers the benches floor itself, without the server', async () => {
    served.length = 0;
    expect(
      JSON.parse(
        (await answer(`${origin}/api/v1/namespaces/default/configmaps/x`, { 'x-bench-floor': '1' })) ?? '',
      ),
    ).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'floor' } });
    expect(served).toEqual([]);
  });

  it('answers the benches Blob floor with the same body, without the server', async () => {
    served.length = 0;
    const asString = await answer(`${origin}/api/v1/namespaces/default/configmaps/x`, {
      'x-bench-floor': '1',
    });
    for (let i = 0; i < 2; i++)
      expect(
        await answer(`${origin}/api/v1/namespaces/default/configmaps/x`, { 'x-bench-floor': 'blob' }),
      ).toBe(asString);
    expect(served).toEqual([]);
  });
});

describe('pathOfSameOrigin', () => {
  it('reads the path a URL parser would, without the query or fragment', () => {
    for (const url of [
      `${origin}/`,
      `${origin}/api/v1/namespaces?watch=1`,
      `${origin}/apis/apps/v1#x?y`,
      `${origin}/sandbox/v1/identities?certificates=deferred#top`,
      `${origin}/api/v1/namespaces/a%2Fb/configmaps`,
    ])
      expect(pathOfSameOrigin(url, origin), url).toBe(new URL(url).pathname);
  });
});
