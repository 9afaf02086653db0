import { describe, expect, it, vi } from 'vitest';
import { createClient, TABLE_ACCEPT } from '../../client/index';
import { EarlyAnswers, earlyFetch } from './early-answers';
import { askFirstScreen } from './first-screen';
import {
  peekPreparedDiscovery,
  peekPreparedList,
  prepareFirstScreen,
  takePreparedDiscovery,
  takePreparedList,
  togetherMs,
} from './first-screen-data';

const base = 'http://sandbox.test';
const configmaps = '/api/v1/namespaces/default/configmaps';

/** A server that counts what reaches it: discovery serves core v1 ConfigMaps, a list answers as a Table. */
function counting() {
  const seen: string[] = [];
  const send = (request: Request) => {
    const url = new URL(request.url);
    seen.push(`${url.pathname} ${request.headers.get('accept') ?? ''}`);
    if (url.pathname === '/api' || url.pathname === '/apis')
      return Promise.resolve(Response.json({ kind: 'APIGroupDiscoveryList', items: [] }));
    return Promise.resolve(
      Response.json({
        kind: 'Table',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { resourceVersion: '7' },
        columnDefinitions: [
          { name: 'Name', type: 'string', format: 'name', description: '', priority: 0 },
          { name: 'Data', type: 'integer', format: '', description: '', priority: 1 },
        ],
        rows: [{ cells: ['a', 1], object: { metadata: { name: 'a', namespace: 'default' } } }],
      }),
    );
  };
  return { seen, send };
}

/** As main.tsx wires it: the reads asked early, then read through the transport that takes their answers. */
function setUp(version = 0) {
  const server = counting();
  const early = new EarlyAnswers(server.send, () => version);
  const client = createClient({ baseUrl: base, fetch: earlyFetch(early, server.send) });
  askFirstScreen(createClient({ baseUrl: base, fetch: (request) => early.ask(request) }), {
    view: 'explorer',
    params: {},
  });
  return { server, client };
}

describe("the first screen's data read before the first render", () => {
  it('reads discovery and the default list from the early answers, without asking again', async () => {
    const { server, client } = setUp();
    await prepareFirstScreen(client, { view: 'explorer', params: {} }, undefined, 0);
    expect(server.seen).toHaveLength(3);
    expect(server.seen).toContain(`${configmaps} ${TABLE_ACCEPT}`);
    // Looking does not take: a component's initial state looks, its effect takes.
    expect(peekPreparedDiscovery(0)?.done?.value.groupVersions).toEqual([]);
    expect(peekPreparedDiscovery(0)).toBeDefined();
    const list = peekPreparedList(configmaps, 0)?.done?.value;
    expect(list?.server).toBe(true);
    expect(list?.table.rows).toHaveLength(1);
    expect(takePreparedDiscovery(0)).toBeDefined();
    expect(takePreparedDiscovery(0)).toBeUndefined();
    // Another list's taker finds nothing and leaves this one for its own.
    expect(takePreparedList('/api/v1/namespaces/other/configmaps', 0)).toBeUndefined();
    expect(peekPreparedList(configmaps, 0)).toBeDefined();
    expect(takePreparedList(configmaps, 0)).toBeDefined();
    expect(takePreparedList(configmaps, 0)).toBeUndefined();
  });

  it('hands nothing to another identity version', async () => {
    const { client } = setUp(3);
    await prepareFirstScreen(client, { view: 'explorer', params: {} }, undefined, 3);
    expect(peekPreparedDiscovery(4)).toBeUndefined();
    expect(takePreparedDiscovery(4)).toBeUndefined();
    expect(takePreparedList(configmaps, 4)).toBeUndefined();
    // A mismatched take leaves each read for its rightful taker, who takes it once.
    expect(takePreparedDiscovery(3)).toBeDefined();
    expect(takePreparedDiscovery(3)).toBeUndefined();
    expect(peekPreparedList(configmaps, 3)).toBeDefined();
    expect(takePreparedList(configmaps, 3)).toBeDefined();
    expect(takePreparedList(configmaps, 3)).toBeUndefined();
  });

  it('reads no list for a view other than the explorer, and drops what nobody takes', async () => {
    vi.useFakeTimers();
    try {
      const { client } = setUp();
      const done = prepareFirstScreen(client, { view: 'console', params: {} }, undefined, 0);
      await vi.advanceTimersByTimeAsync(0);
      await done;
      expect(peekPreparedList(configmaps, 0)).toBeUndefined();
      expect(peekPreparedDiscovery(0)).toBeDefined();
      await vi.advanceTimersByTimeAsync(5000);
      expect(peekPreparedDiscovery(0)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands discovery on together with the list, or alone once the list is late', async () => {
    vi.useFakeTimers();
    try {
      // The list answers when the test lets it (or after a while): discovery's answer waits for it.
      const server = counting();
      let answerList: () => void = () => undefined;
      const listAnswered = new Promise<void>((resolve) => {
        answerList = resolve;
      });
      const held = (request: Request) =>
        new URL(request.url).pathname === configmaps
          ? listAnswered.then(() => server.send(request))
          : server.send(request);
      const client = createClient({ baseUrl: base, fetch: held });
      const done = prepareFirstScreen(client, { view: 'explorer', params: {} }, undefined, 0);
      await vi.advanceTimersByTimeAsync(togetherMs / 2);
      expect(peekPreparedDiscovery(0)?.done).toBeUndefined();
      answerList();
      await vi.advanceTimersByTimeAsync(0);
      await done;
      expect(peekPreparedDiscovery(0)?.done?.value.groupVersions).toEqual([]);
      expect(peekPreparedList(configmaps, 0)?.done?.value.table.rows).toHaveLength(1);
      // A list that does not answer holds discovery back no longer than togetherMs.
      const never = createClient({
        baseUrl: base,
        fetch: (r) =>
          new URL(r.url).pathname === configmaps ? new Promise(() => undefined) : server.send(r),
      });
      void prepareFirstScreen(never, { view: 'explorer', params: {} }, undefined, 1);
      await vi.advanceTimersByTimeAsync(togetherMs - 1);
      expect(peekPreparedDiscovery(1)?.done).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(peekPreparedDiscovery(1)?.done?.value.groupVersions).toEqual([]);
      expect(peekPreparedList(configmaps, 1)?.done).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a failed read for its taker, who asks again', async () => {
    const failing = (request: Request) =>
      Promise.resolve(
        new URL(request.url).pathname === '/apis'
          ? Response.json({ kind: 'Status', code: 503, message: 'starting' }, { status: 503 })
          : Response.json({ kind: 'APIGroupDiscoveryList', items: [] }),
      );
    const client = createClient({ baseUrl: base, fetch: failing });
    await prepareFirstScreen(client, { view: 'explorer', params: {} }, undefined, 0);
    const read = takePreparedDiscovery(0);
    expect(read?.done).toBeUndefined();
    await expect(read?.promise).rejects.toThrow();
  });
});
