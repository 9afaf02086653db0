import { generateKeyPairSync, createPublicKey, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importPrivateKeyPEM, signatureParams } from './keys';

/** The SubjectPublicKeyInfo DER of a public key, to compare the imported half with the generated one. */
const spki = (key: KeyObject): Buffer => key.export({ type: 'spki', format: 'der' });

describe('importPrivateKeyPEM: the encodings Go’s keyutil reads', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const cases: { name: string; pem: string; publicKey: KeyObject; algorithm: string }[] = [
    {
      name: 'PKCS#8 RSA (PRIVATE KEY)',
      pem: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: rsa.publicKey,
      algorithm: 'RSASSA-PKCS1-v1_5',
    },
    {
      name: 'PKCS#1 RSA (RSA PRIVATE KEY, openssl genrsa)',
      pem: rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      publicKey: rsa.publicKey,
      algorithm: 'RSASSA-PKCS1-v1_5',
    },
    {
      name: 'SEC1 P-256 (EC PRIVATE KEY, openssl ecparam -genkey)',
      pem: p256.privateKey.export({ type: 'sec1', format: 'pem' }).toString(),
      publicKey: p256.publicKey,
      algorithm: 'ECDSA',
    },
    {
      name: 'SEC1 P-384 after an EC PARAMETERS block',
      pem: `-----BEGIN EC PARAMETERS-----\nBgUrgQQAIg==\n-----END EC PARAMETERS-----\n${p384.privateKey.export({ type: 'sec1', format: 'pem' }).toString()}`,
      publicKey: p384.publicKey,
      algorithm: 'ECDSA',
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const keys = await importPrivateKeyPEM(c.pem);
      expect(keys.privateKey.algorithm.name).toBe(c.algorithm);
      const publicDER = Buffer.from(await crypto.subtle.exportKey('spki', keys.publicKey));
      expect(publicDER.equals(spki(c.publicKey))).toBe(true);
      // The private half signs what the (generated, equal) public key verifies.
      const data = new TextEncoder().encode('signed');
      const signature = await crypto.subtle.sign(signatureParams(keys.privateKey), keys.privateKey, data);
      const verified = await crypto.subtle.verify(
        signatureParams(keys.publicKey),
        keys.publicKey,
        signature,
        data,
      );
      expect(verified).toBe(true);
    });

  it('refuses what holds no private key, with keyutil’s message', async () => {
    const publicOnly = createPublicKey(rsa.privateKey).export({ type: 'spki', format: 'pem' }).toString();
    await expect(importPrivateKeyPEM(publicOnly)).rejects.toThrow(
      'data does not contain a valid RSA or ECDSA private key',
    );
  });
});
