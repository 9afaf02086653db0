/**
 * The kept-text store of get-from-memory.ts on its own: a text is found only for the entry it was made from,
 * keeping for a new entry of a key overwrites the old entry's texts at once, a drop forgets a key, and the
 * character bound sends keys out in the order they were kept. (test/get-from-memory.test.ts covers the
 * answers over HTTP.)
 */

import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../registry/resource-type';
import { KeptTexts, type TextForm } from './get-from-memory';

// The store compares resource types by identity only.
const rt = {} as ResourceType;
const otherRt = {} as ResourceType;
const plain: TextForm = { rt, profile: undefined, pretty: false };
const pretty: TextForm = { rt, profile: undefined, pretty: true };

describe('kept answer texts', () => {
  it('finds a text only for its entry and form', () => {
    const texts = new KeptTexts();
    const entry = {};
    texts.keep('/cm/a', entry, plain, 'A');
    expect(texts.find('/cm/a', entry, plain)?.text).toBe('A');
    expect(texts.find('/cm/a', entry, pretty)?.text).toBeUndefined();
    expect(texts.find('/cm/a', entry, { ...plain, rt: otherRt })?.text).toBeUndefined();
    expect(texts.find('/cm/b', entry, plain)?.text).toBeUndefined();
    texts.keep('/cm/a', entry, pretty, 'A pretty');
    expect(texts.find('/cm/a', entry, pretty)?.text).toBe('A pretty');
    expect(texts.size()).toEqual({ chars: 9, keys: 1 });
  });

  it('overwrites a replaced entry’s texts at once, and never serves them for the new entry', () => {
    const texts = new KeptTexts();
    const old = {};
    const replaced = {};
    texts.keep('/cm/a', old, plain, 'old text');
    texts.keep('/cm/a', old, pretty, 'old pretty');
    // The new entry was not asked for yet: nothing is found for it, the old texts are not handed out.
    expect(texts.find('/cm/a', replaced, plain)?.text).toBeUndefined();
    texts.keep('/cm/a', replaced, plain, 'new');
    expect(texts.find('/cm/a', replaced, plain)?.text).toBe('new');
    expect(texts.find('/cm/a', replaced, pretty)?.text).toBeUndefined();
    expect(texts.find('/cm/a', old, plain)?.text).toBeUndefined();
    expect(texts.find('/cm/a', old, pretty)?.text).toBeUndefined();
    // The old entry's characters left the count with it.
    expect(texts.size()).toEqual({ chars: 3, keys: 1 });
  });

  it('forgets a dropped key (a deleted object), and a drop of an unknown key changes nothing', () => {
    const texts = new KeptTexts();
    const a = {};
    const b = {};
    texts.keep('/cm/a', a, plain, 'aaaa');
    texts.keep('/cm/b', b, plain, 'bb');
    texts.drop('/cm/a');
    expect(texts.find('/cm/a', a, plain)?.text).toBeUndefined();
    expect(texts.find('/cm/b', b, plain)?.text).toBe('bb');
    expect(texts.size()).toEqual({ chars: 2, keys: 1 });
    texts.drop('/cm/a');
    texts.drop('/cm/nope');
    expect(texts.size()).toEqual({ chars: 2, keys: 1 });
    // A key created again after its deletion keeps texts afresh.
    const again = {};
    texts.keep('/cm/a', again, plain, 'a2');
    expect(texts.find('/cm/a', again, plain)?.text).toBe('a2');
    expect(texts.size()).toEqual({ chars: 4, keys: 2 });
  });

  it('keeps at most four forms of one entry', () => {
    const texts = new KeptTexts();
    const entry = {};
    const forms = [true, false].flatMap((p) =>
      [rt, otherRt, {} as ResourceType].map((r) => ({ ...plain, rt: r, pretty: p })),
    );
    forms.forEach((form, i) => texts.keep('/cm/a', entry, form, `t${i}`));
    expect(forms.map((form) => texts.find('/cm/a', entry, form)?.text)).toEqual([
      't0',
      't1',
      't2',
      't3',
      undefined,
      undefined,
    ]);
    expect(texts.size()).toEqual({ chars: 8, keys: 1 });
  });

  it('holds the character bound, sending out the key kept longest ago first', () => {
    const texts = new KeptTexts(10);
    const entries = { a: {}, b: {}, c: {}, d: {} };
    texts.keep('/cm/a', entries.a, plain, 'aaaa');
    texts.keep('/cm/b', entries.b, plain, 'bbbb');
    expect(texts.size()).toEqual({ chars: 8, keys: 2 });
    // 12 characters: /cm/a, kept first, goes.
    texts.keep('/cm/c', entries.c, plain, 'cccc');
    expect(texts.find('/cm/a', entries.a, plain)?.text).toBeUndefined();
    expect(texts.find('/cm/b', entries.b, plain)?.text).toBe('bbbb');
    expect(texts.find('/cm/c', entries.c, plain)?.text).toBe('cccc');
    expect(texts.size()).toEqual({ chars: 8, keys: 2 });
    // A replaced entry is kept anew, so it counts as kept last: /cm/c goes before it.
    const newB = {};
    texts.keep('/cm/b', newB, plain, 'BBBB');
    texts.keep('/cm/d', entries.d, plain, 'dddd');
    expect(texts.find('/cm/c', entries.c, plain)?.text).toBeUndefined();
    expect(texts.find('/cm/b', newB, plain)?.text).toBe('BBBB');
    expect(texts.find('/cm/d', entries.d, plain)?.text).toBe('dddd');
    expect(texts.size()).toEqual({ chars: 8, keys: 2 });
  });
});
