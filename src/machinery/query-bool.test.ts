import { describe, expect, it } from 'vitest';
import { parseGoBool, queryBool, queryFlag } from './query-bool';

describe('boolean query parameters', () => {
  it.each([
    ['watch=1', true],
    ['watch=', true],
    ['watch', true],
    ['watch=yes', true],
    ['watch=0', false],
    ['watch=f', false],
    ['watch=F', false],
    ['watch=false', false],
    ['watch=FALSE', false],
    ['', undefined],
  ])('%s → %s', (q, want) => {
    expect(queryBool(new URLSearchParams(q), 'watch')).toBe(want);
    expect(queryFlag(new URLSearchParams(q), 'watch')).toBe(want === true);
  });

  it.each([
    ['true', true],
    ['T', true],
    ['1', true],
    ['f', false],
    ['False', false],
    ['yes', undefined],
    ['', undefined],
  ])('ParseBool(%j) → %s', (text, want) => {
    expect(parseGoBool(text)).toBe(want);
  });
});
