/**
 * How authentication is configured: the real server's flags, as values.
 * Hosts read the files the flags name and pass their contents (the core
 * reads no files), and hand in transports for calls to external services
 * (an OIDC issuer's discovery and keys, a token webhook), so the browser
 * host can route them to in-sandbox backends and the Node host to real
 * HTTPS.
 */

import type { KubeconfigFiles } from '../../machinery/kubeconfig-files';

/** Sends one HTTP request to an external service; the transport verifies TLS against the given CA (PEM) when set. */
export type ExternalFetch = (request: Request, options?: { caPEM?: string }) => Promise<Response>;

export interface OidcConfig {
  issuerURL: string;
  clientID: string;
  /** Default `sub`. */
  usernameClaim?: string;
  /** `-` disables prefixing; unset: the issuer URL and `#` unless the claim is `email`. */
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  /** `key=value` pairs every token must carry. */
  requiredClaims?: Record<string, string>;
  caPEM?: string;
  /** Default `['RS256']`. */
  signingAlgs?: string[];
}

export interface TokenWebhookConfig {
  /** The kubeconfig-format file's contents naming the service (`clusters[].cluster.server`, its CA). */
  kubeconfig: string;
  /** Where the files the kubeconfig names are read (the Node host); absent, only the `*-data` forms work. */
  files?: KubeconfigFiles;
  /** Default 2 minutes. */
  cacheTTLms?: number;
  /** Default `v1beta1`. */
  version?: 'v1' | 'v1beta1';
}

export interface RequestHeaderConfig {
  usernameHeaders: string[];
  groupHeaders?: string[];
  extraHeaderPrefixes?: string[];
  /** PEM bundle the proxy's client certificate must verify against. */
  clientCA: string;
  /** Allowed common names of the proxy's certificate; empty allows any. */
  allowedNames?: string[];
}

export interface ServiceAccountAuthConfig {
  /** PEM public (or private) keys that verify service-account tokens (`--service-account-key-file`, repeatable). */
  keys: string[];
  /** Accepted issuers (`--service-account-issuer`, repeatable; the first one signs). */
  issuers: string[];
  /** `--service-account-lookup`: tokens of deleted accounts (and of deleted bound objects) are rejected. Default true. */
  lookup?: boolean;
  /** `--api-audiences`; default the first issuer. */
  apiAudiences?: string[];
}

export interface AuthenticationConfig {
  /** `--anonymous-auth`; default true. */
  anonymous?: boolean;
  /** `--client-ca-file` contents. */
  clientCA?: string;
  /** `--token-auth-file` contents (CSV). */
  tokenFile?: string;
  /** `--enable-bootstrap-token-auth`. */
  bootstrapTokens?: boolean;
  serviceAccount?: ServiceAccountAuthConfig;
  oidc?: OidcConfig;
  webhook?: TokenWebhookConfig;
  requestHeader?: RequestHeaderConfig;
  /** Reaches external services (OIDC discovery and keys, the token webhook). */
  fetch?: ExternalFetch;
}
