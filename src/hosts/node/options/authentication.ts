/**
 * Authentication: anonymous access, client certificates, the static token
 * file, bootstrap tokens, service-account token verification, OIDC, the
 * token webhook and the request-header proxy, read into the core's
 * AuthenticationConfig with the files they name. Validation messages are
 * the real BuiltInAuthenticationOptions'. The token-signing flags are in
 * service-account-tokens.ts.
 */

import { resolve } from 'node:path';
import type { AuthenticationConfig } from '../../../auth/authn/config';
import { parseGoDuration } from '../../../machinery/go-duration';
import { goRead, invalid, readFlagFile, type FlagDecl, type RawFlags, type ReadFile } from './flags';

export const authenticationFlags = {
  'anonymous-auth': {
    kind: 'bool',
    section: 'authentication',
    usage:
      'Enables anonymous requests to the secure port. Requests that are not rejected by another authentication method are treated as anonymous requests (username system:anonymous, group system:unauthenticated).',
    default: 'true',
  },
  'client-ca-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      "Any request presenting a client certificate signed by one of the authorities in this file is authenticated with the identity of the certificate's CommonName.",
  },
  'token-auth-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      'A file whose lines (token,user,uid,"group1,group2") secure the API server port with static bearer tokens.',
  },
  'enable-bootstrap-token-auth': {
    kind: 'bool',
    section: 'authentication',
    usage:
      "Allow secrets of type 'bootstrap.kubernetes.io/token' in the system namespace to be used for TLS bootstrapping authentication.",
  },
  'service-account-key-file': {
    kind: 'stringArray',
    section: 'authentication',
    usage:
      'File containing PEM-encoded x509 RSA or ECDSA keys used to verify ServiceAccount tokens. May be given several times.',
  },
  'service-account-issuer': {
    kind: 'stringArray',
    section: 'authentication',
    usage:
      'Identifier of the service account token issuer (the iss claim). The first is used to issue tokens, all are accepted. May be given several times.',
  },
  'service-account-lookup': {
    kind: 'bool',
    section: 'authentication',
    usage: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.',
    default: 'true',
  },
  'api-audiences': {
    kind: 'stringSlice',
    section: 'authentication',
    usage:
      'Identifiers of the API; service account tokens are validated against at least one of them. Defaults to the issuer.',
  },
  'oidc-issuer-url': {
    kind: 'string',
    section: 'authentication',
    usage:
      'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).',
  },
  'oidc-client-id': {
    kind: 'string',
    section: 'authentication',
    usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
  },
  'oidc-username-claim': {
    kind: 'string',
    section: 'authentication',
    usage: 'The OpenID claim to use as the user name.',
    default: 'sub',
  },
  'oidc-username-prefix': {
    kind: 'string',
    section: 'authentication',
    usage: "If provided, all usernames will be prefixed with this value; '-' disables prefixing.",
  },
  'oidc-groups-claim': {
    kind: 'string',
    section: 'authentication',
    usage:
      'If provided, the name of a custom OpenID Connect claim for specifying user groups (an array of strings).',
  },
  'oidc-groups-prefix': {
    kind: 'string',
    section: 'authentication',
    usage: 'If provided, all groups will be prefixed with this value.',
  },
  'oidc-required-claim': {
    kind: 'mapNoSplit',
    type: 'mapStringString',
    section: 'authentication',
    usage: 'A key=value pair that describes a required claim in the ID Token. May be given several times.',
  },
  'oidc-ca-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file.",
  },
  'oidc-signing-algs': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'Comma-separated list of allowed JOSE asymmetric signing algorithms.',
    default: '[RS256]',
  },
  'authentication-token-webhook-config-file': {
    kind: 'string',
    section: 'authentication',
    usage: 'File with webhook configuration for token authentication in kubeconfig format.',
  },
  'authentication-token-webhook-cache-ttl': {
    kind: 'string',
    type: 'duration',
    section: 'authentication',
    usage: 'The duration to cache responses from the webhook token authenticator.',
    default: '2m0s',
  },
  'authentication-token-webhook-version': {
    kind: 'string',
    section: 'authentication',
    usage: 'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.',
    default: 'v1beta1',
  },
  'requestheader-username-headers': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
  },
  'requestheader-group-headers': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
  },
  'requestheader-extra-headers-prefix': {
    kind: 'stringSlice',
    section: 'authentication',
    usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
  },
  'requestheader-client-ca-file': {
    kind: 'string',
    section: 'authentication',
    usage:
      'Root certificate bundle to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
  },
  'requestheader-allowed-names': {
    kind: 'stringSlice',
    section: 'authentication',
    usage:
      'List of client certificate common names to allow to provide usernames in headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
  },
} as const satisfies Record<string, FlagDecl>;

