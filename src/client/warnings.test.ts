// The Warning header as the server sends it: quoted texts with escapes, one item or several, an optional date.
import { describe, expect, it } from 'vitest';
import { parseWarnings } from './warnings';

describe('parseWarnings', () => {
  it('unquotes each warn-text and keeps escaped quotes and backslashes', () => {
    expect(parseWarnings(null)).toEqual([]);
    expect(parseWarnings('299 - "unknown field \\"spec.x\\""')).toEqual(['unknown field "spec.x"']);
    expect(parseWarnings('299 - "a, b", 299 - "c\\\\d"')).toEqual(['a, b', 'c\\d']);
    expect(parseWarnings('299 - "dated" "Sat, 01 Jan 2000 00:00:00 GMT", 299 - "next"')).toEqual([
      'dated',
      'next',
    ]);
  });
});
