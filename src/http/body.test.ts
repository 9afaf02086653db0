/**
 * Reading a request's body under the 3 MiB limit: as a stream where the body's length is not declared (a
 * server reading from a socket), whole in a service worker (whose requests come from its own pages); both
 * read the same bytes and refuse the same oversized body with a 413.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { maxRequestBodyBytes, readBodyBytes, readBodyText, setReadBodiesWhole } from './body';
import { StatusError } from '../machinery/errors';

/** A POST whose body is a stream of `chunks` (no declared length). */
function streamed(chunks: Uint8Array[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  return new Request('http://localhost/x', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

for (const host of ['a socket server', 'a service worker']) {
  describe(`a body without a declared length, read in ${host}`, () => {
    afterEach(() => {
      setReadBodiesWhole(false);
    });
    const inHost = (): void => {
      setReadBodiesWhole(host === 'a service worker');
    };

    it('is read whole, chunks joined, as UTF-8', async () => {
      inHost();
      const bytes = new TextEncoder().encode('{"data":{"k":"é"}}');
      const text = await readBodyText(streamed([bytes.subarray(0, 14), bytes.subarray(14)]));
      expect(text).toBe('{"data":{"k":"é"}}');
      expect(await readBodyBytes(new Request('http://localhost/x'))).toEqual(new Uint8Array());
    });

    it('is refused with a 413 past the limit', async () => {
      inHost();
      const chunk = new Uint8Array(1024 * 1024);
      const read = readBodyBytes(streamed([chunk, chunk, chunk, new Uint8Array(1)]));
      await expect(read).rejects.toBeInstanceOf(StatusError);
      await expect(read).rejects.toMatchObject({ status: { code: 413 } });
      const exact = await readBodyBytes(streamed([new Uint8Array(maxRequestBodyBytes)]));
      expect(exact.byteLength).toBe(maxRequestBodyBytes);
    });
  });
}
