import { describe, expect, it } from 'vitest';
import { oidcAuthenticator } from '../authn/oidc';
import { createSandboxIssuer, discoveryPath, jwksPath } from './issuer';

describe('sandbox OIDC issuer', () => {
  it('serves discovery and keys under <base>/sandbox/v1/oidc', async () => {
    const issuer = await createSandboxIssuer({ baseURL: 'http://localhost:5173/' });
    expect(issuer.issuerURL).toBe('http://localhost:5173/sandbox/v1/oidc');
    expect(issuer.discovery()).toMatchObject({
      issuer: issuer.issuerURL,
      jwks_uri: 'http://localhost:5173/sandbox/v1/oidc/jwks',
      id_token_signing_alg_values_supported: ['RS256'],
    });
    const [key] = issuer.jwks().keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
    const res = await issuer.fetch(new Request(`http://localhost:5173${discoveryPath}`));
    expect(await res.json()).toEqual(issuer.discovery());
    expect(await (await issuer.fetch(new Request(`http://localhost:5173${jwksPath}`))).json()).toEqual(
      issuer.jwks(),
    );
  });

  it('mints tokens the OIDC authenticator accepts, with a key that survives persistence', async () => {
    const first = await createSandboxIssuer({ baseURL: 'http://localhost:5173' });
    const restored = await createSandboxIssuer({
      baseURL: 'http://localhost:5173',
      key: await first.exportKey(),
    });
    expect(restored.jwks()).toEqual(first.jwks());
    const auth = oidcAuthenticator(
      { issuerURL: first.issuerURL, clientID: 'orch-sandbox', usernameClaim: 'email', groupsClaim: 'groups' },
      { fetch: restored.fetch, allowInsecureIssuer: true },
    );
    const token = await first.mint({
      sub: 'learner',
      email: 'learner@sandbox.test',
      groups: ['learners'],
      audience: 'orch-sandbox',
    });
    expect(await auth.authenticateToken(token)).toEqual({
      user: { username: 'learner@sandbox.test', groups: ['learners'] },
      audiences: [],
    });
  });
});
