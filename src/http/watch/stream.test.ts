/**
 * The byte count an in-process watcher's event is metered at, made from the
 * line's text without encoding it: the UTF-8 length TextEncoder gives.
 */

import { describe, expect, it } from 'vitest';
import { utf8Length } from './stream';

describe('utf8Length', () => {
  it('is the length of the UTF-8 encoding', () => {
    const encoder = new TextEncoder();
    for (const s of [
      '',
      '{"type":"ADDED","object":{"kind":"ConfigMap"}}',
      'ascii and é',
      'ü€ and 日本',
      'emoji 😀 pair',
      'lone \ud800 high',
      'lone \udc00 low',
      'end \ud800',
      JSON.stringify({ data: { k: 'x\u0000y\u007f\u0080\u07ff\u0800\uffff' } }),
    ])
      expect(utf8Length(s), s).toBe(encoder.encode(s).byteLength);
  });
});
