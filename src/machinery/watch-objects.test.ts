import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../api/meta';
import { WatchEventChannel, watchEventsOf, withWatchEvents } from './watch-objects';

const event = (name: string): WatchEvent => ({ type: 'ADDED', object: { metadata: { name } } });
const nameOf = (e: WatchEvent | undefined): string =>
  String((e?.object.metadata as { name?: string } | undefined)?.name);

describe('WatchEventChannel', () => {
  it('hands events in order, to a reader waiting or reading later, then its end after what is queued', async () => {
    const channel = new WatchEventChannel();
    const waiting = channel.next();
    channel.push(event('a'));
    expect(await waiting).toEqual({ value: event('a'), done: false });
    channel.push(event('b'));
    channel.push(event('c'));
    expect(channel.backlog).toBe(2);
    channel.end();
    channel.push(event('after the end'));
    expect(await channel.next()).toEqual({ value: event('b'), done: false });
    expect(await channel.next()).toEqual({ value: event('c'), done: false });
    expect(channel.backlog).toBe(0);
    expect((await channel.next()).done).toBe(true);
    expect((await channel.next()).done).toBe(true);
  });

  it('ends a reader that is waiting', async () => {
    const channel = new WatchEventChannel();
    const waiting = channel.next();
    channel.end();
    expect((await waiting).done).toBe(true);
  });

  it('keeps every event of a long backlog, in order', async () => {
    const channel = new WatchEventChannel();
    for (let i = 0; i < 3000; i++) channel.push(event(String(i)));
    const names: string[] = [];
    for (let i = 0; i < 2000; i++) names.push(nameOf((await channel.next()).value));
    for (let i = 3000; i < 3500; i++) channel.push(event(String(i)));
    channel.end();
    for (;;) {
      const next = await channel.next();
      if (next.done === true) break;
      names.push(nameOf(next.value));
    }
    expect(names).toEqual(Array.from({ length: 3500 }, (_, i) => String(i)));
  });

  it('travels beside the response it was attached to, and only that one', () => {
    const channel = new WatchEventChannel();
    const response = withWatchEvents(new Response(null), channel);
    expect(watchEventsOf(response)).toBe(channel);
    expect(watchEventsOf(new Response(null))).toBeUndefined();
  });
});
