import { describe, expect, it } from 'vitest';
import { createClient, TABLE_ACCEPT } from '../../client/index';
import { EarlyAnswers, earlyFetch } from './early-answers';
import { aggregatedDiscoveryAccept } from '../../client/discovery';
import { askFirstScreen, firstScreenReads } from './first-screen';

const base = 'http://sandbox.test';

/** A server that counts what reaches it and answers each path with its own name. */
function counting() {
  const seen: string[] = [];
  const send = (request: Request) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search} ${request.headers.get('accept') ?? ''}`);
    const body =
      url.pathname === '/api' || url.pathname === '/apis'
        ? { kind: 'APIGroupDiscoveryList', items: [] }
        : { kind: 'List', path: url.pathname, items: [], metadata: { resourceVersion: '7' } };
    return Promise.resolve(Response.json(body));
  };
  return { seen, send };
}

function setUp(version = () => 0, ttlMs?: number) {
  const server = counting();
  const early = new EarlyAnswers(server.send, version, ttlMs);
  const client = createClient({ baseUrl: base, fetch: earlyFetch(early, server.send) });
  const asking = createClient({ baseUrl: base, fetch: (request) => early.ask(request) });
  return { server, early, client, asking };
}

describe('early answers', () => {
  it("hands the first screen's reads to the components' own requests, each once", async () => {
    const { server, early, client, asking } = setUp();
    askFirstScreen(asking, { view: 'explorer', params: {} });
    expect(server.seen).toHaveLength(3);
    // The same calls the discovery provider and the live table make.
    await client.discovery();
    const list = await client.send<{ path: string }>('GET', '/api/v1/namespaces/default/configmaps', {
      accept: TABLE_ACCEPT,
    });
    expect(list.body.path).toBe('/api/v1/namespaces/default/configmaps');
    expect(server.seen).toHaveLength(3);
    expect(early.size()).toBe(0);
    // Taken once: the next read is the server's again.
    await client.discovery();
    expect(server.seen).toHaveLength(5);
  });

  it('asks the list the route names, or none when discovery must name its path', () => {
    const inNamespace = setUp();
    askFirstScreen(inNamespace.asking, { view: 'explorer', params: { kind: 'v1/configmaps', ns: '*' } });
    expect(inNamespace.server.seen).toContain(`GET /api/v1/configmaps ${TABLE_ACCEPT}`);
    const other = setUp();
    askFirstScreen(other.asking, { view: 'explorer', params: { kind: 'apps/v1/deployments' } });
    // Only the reads the usable screen waits for: the namespaces and the version wait for it to be shown.
    expect(other.server.seen.map((s) => s.split(' ')[1])).toEqual(['/api', '/apis']);
    // The tab's last discovery names the route's kind: its list goes too, at the path the explorer will ask.
    const cached = setUp();
    const deployments = {
      name: 'deployments',
      singularName: 'deployment',
      namespaced: true,
      kind: 'Deployment',
      verbs: ['list', 'watch'],
    };
    askFirstScreen(
      cached.asking,
      { view: 'explorer', params: { kind: 'apps/v1/deployments', ns: 'demo' } },
      {
        groupVersions: [
          {
            group: 'apps',
            version: 'v1',
            groupVersion: 'apps/v1',
            preferred: true,
            resources: [deployments],
          },
        ],
        failed: [],
      },
    );
    expect(cached.server.seen).toContain(`GET /apis/apps/v1/namespaces/demo/deployments ${TABLE_ACCEPT}`);
    const elsewhere = setUp();
    askFirstScreen(elsewhere.asking, { view: 'console', params: {} });
    expect(elsewhere.server.seen).toHaveLength(3);
  });

  it('does not match another Accept, another method or another identity', async () => {
    let version = 0;
    const { server, early, client, asking } = setUp(() => version);
    void asking.raw('GET', '/api/v1/namespaces');
    void asking.raw('GET', '/version');
    await client.send('GET', '/api/v1/namespaces', { accept: TABLE_ACCEPT });
    await client.send('POST', '/api/v1/namespaces', { body: {} });
    expect(server.seen).toHaveLength(4);
    version = 1;
    await client.raw('GET', '/version');
    expect(server.seen).toHaveLength(5);
    // Unmatched requests left the early answers (the namespaces, /version) for their rightful takers: a
    // request of the identity they were asked as.
    expect(early.size()).toBe(2);
    version = 0;
    await client.raw('GET', '/version');
    expect(server.seen).toHaveLength(5);
    expect(early.size()).toBe(1);
  });

  it('asks again, rather than share, when an answer waits from another identity version', async () => {
    let version = 0;
    const { server, early, client, asking } = setUp(() => version);
    void asking.raw('GET', '/version');
    version = 1;
    void asking.raw('GET', '/version');
    expect(server.seen).toHaveLength(2);
    await client.raw('GET', '/version');
    expect(server.seen).toHaveLength(2);
    expect(early.size()).toBe(0);
  });

  it('drops an answer nobody took within its window', async () => {
    const { server, early, client, asking } = setUp(() => 0, 10);
    void asking.raw('GET', '/version');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(early.size()).toBe(0);
    await client.raw('GET', '/version');
    expect(server.seen).toHaveLength(2);
  });

  it('adopts what the page asked before the store existed, and sends again when that failed', async () => {
    const { server, early, client } = setUp();
    const json = { headers: { accept: 'application/json' } };
    void early.adopt(
      new Request(`${base}/version`, json),
      Promise.resolve(Response.json({ gitVersion: 'early' })),
    );
    void early.adopt(
      new Request(`${base}/api/v1/namespaces`, json),
      Promise.reject(new TypeError('no token')),
    );
    expect(await (await client.raw('GET', '/version')).json()).toEqual({ gitVersion: 'early' });
    const namespaces = await client.send<{ path: string }>('GET', '/api/v1/namespaces');
    expect(namespaces.body.path).toBe('/api/v1/namespaces');
    expect(server.seen).toEqual(['GET /api/v1/namespaces application/json']);
  });

  it('keeps for index.html the reads the usable screen waits for, the list first', () => {
    expect(firstScreenReads({ view: 'explorer', params: { ns: 'demo' } }, undefined)).toEqual([
      { path: '/api/v1/namespaces/demo/configmaps', accept: TABLE_ACCEPT },
      { path: '/api', accept: aggregatedDiscoveryAccept },
      { path: '/apis', accept: aggregatedDiscoveryAccept },
    ]);
    // Another view has no namespace picker and no usable mark to wait for: the header's version goes too.
    expect(firstScreenReads({ view: 'console', params: {} }, undefined).map((r) => r.path)).toEqual([
      '/api',
      '/apis',
      '/version',
    ]);
  });

  it("rejects as the UI's own fetch would when its request is aborted first", async () => {
    const early = new EarlyAnswers(
      () => new Promise<Response>(() => undefined),
      () => 0,
    );
    void early.ask(new Request(`${base}/version`));
    const abort = new AbortController();
    const taken = earlyFetch(early, () => Promise.reject(new Error('not taken')))(
      new Request(`${base}/version`, { signal: abort.signal }),
    );
    abort.abort();
    await expect(taken).rejects.toMatchObject({ name: 'AbortError' });
  });
});
