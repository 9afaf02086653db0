import { describe, expect, it } from 'vitest';
import { decodeGoBase64, goBase64Error } from './go-base64';

const text = (r: ReturnType<typeof decodeGoBase64>): string =>
  r.ok ? new TextDecoder().decode(r.bytes) : goBase64Error(r.offset);

describe("Go's base64 for []byte fields", () => {
  const cases: [string, string][] = [
    ['', ''],
    ['aGVsbG8=', 'hello'],
    ['aGVs\nbG8=', 'hello'],
    ['aGVsbA==', 'hell'],
    ['aGVsbG8=\r\n', 'hello'],
    ['hello', 'illegal base64 data at input byte 4'],
    ['hello!!', 'illegal base64 data at input byte 5'],
    ['aGVsbG8', 'illegal base64 data at input byte 4'],
    ['aGVsbG8=x', 'illegal base64 data at input byte 8'],
    ['aGVsb===', 'illegal base64 data at input byte 5'],
    ['aGVsbG=', 'illegal base64 data at input byte 7'],
    ['=', 'illegal base64 data at input byte 0'],
    ['A===', 'illegal base64 data at input byte 1'],
    ['aGVs-_==', 'illegal base64 data at input byte 4'],
    ['éaaa', 'illegal base64 data at input byte 0'],
    ['aaaaé', 'illegal base64 data at input byte 4'],
  ];
  it.each(cases)('%j → %j', (input, expected) => {
    expect(text(decodeGoBase64(input))).toBe(expected);
  });
});
