// The list-then-watch loop against a scripted server: it lists, watches from
// the list's version, resumes from the last event's version when a stream
// ends, lists again after 410 Gone, re-watches from the same version when the
// connection fails, and backs off between failures as the reflector does.
import { describe, expect, it } from 'vitest';
import type { Status } from '../api/meta';
import { createClient } from './client';
import { listWatch, type ListWatchOptions } from './list-watch';

const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };
// Short and without jitter, so tests are fast and the waits are exact.
const backoff = { initialMs: 1, maxMs: 4, jitter: 0 };

function status(code: number, reason: Status['reason']): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason };
}
function added(name: string, resourceVersion: string) {
  return { type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name, resourceVersion } } };
}
const gone = { type: 'ERROR', object: { ...status(410, 'Expired'), message: 'too old resource version' } };

/**
 * Runs the loop against watch answers taken in turn from `script` (events to stream, or a
 * failure of the request), aborting when the script runs out, and returns what happened.
 */
async function run(
  script: (unknown[] | (() => Response | never))[],
  overrides: Partial<ListWatchOptions['handlers']> = {},
): Promise<{ seen: string[]; watches: string[] }> {
  const seen: string[] = [];
  const watches: string[] = [];
  const abort = new AbortController();
  const fetch = async (request: Request) => {
    watches.push(new URL(request.url).searchParams.get('resourceVersion') ?? '');
    const step = script.shift();
    if (step === undefined) abort.abort();
    if (typeof step === 'function') return step();
    return new Response((step ?? []).map((e) => `${JSON.stringify(e)}\n`).join(''));
  };
  let lists = 0;
  await listWatch({
    client: createClient({ baseUrl: 'http://sandbox.test', fetch }),
    ref,
    list: async () => String(++lists * 10),
    backoff,
    handlers: {
      onList: (rv) => seen.push(`list ${rv}`),
      onEvent: (event) => seen.push(`${event.type} ${event.object.metadata?.resourceVersion ?? ''}`),
      onGone: () => seen.push('gone'),
      onError: (error, ms) =>
        seen.push(`error ${error instanceof Error ? error.message : String(error)} (${ms} ms)`),
      ...overrides,
    },
    signal: abort.signal,
  });
  return { seen, watches };
}

describe('listWatch', () => {
  it('resumes after a stream ends and relists at once after 410 Gone', async () => {
    const { seen, watches } = await run([[added('a', '11')], [gone], [added('b', '21')]]);
    expect(seen).toEqual(['list 10', 'ADDED 11', 'gone', 'list 20', 'ADDED 21']);
    expect(watches).toEqual(['10', '11', '20', '21']);
  });

  it('backs off before relisting when 410 comes straight after a list', async () => {
    const { seen, watches } = await run([[gone], [added('a', '21')]]);
    expect(seen).toEqual(['list 10', 'gone', 'error too old resource version (1 ms)', 'list 20', 'ADDED 21']);
    expect(watches).toEqual(['10', '20', '21']);
  });

  it('treats a watch that closes at once without events as a failure and relists', async () => {
    const { seen, watches } = await run([[added('a', '11')], [], [added('b', '21')]]);
    expect(seen).toEqual([
      'list 10',
      'ADDED 11',
      'error the watch closed at once without events (1 ms)',
      'list 20',
      'ADDED 21',
    ]);
    expect(watches).toEqual(['10', '11', '20', '21']);
  });

  it('re-watches from the same version when the connection fails or the server is busy', async () => {
    const refused = () => {
      throw new TypeError('fetch failed');
    };
    const busy = () => Response.json(status(429, 'TooManyRequests'), { status: 429 });
    const { seen, watches } = await run([[added('a', '11')], refused, busy, [added('b', '12')]]);
    expect(seen).toEqual([
      'list 10',
      'ADDED 11',
      'error fetch failed (1 ms)',
      'error request failed with HTTP 429 (2 ms)',
      'ADDED 12',
    ]);
    expect(watches).toEqual(['10', '11', '11', '11', '12']);
  });

  it('relists after an ERROR event other than 410, doubling the wait up to its cap', async () => {
    const internal = { type: 'ERROR', object: { ...status(500, 'InternalError'), message: 'boom' } };
    const { seen, watches } = await run([[internal], [internal], [internal], [internal]]);
    expect(seen.filter((s) => s.startsWith('error'))).toEqual([
      'error boom (1 ms)',
      'error boom (2 ms)',
      'error boom (4 ms)',
      'error boom (4 ms)',
    ]);
    expect(watches).toEqual(['10', '20', '30', '40', '50']);
  });

  it('relists when a handler throws, rather than taking it for a dropped connection', async () => {
    let thrown = false;
    const seen: string[] = [];
    const { watches } = await run([[added('a', '11')], [added('b', '21')]], {
      onEvent: (event) => {
        seen.push(event.object.metadata?.name ?? '');
        if (!thrown) {
          thrown = true;
          throw new TypeError('handler bug');
        }
      },
    });
    expect(seen).toEqual(['a', 'b']);
    expect(watches).toEqual(['10', '20', '21']);
  });

  it('resumes from the version of a bookmark', async () => {
    const { seen, watches } = await run([
      [
        added('a', '11'),
        { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '15' } } },
      ],
    ]);
    expect(seen).toEqual(['list 10', 'ADDED 11', 'BOOKMARK 15']);
    expect(watches).toEqual(['10', '15']);
  });
});
