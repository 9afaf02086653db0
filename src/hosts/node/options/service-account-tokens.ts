/**
 * The service-account token flags of the Node host, as the real
 * kube-apiserver takes them: `--service-account-signing-key-file` (a PEM
 * private key; the core imports it), `--service-account-max-token-expiration`
 * (a Go duration, 1 h to 2^32 s, with the real warnings when it defeats the
 * extension of projected tokens), `--service-account-extend-token-expiration`
 * and `--service-account-jwks-uri` (https only), with the real option
 * validation's messages. The authenticator's flags (`--service-account-key-file`,
 * `--service-account-issuer`, `--service-account-lookup`) stay with the
 * other authentication flags.
 */

import { formatGoDuration, parseGoDuration } from '../../../machinery/go-duration';
import type { ApiServerOptions } from '../../../server/options';

export const serviceAccountTokenFlagKinds = {
  'service-account-signing-key-file': 'string',
  'service-account-max-token-expiration': 'string',
  'service-account-extend-token-expiration': 'bool',
  'service-account-jwks-uri': 'string',
} as const;

type ServiceAccountTokens = NonNullable<ApiServerOptions['serviceAccountTokens']>;
type Read = (path: string, context: string) => string;

/** The projected volume's token lifetime and how long the server extends such tokens (real constants). */
const warnOnlyTokenSeconds = 3607;
const extendedTokenSeconds = 365 * 24 * 3600;
const hourMs = 3_600_000;

export interface ServiceAccountTokenFlags {
  strings: Partial<Record<string, string>>;
  bools: Partial<Record<string, boolean>>;
}

/**
 * The options from the flags' values, and the validation errors. A duration pflag cannot parse, or a key
 * file that holds no private key, is thrown at once through `fail`, as the real server stops there.
 */
export function serviceAccountTokensOf(
  flags: ServiceAccountTokenFlags,
  read: Read,
  fail: (message: string) => Error,
  warn: (message: string) => void,
): { options?: ServiceAccountTokens; errors: string[] } {
  const errors: string[] = [];
  const tokens: ServiceAccountTokens = {};
  const keyFile = flags.strings['service-account-signing-key-file'];
  if (keyFile !== undefined && keyFile !== '') {
    const pem = read(keyFile, 'failed to parse service-account-issuer-key-file: ');
    if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(pem))
      throw fail(
        `failed to parse service-account-issuer-key-file: error reading private key file ${keyFile}: data does not contain a valid RSA or ECDSA private key`,
      );
    tokens.signingKeyPEM = pem;
  }
  const extend = flags.bools['service-account-extend-token-expiration'];
  if (extend !== undefined) tokens.extendExpiration = extend;
  const max = flags.strings['service-account-max-token-expiration'];
  if (max !== undefined) {
    let ms: number;
    try {
      ms = parseGoDuration(max);
    } catch (e) {
      throw fail(
        `invalid argument "${max}" for "--service-account-max-token-expiration" flag: ${(e as Error).message}`,
      );
    }
    if (ms !== 0) {
      // The real bounds and warnings compare durations; the option keeps whole seconds, truncated as Go's.
      if (ms < hourMs || ms > 2 ** 32 * 1000)
        errors.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
      else {
        if (extend !== false) {
          if (ms < warnOnlyTokenSeconds * 1000)
            warn(
              `service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${warnOnlyTokenSeconds} seconds (currently ${formatGoDuration(ms)})`,
            );
          if (ms < extendedTokenSeconds * 1000)
            warn(
              `service-account-extend-token-expiration is true, enabling tokens valid up to ${extendedTokenSeconds} seconds, which is longer than service-account-max-token-expiration set to ${formatGoDuration(ms)}`,
            );
        }
        tokens.maxExpirationSeconds = Math.trunc(ms / 1000);
      }
    }
  }
  const jwksURI = flags.strings['service-account-jwks-uri'];
  if (jwksURI !== undefined && jwksURI !== '') {
    if (!URL.canParse(jwksURI))
      errors.push(
        `service-account-jwks-uri must be a valid URL: parse ${JSON.stringify(jwksURI)}: invalid URI`,
      );
    else if (new URL(jwksURI).protocol !== 'https:')
      errors.push(`service-account-jwks-uri requires https scheme, parsed as: ${jwksURI}`);
    else tokens.jwksURI = jwksURI;
  }
  return { ...(Object.keys(tokens).length > 0 ? { options: tokens } : {}), errors };
}
