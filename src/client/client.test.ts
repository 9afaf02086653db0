/**
 * Unit tests of the client against a fake `fetch`: the URLs and methods it
 * sends, and that a failure surfaces the server's Status body.
 */

import { describe, expect, it } from 'vitest';
import { ApiError, createClient, parseApiVersion, resourcePath } from './index';

function recorder(answer: (request: Request) => Response = () => Response.json({})) {
  const seen: { method: string; url: string; contentType: string | null; body: string }[] = [];
  const fetch = async (request: Request) => {
    seen.push({
      method: request.method,
      url: request.url,
      contentType: request.headers.get('content-type'),
      body: await request.text(),
    });
    return answer(request);
  };
  return { seen, client: createClient({ baseUrl: 'http://sandbox.test', fetch }) };
}

describe('resourcePath', () => {
  it('puts the core group under /api and named groups under /apis', () => {
    expect(resourcePath({ group: '', version: 'v1', resource: 'namespaces' })).toBe('/api/v1/namespaces');
    expect(
      resourcePath({
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
      }),
    ).toBe('/apis/apps/v1/namespaces/default/deployments/web');
    expect(
      resourcePath({
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: 'a',
        name: 'p',
        subresource: 'status',
      }),
    ).toBe('/api/v1/namespaces/a/pods/p/status');
  });

  it('refuses a subresource without a name and empty segments', () => {
    expect(() => resourcePath({ group: '', version: 'v1', resource: 'pods', subresource: 'status' })).toThrow(
      TypeError,
    );
    expect(() => resourcePath({ group: '', version: 'v1', resource: 'pods', name: '' })).toThrow(TypeError);
  });

  it('splits apiVersion', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
  });
});

