// The controllers' Informer against a scripted server: events update the
// cache and reach the handlers, and the relist after a 410 Gone reports what
// changed while the watch was down (an update, a delete, an add) as
// differences against the cache, each list followed by `relisted`.
import { expect, it } from 'vitest';
import type { KubeObject } from '../api/meta';
import { createClient } from './client';
import { Informer } from './informer';

function configMap(name: string, resourceVersion: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion } };
}

it('keeps its cache by watch events and reports a relist as differences', async () => {
  const lists = [
    { rv: '10', items: [configMap('a', '5'), configMap('b', '6')] },
    { rv: '20', items: [configMap('a', '11'), configMap('c', '15')] },
  ];
  const watches = [
    [{ type: 'ADDED', object: configMap('d', '11') }],
    [
      { type: 'DELETED', object: configMap('d', '12') },
      {
        type: 'ERROR',
        object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410 },
      },
    ],
  ];
  const requests: string[] = [];
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.searchParams.get('watch') !== 'true') {
      const list = lists.shift();
      requests.push(`list -> ${list?.rv ?? 'none'}`);
      if (list === undefined) return Response.json({ code: 500 }, { status: 500 });
      return Response.json({
        kind: 'ConfigMapList',
        metadata: { resourceVersion: list.rv },
        items: list.items,
      });
    }
    requests.push(`watch ${url.searchParams.get('resourceVersion') ?? ''}`);
    const events = watches.shift();
    if (events === undefined) {
      done();
      // Held open until the informer stops.
      return new Response(new ReadableStream({ start: () => undefined }));
    }
    return new Response(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  };

  const seen: string[] = [];
  const informer = new Informer(
    createClient({ baseUrl: 'http://sandbox.test', fetch }),
    { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' },
    {
      add: (o) => seen.push(`add ${o.metadata?.name} ${o.metadata?.resourceVersion}`),
      update: (old, o) =>
        seen.push(
          `update ${o.metadata?.name} ${old.metadata?.resourceVersion}->${o.metadata?.resourceVersion}`,
        ),
      delete: (o) => seen.push(`delete ${o.metadata?.name}`),
      relisted: () => seen.push('relisted'),
    },
    { backoff: { initialMs: 1, jitter: 0 } },
  );
  informer.start();
  await informer.synced;
  expect(seen).toEqual(['add a 5', 'add b 6', 'relisted']);
  await finished;
  informer.stop();

  expect(seen).toEqual([
    'add a 5',
    'add b 6',
    'relisted',
    'add d 11',
    'delete d',
    'update a 5->11',
    'add c 15',
    'delete b',
    'relisted',
  ]);
  expect([...informer.cache.keys()].sort()).toEqual(['ns/a', 'ns/c']);
  expect(requests).toEqual(['list -> 10', 'watch 10', 'watch 11', 'list -> 20', 'watch 20']);
});

it('sends its selectors with the list and the watch, and caches only what it retains', async () => {
  const queries: string[] = [];
  let watching: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (watching = resolve));
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    queries.push(
      `${url.searchParams.get('watch') === 'true' ? 'watch' : 'list'} ${url.searchParams.get('fieldSelector') ?? ''}`,
    );
    if (url.searchParams.get('watch') !== 'true')
      return Response.json({
        kind: 'ConfigMapList',
        metadata: { resourceVersion: '10' },
        items: [configMap('kept', '5'), configMap('plain', '6')],
      });
    watching();
    return new Response(
      new ReadableStream({
        start: (c) =>
          c.enqueue(
            new TextEncoder().encode(
              `${JSON.stringify({ type: 'ADDED', object: configMap('other', '11') })}\n`,
            ),
          ),
      }),
    );
  };
  const added: string[] = [];
  let sawOther: () => void = () => undefined;
  const other = new Promise<void>((resolve) => (sawOther = resolve));
  const informer = new Informer(
    createClient({ baseUrl: 'http://sandbox.test', fetch }),
    { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' },
    {
      add: (o) => {
        added.push(o.metadata?.name ?? '');
        if (o.metadata?.name === 'other') sawOther();
      },
    },
    { query: { fieldSelector: 'metadata.name!=x' }, retain: (o) => o.metadata?.name === 'kept' },
  );
  informer.start();
  await informer.synced;
  await opened;
  await other;
  informer.stop();
  // Handlers hear of every object; the cache holds only the retained one.
  expect(added).toEqual(['kept', 'plain', 'other']);
  expect([...informer.cache.keys()]).toEqual(['ns/kept']);
  expect(queries).toEqual(['list metadata.name!=x', 'watch metadata.name!=x']);
});

it('lists in pages of 500 and reports the objects of every page', async () => {
  const pages: Record<string, { items: KubeObject[]; next?: string }> = {
    '': { items: [configMap('a', '5')], next: 't1' },
    t1: { items: [configMap('b', '6')] },
  };
  const lists: string[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.searchParams.get('watch') === 'true')
      return new Response(new ReadableStream({ start: () => undefined }));
    const token = url.searchParams.get('continue') ?? '';
    lists.push(`limit=${url.searchParams.get('limit') ?? ''} continue=${token}`);
    const page = pages[token];
    return Response.json({
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '10', ...(page?.next !== undefined ? { continue: page.next } : {}) },
      items: page?.items ?? [],
    });
  };
  const informer = new Informer(
    createClient({ baseUrl: 'http://sandbox.test', fetch }),
    { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' },
    {},
  );
  informer.start();
  await informer.synced;
  informer.stop();
  expect(lists).toEqual(['limit=500 continue=', 'limit=500 continue=t1']);
  expect([...informer.cache.keys()].sort()).toEqual(['ns/a', 'ns/b']);
});