type AuthenticationFlag = keyof typeof authenticationFlags;

/** Algorithms go-oidc verifies (the real server's allow-list for `--oidc-signing-algs`). */
const oidcAlgs = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

/** The real `checkForWhiteSpaceOnly` of the request-header options. */
function whitespaceOnly(flag: string, values: string[] | undefined): string | undefined {
  return values?.some((v) => v.trim() === '') === true ? `empty value in "${flag}"` : undefined;
}

/**
 * The authentication flags as the core's configuration, with the files read.
 * Validation messages are the real server's; several at once are joined as
 * Go's error aggregate prints them (`[a, b]`).
 */
export function authenticationOf(
  raw: RawFlags<AuthenticationFlag>,
  read: ReadFile,
  warn: (message: string) => void,
  modes: string[] | undefined,
): { config: AuthenticationConfig | undefined; errors: string[] } {
  const s = raw.strings;
  const l = raw.lists;
  const errors: string[] = [];
  const config: AuthenticationConfig = {};
  let any = false;

  const anonymous = raw.bools['anonymous-auth'];
  if (anonymous !== undefined) {
    config.anonymous = anonymous;
    any = true;
  }
  // The real server stomps anonymous access off under AlwaysAllow, with this warning.
  if ((config.anonymous ?? true) && modes?.includes('AlwaysAllow') === true) {
    warn(
      'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer',
    );
    config.anonymous = false;
    any = true;
  }

  if (s['client-ca-file'] !== undefined) {
    config.clientCA = readFlagFile(read, s['client-ca-file'], 'unable to load client CA provider: ');
    any = true;
  }
  if (s['token-auth-file'] !== undefined) {
    config.tokenFile = readFlagFile(read, s['token-auth-file'], '');
    any = true;
  }
  if (raw.bools['enable-bootstrap-token-auth'] !== undefined) {
    config.bootstrapTokens = raw.bools['enable-bootstrap-token-auth'];
    any = true;
  }

  const saKeys = l['service-account-key-file'];
  const saIssuers = l['service-account-issuer'];
  const saLookup = raw.bools['service-account-lookup'];
  const audiences = l['api-audiences'];
  if (saKeys !== undefined || saIssuers !== undefined || saLookup !== undefined || audiences !== undefined) {
    const seen = new Set<string>();
    for (const issuer of saIssuers ?? []) {
      if (issuer.includes(':') && !URL.canParse(issuer))
        errors.push(`service-account-issuer "${issuer}" contained a ':' but was not a valid URL`);
      else if (issuer === '') errors.push('service-account-issuer should not be an empty string');
      else if (seen.has(issuer)) errors.push(`service-account-issuer "${issuer}" is already specified`);
      seen.add(issuer);
    }
    // Empty lists mean "the core's own": it signs with its generated key as its default issuer.
    config.serviceAccount = {
      keys: (saKeys ?? []).map((path) =>
        readFlagFile(read, path, 'failed to read service-account-key-file: '),
      ),
      issuers: saIssuers ?? [],
      ...(saLookup !== undefined ? { lookup: saLookup } : {}),
      ...(audiences !== undefined ? { apiAudiences: audiences } : {}),
    };
    any = true;
  }

  const issuerURL = s['oidc-issuer-url'] ?? '';
  const clientID = s['oidc-client-id'] ?? '';
  if ((issuerURL !== '') !== (clientID !== ''))
    errors.push('oidc-issuer-url and oidc-client-id should be specified together');
  else if (issuerURL !== '') {
    const scheme = URL.canParse(issuerURL) ? new URL(issuerURL).protocol.replace(/:$/, '') : '';
    if (scheme !== 'https')
      errors.push(`'oidc-issuer-url' ("${issuerURL}") has invalid scheme ("${scheme}"), require 'https'`);
    for (const alg of l['oidc-signing-algs'] ?? [])
      if (!oidcAlgs.includes(alg)) errors.push(`oidc: unsupported signing alg: "${alg}"`);
    config.oidc = {
      issuerURL,
      clientID,
      ...(s['oidc-username-claim'] !== undefined ? { usernameClaim: s['oidc-username-claim'] } : {}),
      ...(s['oidc-username-prefix'] !== undefined ? { usernamePrefix: s['oidc-username-prefix'] } : {}),
      ...(s['oidc-groups-claim'] !== undefined ? { groupsClaim: s['oidc-groups-claim'] } : {}),
      ...(s['oidc-groups-prefix'] !== undefined ? { groupsPrefix: s['oidc-groups-prefix'] } : {}),
      ...(raw.maps['oidc-required-claim'] !== undefined
        ? { requiredClaims: raw.maps['oidc-required-claim'] }
        : {}),
      ...(s['oidc-ca-file'] !== undefined
        ? { caPEM: readFlagFile(read, s['oidc-ca-file'], 'failed to read the OIDC CA file: ') }
        : {}),
      ...(l['oidc-signing-algs'] !== undefined ? { signingAlgs: l['oidc-signing-algs'] } : {}),
    };
    any = true;
  }

  const webhookFile = s['authentication-token-webhook-config-file'];
  const version = s['authentication-token-webhook-version'];
  if (version !== undefined && version !== 'v1' && version !== 'v1beta1')
    errors.push(
      `unsupported authentication webhook version "${version}", supported versions are "v1", "v1beta1"`,
    );
  let cacheTTLms: number | undefined;
  const ttl = s['authentication-token-webhook-cache-ttl'];
  if (ttl !== undefined) {
    try {
      cacheTTLms = parseGoDuration(ttl);
    } catch (e) {
      throw invalid('authentication-token-webhook-cache-ttl', ttl, (e as Error).message);
    }
  }
  if (webhookFile !== undefined) {
    config.webhook = {
      kubeconfig: readFlagFile(read, webhookFile, ''),
      // Files the kubeconfig names are read beside it, with Go's wording when one cannot be read.
      files: { path: resolve(webhookFile), read: (path) => goRead(read, path) },
      ...(cacheTTLms !== undefined ? { cacheTTLms } : {}),
      ...(version === 'v1' || version === 'v1beta1' ? { version } : {}),
    };
    any = true;
  }

  for (const flag of [
    'requestheader-username-headers',
    'requestheader-group-headers',
    'requestheader-extra-headers-prefix',
    'requestheader-allowed-names',
  ] as const) {
    const error = whitespaceOnly(flag, l[flag]);
    if (error !== undefined) errors.push(error);
  }
  // As on the real server, the proxy's headers are honoured only with a CA to check the proxy against.
  const proxyCA = s['requestheader-client-ca-file'];
  if (proxyCA !== undefined && proxyCA !== '') {
    const usernameHeaders = l['requestheader-username-headers'] ?? [];
    if (usernameHeaders.length > 0) {
      config.requestHeader = {
        usernameHeaders,
        clientCA: readFlagFile(read, proxyCA, 'unable to load requestheader client CA file: '),
        ...(l['requestheader-group-headers'] !== undefined
          ? { groupHeaders: l['requestheader-group-headers'] }
          : {}),
        ...(l['requestheader-extra-headers-prefix'] !== undefined
          ? { extraHeaderPrefixes: l['requestheader-extra-headers-prefix'] }
          : {}),
        ...(l['requestheader-allowed-names'] !== undefined
          ? { allowedNames: l['requestheader-allowed-names'] }
          : {}),
      };
      any = true;
    }
  }
  return { config: any ? config : undefined, errors };
}
