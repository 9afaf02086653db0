/** The service-account token flags of `parseHostArgs`: what each sets, and the real errors and warnings. */

import { describe, expect, it } from 'vitest';
import { FlagError, parseHostArgs } from './args';

const files: Record<string, string> = {
  '/keys/sa.key': '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n',
  '/keys/ec.key': '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n',
  '/keys/sa.pub': '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n',
};
const read = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  return text;
};

function parse(argv: string[]) {
  const warnings: string[] = [];
  return { options: parseHostArgs(argv, read, (w) => warnings.push(w)), warnings };
}

function failure(argv: string[]): string {
  try {
    parseHostArgs(argv, read);
  } catch (e) {
    if (e instanceof FlagError) return e.message;
    throw e;
  }
  throw new Error('expected a FlagError');
}

describe('service-account token flags', () => {
  const accepted: { argv: string[]; tokens: Record<string, unknown>; warnings?: string[] }[] = [
    {
      argv: ['--service-account-signing-key-file=/keys/sa.key'],
      tokens: { signingKeyPEM: files['/keys/sa.key'] },
    },
    {
      argv: ['--service-account-signing-key-file', '/keys/ec.key'],
      tokens: { signingKeyPEM: files['/keys/ec.key'] },
    },
    {
      argv: ['--service-account-max-token-expiration=48h'],
      tokens: { maxExpirationSeconds: 172800 },
      warnings: [
        'service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 48h0m0s',
      ],
    },
    {
      argv: ['--service-account-max-token-expiration=1h'],
      tokens: { maxExpirationSeconds: 3600 },
      warnings: [
        'service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than 3607 seconds (currently 1h0m0s)',
        'service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 1h0m0s',
      ],
    },
    {
      argv: ['--service-account-max-token-expiration=2h', '--service-account-extend-token-expiration=false'],
      tokens: { maxExpirationSeconds: 7200, extendExpiration: false },
    },
    { argv: ['--service-account-max-token-expiration=0'], tokens: {} },
    {
      // Any Go duration: fractions and mixed units, shown back as Go prints them.
      argv: ['--service-account-max-token-expiration=1.5h', '--service-account-extend-token-expiration=true'],
      tokens: { maxExpirationSeconds: 5400, extendExpiration: true },
      warnings: [
        'service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 1h30m0s',
      ],
    },
    {
      argv: [
        '--service-account-max-token-expiration=2h0m0.5s',
        '--service-account-extend-token-expiration=false',
      ],
      tokens: { maxExpirationSeconds: 7200, extendExpiration: false },
    },
    {
      argv: ['--service-account-jwks-uri=https://issuer.example/keys'],
      tokens: { jwksURI: 'https://issuer.example/keys' },
    },
  ];
  for (const c of accepted) {
    it(`accepts ${c.argv.join(' ')}`, () => {
      const { options, warnings } = parse(c.argv);
      expect(options.serviceAccountTokens ?? {}).toEqual(c.tokens);
      expect(warnings).toEqual(c.warnings ?? []);
    });
  }

  const refused: { argv: string[]; error: string }[] = [
    {
      argv: ['--service-account-signing-key-file=/keys/none.key'],
      error:
        'failed to parse service-account-issuer-key-file: open /keys/none.key: no such file or directory',
    },
    {
      argv: ['--service-account-signing-key-file=/keys/sa.pub'],
      error:
        'failed to parse service-account-issuer-key-file: error reading private key file /keys/sa.pub: data does not contain a valid RSA or ECDSA private key',
    },
    {
      argv: ['--service-account-max-token-expiration=30m'],
      error: 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
    },
    {
      argv: ['--service-account-max-token-expiration=soon'],
      error:
        'invalid argument "soon" for "--service-account-max-token-expiration" flag: time: invalid duration "soon"',
    },
    {
      argv: ['--service-account-max-token-expiration=-2h'],
      error: 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
    },
    {
      argv: ['--service-account-max-token-expiration=2h30'],
      error:
        'invalid argument "2h30" for "--service-account-max-token-expiration" flag: time: missing unit in duration "2h30"',
    },
    {
      argv: ['--service-account-max-token-expiration=1d'],
      error:
        'invalid argument "1d" for "--service-account-max-token-expiration" flag: time: unknown unit "d" in duration "1d"',
    },
    {
      argv: ['--service-account-jwks-uri=http://issuer.example/keys'],
      error: 'service-account-jwks-uri requires https scheme, parsed as: http://issuer.example/keys',
    },
    {
      argv: ['--service-account-extend-token-expiration=maybe'],
      error:
        'invalid argument "maybe" for "--service-account-extend-token-expiration" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    },
  ];
  for (const c of refused) {
    it(`refuses ${c.argv.join(' ')}`, () => {
      expect(failure(c.argv)).toBe(c.error);
    });
  }
});
