/**
 * The sandbox's offline OpenID Connect issuer (see issuer.ts): what the
 * lead wires into the sandbox API and what the OIDC authenticator trusts
 * when learners point `--oidc-issuer-url` at it.
 */

export * from './issuer';
