import { describe, expect, it } from 'vitest';
import { audiencesOf, claimDate, decodeJwt, serviceAccountUser } from './jwt';

// A service account token's shape; the signature part is never checked by the page.
const jwtSample =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJhdWQiOlsiaHR0cHM6Ly9vcmNoLmRlZmF1bHQuc3ZjLmNsdXN0ZXIubG9jYWwiXSwiZXhwIjoxNzY3MjI5MjAwLCJpYXQiOjE3NjcyMjU2MDAsImlzcyI6Imh0dHBzOi8vb3JjaC5kZWZhdWx0LnN2Yy5jbHVzdGVyLmxvY2FsIiwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50OmRlZmF1bHQ6ZGVmYXVsdCJ9.c2ln';

describe('reading a token', () => {
  it('decodes header and claims without verifying', () => {
    const { header, claims } = decodeJwt(jwtSample);
    expect(header).toEqual({ alg: 'RS256', kid: 'k1' });
    expect(audiencesOf(claims)).toEqual(['https://orch.default.svc.cluster.local']);
    expect(claimDate(claims, 'exp')?.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(audiencesOf({ aud: 'x' })).toEqual(['x']);
    expect(() => decodeJwt('a.b')).toThrow('a JWT has three parts, this has 2');
  });

  it("names a service account's user and groups", () => {
    expect(serviceAccountUser('dev', 'ci')).toEqual({
      username: 'system:serviceaccount:dev:ci',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:dev', 'system:authenticated'],
    });
  });
});
