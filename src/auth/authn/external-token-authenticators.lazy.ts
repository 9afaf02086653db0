/**
 * The token authenticators that ask another party: OIDC (the sandbox's own
 * issuer by default, or `--oidc-*`) and the token webhook
 * (`--authentication-token-webhook-config-file`). Built at start when
 * flags configure them (a bad configuration still refuses the start);
 * otherwise the sandbox issuer's authenticator is loaded with the first
 * token that no authenticator before it accepted, never on the path to the
 * worker's first response (decision 0070, round 3).
 */

export { oidcAuthenticator } from './oidc';
export { tokenWebhookAuthenticator } from './token-webhook';