describe('createClient', () => {
  it('sends each verb to its path', async () => {
    const { seen, client } = recorder();
    const cm = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };
    await client.list(cm, { labelSelector: 'a=b', limit: undefined });
    await client.create({ ...cm, name: 'ignored' }, { metadata: { name: 'x' } });
    await client.get({ ...cm, name: 'x' });
    await client.update({ ...cm, name: 'x' }, { metadata: { name: 'x' } });
    await client.patch({ ...cm, name: 'x' }, { data: { k: 'v' } }, 'application/merge-patch+json');
    await client.patch({ ...cm, name: 'x' }, 'data: {}\n', 'application/apply-patch+yaml', {
      fieldManager: 'me',
    });
    await client.delete({ ...cm, name: 'x' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET http://sandbox.test/api/v1/namespaces/default/configmaps?labelSelector=a%3Db',
      'POST http://sandbox.test/api/v1/namespaces/default/configmaps',
      'GET http://sandbox.test/api/v1/namespaces/default/configmaps/x',
      'PUT http://sandbox.test/api/v1/namespaces/default/configmaps/x',
      'PATCH http://sandbox.test/api/v1/namespaces/default/configmaps/x',
      'PATCH http://sandbox.test/api/v1/namespaces/default/configmaps/x?fieldManager=me',
      'DELETE http://sandbox.test/api/v1/namespaces/default/configmaps/x',
    ]);
    expect(seen[4]).toMatchObject({
      contentType: 'application/merge-patch+json',
      body: '{"data":{"k":"v"}}',
    });
    expect(seen[5]).toMatchObject({ contentType: 'application/apply-patch+yaml', body: 'data: {}\n' });
  });

  it('throws ApiError with the Status body of a failure', async () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' },
      code: 404,
    };
    const { client } = recorder(() => Response.json(status, { status: 404 }));
    const error = await client
      .get({ group: '', version: 'v1', resource: 'configmaps', namespace: 'd', name: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).reason).toBe('NotFound');
    expect((error as ApiError).status).toEqual(status);
    expect((error as ApiError).message).toBe('configmaps "x" not found');
  });

  it('wraps a non-Status failure body in a Status', async () => {
    const { client } = recorder(() => new Response('upstream down', { status: 503 }));
    const error = (await client
      .list({ group: '', version: 'v1', resource: 'namespaces' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toMatchObject({ kind: 'Status', code: 503, message: 'upstream down' });
  });

  it('flattens discovery and reports a failing group version', async () => {
    const { client } = recorder((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/api') return Response.json({ kind: 'APIVersions', versions: ['v1'] });
      if (path === '/apis')
        return Response.json({
          kind: 'APIGroupList',
          groups: [
            {
              name: 'apps',
              versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
              preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
            },
            { name: 'broken.example', versions: [{ groupVersion: 'broken.example/v1', version: 'v1' }] },
          ],
        });
      if (path === '/api/v1')
        return Response.json({
          kind: 'APIResourceList',
          groupVersion: 'v1',
          resources: [
            { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get'] },
            { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
          ],
        });
      if (path === '/apis/apps/v1')
        return Response.json({ kind: 'APIResourceList', groupVersion: 'apps/v1', resources: [] });
      return Response.json({ kind: 'Status', code: 503, reason: 'ServiceUnavailable' }, { status: 503 });
    });
    const found = await client.discovery();
    expect(found.groupVersions.map((gv) => [gv.groupVersion, gv.resources.map((r) => r.name)])).toEqual([
      ['v1', ['pods']],
      ['apps/v1', []],
    ]);
    expect(found.failed.map((f) => f.groupVersion)).toEqual(['broken.example/v1']);
  });

  it('reads the aggregated discovery documents in two requests when the server offers them', async () => {
    const { client, seen } = recorder((request) => {
      const path = new URL(request.url).pathname;
      const accept = request.headers.get('accept') ?? '';
      if (!accept.includes('as=APIGroupDiscoveryList')) return Response.json({}, { status: 500 });
      const resources = [
        {
          resource: 'deployments',
          responseKind: { kind: 'Deployment' },
          scope: 'Namespaced',
          verbs: ['get'],
        },
      ];
      if (path === '/api')
        return Response.json({
          kind: 'APIGroupDiscoveryList',
          items: [
            {
              versions: [
                {
                  version: 'v1',
                  resources: [
                    {
                      resource: 'namespaces',
                      responseKind: { kind: 'Namespace' },
                      scope: 'Cluster',
                      singularResource: 'namespace',
                      verbs: ['get', 'list'],
                      shortNames: ['ns'],
                    },
                  ],
                },
              ],
            },
          ],
        });
      return Response.json({
        kind: 'APIGroupDiscoveryList',
        items: [
          {
            metadata: { name: 'apps' },
            versions: [
              { version: 'v1', resources },
              { version: 'v1beta1', resources, freshness: 'Current' },
            ],
          },
          { metadata: { name: 'stale.example' }, versions: [{ version: 'v1', freshness: 'Stale' }] },
        ],
      });
    });
    const found = await client.discovery();
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api', '/apis']);
    expect(found.groupVersions.map((gv) => [gv.groupVersion, gv.preferred])).toEqual([
      ['v1', true],
      ['apps/v1', true],
      ['apps/v1beta1', false],
    ]);
    expect(found.groupVersions[0]?.resources).toEqual([
      {
        name: 'namespaces',
        singularName: 'namespace',
        namespaced: false,
        kind: 'Namespace',
        verbs: ['get', 'list'],
        shortNames: ['ns'],
      },
    ]);
    expect(found.failed.map((f) => f.groupVersion)).toEqual(['stale.example/v1']);
  });

  it('reads watch events split across chunks', async () => {
    const lines =
      '{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"DELE' + 'TED","object":{}}\n';
    const { client } = recorder(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              const bytes = new TextEncoder().encode(lines);
              controller.enqueue(bytes.slice(0, 60));
              controller.enqueue(bytes.slice(60));
              controller.close();
            },
          }),
        ),
    );
    const types: string[] = [];
    for await (const event of client.watch({ group: '', version: 'v1', resource: 'configmaps' }))
      types.push(event.type);
    expect(types).toEqual(['ADDED', 'DELETED']);
  });
});
