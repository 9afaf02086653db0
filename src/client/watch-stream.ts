/**
 * Reads a watch response body: one JSON watch event per line. Split from the
 * client so that a partial line at a chunk boundary is handled in one place.
 * A response the server made for a client in its own process carries its
 * events beside it as objects (machinery/watch-objects.ts): those are read
 * instead of the bytes.
 */

import type { WatchEvent } from '../api/meta';
import { watchEventsOf, type WatchEventChannel } from '../machinery/watch-objects';

export async function* readWatchEvents(response: Response): AsyncGenerator<WatchEvent> {
  const objects = watchEventsOf(response);
  if (objects !== undefined) {
    yield* readWatchObjects(response, objects);
    return;
  }
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Only the new text can hold a newline: a long event arriving in many chunks is scanned once.
      let newline = value.indexOf('\n');
      if (newline >= 0) newline += buffered.length;
      buffered += value;
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line !== '') yield JSON.parse(line) as WatchEvent;
        newline = buffered.indexOf('\n');
      }
    }
    if (buffered.trim() !== '') yield JSON.parse(buffered) as WatchEvent;
  } finally {
    // Leaving the loop early (break, throw, abort) must cancel the stream so the server stops the watch.
    await reader.cancel().catch(() => undefined);
  }
}

async function* readWatchObjects(response: Response, objects: WatchEventChannel): AsyncGenerator<WatchEvent> {
  try {
    for (;;) {
      const next = await objects.next();
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    // As with the bytes: leaving early cancels the body, which stops the watch on the server.
    await response.body?.cancel().catch(() => undefined);
  }
}
