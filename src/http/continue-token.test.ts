import { describe, expect, it } from 'vitest';
import { ContinueTokens, decodeRawUrlBase64 } from './continue-token';
import { StatusError } from '../machinery/errors';

const secret = () => new Uint8Array(32).fill(7);

describe('decodeRawUrlBase64', () => {
  it.each([
    ['', ''],
    ['YQ', 'a'],
    ['YWI', 'ab'],
    ['YWJj', 'abc'],
  ])('decodes %j', (text, want) => {
    const out = decodeRawUrlBase64(text);
    expect(typeof out).not.toBe('string');
    expect(new TextDecoder().decode(out as Uint8Array)).toBe(want);
  });

  it.each([
    ['a+b', 'illegal base64 data at input byte 1'],
    ['YQ==', 'illegal base64 data at input byte 2'],
    ['Y', 'illegal base64 data at input byte 0'],
    ['YWJjZ', 'illegal base64 data at input byte 4'],
  ])('refuses %j as Go does', (text, message) => {
    expect(decodeRawUrlBase64(text)).toBe(message);
  });
});

describe('ContinueTokens', () => {
  it('round-trips a position within its collection', async () => {
    const tokens = await ContinueTokens.create(secret(), 'meta.orch.io');
    const token = await tokens.encode(
      { revision: 42, after: '/core/configmaps/default/b' },
      '/core/configmaps/default/',
    );
    const shape = JSON.parse(new TextDecoder().decode(decodeRawUrlBase64(token) as Uint8Array));
    expect(shape).toMatchObject({ v: 'meta.orch.io/v1', rv: 42, start: 'b\u0000' });
    await expect(tokens.decode(token, '/core/configmaps/default/')).resolves.toEqual({
      revision: 42,
      after: '/core/configmaps/default/b',
    });
  });

  it('refuses a token of another collection or another key', async () => {
    const tokens = await ContinueTokens.create(secret(), 'meta.k8s.io');
    const other = await ContinueTokens.create(new Uint8Array(32).fill(8), 'meta.k8s.io');
    const token = await tokens.encode({ revision: 3, after: '/core/configmaps/a/x' }, '/core/configmaps/a/');
    // Each decode starts only when awaited: a second promise rejected before its catch is attached
    // is an unhandled rejection, which fails the whole run.
    for (const attempt of [
      () => tokens.decode(token, '/core/secrets/a/'),
      () => other.decode(token, '/core/configmaps/a/'),
    ]) {
      const e = await attempt().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(StatusError);
      expect((e as StatusError).status.message).toBe(
        'invalid continue token: continue key is not valid: it was not issued by this server for this collection',
      );
    }
  });
});

describe('continue token syntax errors', () => {
  it.each([
    ['gQ', "invalid character '\\u0081' looking for beginning of value"],
    ['6Q', "invalid character 'é' looking for beginning of value"],
    ['AQ', "invalid character '\\x01' looking for beginning of value"],
    ['Jw', "invalid character '\\'' looking for beginning of value"],
    ['IA', 'unexpected end of JSON input'],
  ])('quotes the byte of %s as Go does', async (token, why) => {
    const tokens = await ContinueTokens.create(secret(), 'meta.k8s.io');
    const e = await tokens.decode(token, '/core/configmaps/a/').catch((x: unknown) => x);
    expect((e as StatusError).status.message).toBe(
      `invalid continue token: continue key is not valid: ${why}`,
    );
  });
});
