import { describe, expect, it } from 'vitest';
import { splitList } from './split-list';

describe('splitList', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a, b  c,,\nd ', ['a', 'b', 'c', 'd']],
    [' , ', []],
  ])('%j reads as %j', (text, list) => {
    expect(splitList(text)).toEqual(list);
  });
});
