import { describe, expect, it } from 'vitest';
import { TokenFileAuthenticator, parseCsv, parseTokenFile } from './token-file';

describe('parseCsv (Go encoding/csv)', () => {
  it.each([
    ['a,b,c\n', [['a', 'b', 'c']]],
    ['a,b,c', [['a', 'b', 'c']]],
    [
      'a,b,c\r\n\r\nd,e,f,\n',
      [
        ['a', 'b', 'c'],
        ['d', 'e', 'f', ''],
      ],
    ],
    ['t,u,1,"g1,g2"', [['t', 'u', '1', 'g1,g2']]],
    ['t,u,1,"say ""hi"""', [['t', 'u', '1', 'say "hi"']]],
    ['t,u,"multi\nline"', [['t', 'u', 'multi\nline']]],
  ])('%j', (text, records) => {
    expect(parseCsv(text)).toEqual(records);
  });

  it.each([
    ['a,b"c,d', 'parse error on line 1, column 4: bare " in non-quoted-field'],
    ['a,b,c\nx,"y"z,w', 'parse error on line 2, column 5: extraneous or missing " in quoted-field'],
    ['a,"open', 'parse error on line 1, column 8: extraneous or missing " in quoted-field'],
  ])('%j fails as Go does', (text, message) => {
    expect(() => parseCsv(text)).toThrow(message);
  });
});

describe('parseTokenFile', () => {
  it('maps tokens to users, groups from the quoted fourth column', () => {
    const tokens = parseTokenFile(
      't1,alice,u1,"devs,ops"\nt2,bob,u2\n,skipped,u3\nt1,carol,u4',
      'tokens.csv',
    );
    expect(tokens.get('t1')).toEqual({ username: 'carol', uid: 'u4', groups: [] });
    expect(tokens.get('t2')).toEqual({ username: 'bob', uid: 'u2', groups: [] });
    expect(tokens.size).toBe(2);
    expect(parseTokenFile('t,a,1,"x,y"', 'f').get('t')?.groups).toEqual(['x', 'y']);
  });

  it('refuses rows with fewer than three columns with the real message', () => {
    expect(() => parseTokenFile('t1,alice', '/etc/tokens.csv')).toThrow(
      "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
    );
  });
});

describe('TokenFileAuthenticator', () => {
  const file = new TokenFileAuthenticator('secret-token,alice,42,"devs"');
  it.each([
    ['secret-token', { user: { username: 'alice', uid: '42', groups: ['devs'] }, audiences: [] }],
    ['other', undefined],
    ['', undefined],
  ])('%j', async (token, expected) => {
    expect(await file.authenticateToken(token)).toEqual(expected);
  });
});
