import { describe, expect, it } from 'vitest';
import { decodeBase64Text, encodeBase64Text } from './base64-text';

describe('base64 text', () => {
  it.each([
    ['', ''],
    ['hello', 'aGVsbG8='],
    ['-----BEGIN X-----\n', 'LS0tLS1CRUdJTiBYLS0tLS0K'],
    ['grüße', 'Z3LDvMOfZQ=='],
  ])('encodes %j as its UTF-8 bytes and back', (text, data) => {
    expect(encodeBase64Text(text)).toBe(data);
    expect(decodeBase64Text(data)).toBe(text);
  });

  it('ignores white space when decoding and throws on invalid input', () => {
    expect(decodeBase64Text('aGVs\nbG8=')).toBe('hello');
    expect(() => decodeBase64Text('a!b')).toThrow();
  });
});
