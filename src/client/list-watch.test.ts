// The list-then-watch loop against a scripted server: it lists, watches from
// the list's version, resumes from the last event's version when a stream
// ends, and lists again after a 410 ERROR event.
import { describe, expect, it } from 'vitest';
import { createClient } from './client';
import { listWatch } from './list-watch';

describe('listWatch', () => {
  it('resumes after a stream ends and relists after 410 Gone', async () => {
    const watches: string[] = [];
    const streams = [
      [{ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '11' } } }],
      [
        {
          type: 'ERROR',
          object: {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            code: 410,
            reason: 'Expired',
          },
        },
      ],
      [],
    ];
    const abort = new AbortController();
    const fetch = async (request: Request) => {
      const url = new URL(request.url);
      watches.push(url.searchParams.get('resourceVersion') ?? '');
      const events = streams.shift();
      if (events === undefined) abort.abort();
      return new Response((events ?? []).map((e) => `${JSON.stringify(e)}\n`).join(''));
    };
    const client = createClient({ baseUrl: 'http://sandbox.test', fetch });
    const seen: string[] = [];
    let lists = 0;
    await listWatch({
      client,
      ref: { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' },
      list: async () => String(++lists * 10),
      handlers: {
        onList: (rv) => seen.push(`list ${rv}`),
        onEvent: (event) => seen.push(`${event.type} ${event.object.metadata?.resourceVersion ?? ''}`),
        onGone: () => seen.push('gone'),
      },
      signal: abort.signal,
    });
    expect(seen).toEqual(['list 10', 'ADDED 11', 'gone', 'list 20']);
    expect(watches.slice(0, 3)).toEqual(['10', '11', '20']);
  });
});
