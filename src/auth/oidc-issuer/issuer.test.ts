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
    const [key] = (await issuer.jwks()).keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
    const res = await issuer.fetch(new Request(`http://localhost:5173${discoveryPath}`));
    expect(await res.json()).toEqual(issuer.discovery());
    expect(await (await issuer.fetch(new Request(`http://localhost:5173${jwksPath}`))).json()).toEqual(
      await issuer.jwks(),
    );
  });

  it('mints tokens the OIDC authenticator accepts, with a key that survives persistence', async () => {
    const first = await createSandboxIssuer({ baseURL: 'http://localhost:5173' });
    const restored = await createSandboxIssuer({
      baseURL: 'http://localhost:5173',
      key: await first.exportKey(),
    });
    expect(await restored.jwks()).toEqual(await first.jwks());
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

  it('asks for a key given as a function on its first use, once', async () => {
    const stored = await (await createSandboxIssuer({ baseURL: 'http://localhost:5173' })).exportKey();
    let asked = 0;
    const issuer = await createSandboxIssuer({
      baseURL: 'http://localhost:5173',
      key: async () => {
        asked++;
        return stored;
      },
    });
    expect(issuer.discovery().issuer).toBe('http://localhost:5173/sandbox/v1/oidc');
    expect(asked).toBe(0);
    const [a, b] = await Promise.all([issuer.jwks(), issuer.mint({ sub: 'x', audience: 'sandbox' })]);
    expect(asked).toBe(1);
    expect(a.keys[0]).toMatchObject({ kty: 'RSA', n: stored.n });
    expect(b.split('.')).toHaveLength(3);
  });
});
