/** The issuer's discovery document: the real fields, `jwks_uri` from the flag, the advertised or else the reached address, algorithms sorted and unique. */

import { describe, expect, it } from 'vitest';
import { openIdConfiguration } from './openid-metadata';

const keys = [
  { kty: 'RSA', alg: 'RS256', kid: 'a' },
  { kty: 'EC', alg: 'ES256', kid: 'b' },
  { kty: 'RSA', alg: 'RS256', kid: 'c' },
];

describe('openIdConfiguration', () => {
  it('names the JWKS at the address the client reached while no address is advertised', () => {
    expect(openIdConfiguration({ issuer: 'https://issuer', keys }, '10.0.0.1:6443')).toEqual({
      issuer: 'https://issuer',
      jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    });
  });
  it('names the JWKS at the advertised address when one is known, whatever the client reached', () => {
    const doc = openIdConfiguration(
      { issuer: 'https://issuer', advertisedURL: 'https://127.0.0.1:6443', keys },
      'attacker.example',
    );
    expect(doc['jwks_uri']).toBe('https://127.0.0.1:6443/openid/v1/jwks');
  });
  it('uses --service-account-jwks-uri when given', () => {
    const doc = openIdConfiguration(
      { issuer: 'https://issuer', jwksURI: 'https://keys.example/jwks', keys },
      'h',
    );
    expect(doc['jwks_uri']).toBe('https://keys.example/jwks');
  });
});
