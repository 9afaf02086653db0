import { describe, expect, it } from 'vitest';
import { encodeTlv, pkcs8FromSEC1, readTlv, spkiFromPKCS1, tlvChildren } from './der';

describe('DER', () => {
  it.each([
    [0, [0x04, 0x00]],
    [0x7f, [0x04, 0x7f]],
    [0x80, [0x04, 0x81, 0x80]],
    [0x1234, [0x04, 0x82, 0x12, 0x34]],
  ])('encodes a %i-byte value with its definite length', (size, header) => {
    const tlv = encodeTlv(0x04, new Uint8Array(size));
    expect(Array.from(tlv.subarray(0, header.length))).toEqual(header);
    expect(readTlv(tlv, 0)).toEqual({ tag: 0x04, at: 0, start: header.length, end: header.length + size });
  });

  it('reads a SEQUENCE back into its fields', () => {
    const seq = encodeTlv(0x30, encodeTlv(0x02, new Uint8Array([1])), encodeTlv(0x05));
    expect(tlvChildren(seq, readTlv(seq, 0)).map((c) => [c.tag, c.at, c.end])).toEqual([
      [0x02, 2, 5],
      [0x05, 5, 7],
    ]);
  });

  it.each([
    ['a truncated value', [0x30, 0x05, 0x02]],
    ['an indefinite length', [0x30, 0x80, 0x00, 0x00]],
    ['a missing length', [0x30]],
  ])('refuses %s', (_, bytes) => {
    expect(() => tlvChildren(Uint8Array.from(bytes), readTlv(Uint8Array.from(bytes), 0))).toThrow();
  });

  it('wraps a PKCS#1 public key in a SubjectPublicKeyInfo naming rsaEncryption', () => {
    const spki = spkiFromPKCS1(new Uint8Array([0x30, 0x00]));
    const [algorithm, key] = tlvChildren(spki, readTlv(spki, 0));
    expect(algorithm?.tag).toBe(0x30);
    expect(key?.tag).toBe(0x03);
    expect(Array.from(spki.subarray(key?.start, key?.end))).toEqual([0x00, 0x30, 0x00]);
  });

  it('refuses a SEC1 key that names no curve', () => {
    const sec1 = encodeTlv(0x30, encodeTlv(0x02, new Uint8Array([1])), encodeTlv(0x04, new Uint8Array(32)));
    expect(() => pkcs8FromSEC1(sec1)).toThrow(/no named curve/);
  });
});
