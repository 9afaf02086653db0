// The core's Web Crypto types under Node's type set: Node 20 has these globals at run time, but @types/node
// declares them only inside `node:crypto`'s `webcrypto` namespace, so the Node typecheck (tests, the Node host)
// sees them here.
import type { webcrypto } from 'node:crypto';

declare global {
  type CryptoKey = webcrypto.CryptoKey;
  type CryptoKeyPair = webcrypto.CryptoKeyPair;
  type Algorithm = webcrypto.Algorithm;
  type AlgorithmIdentifier = webcrypto.AlgorithmIdentifier;
  type EcKeyGenParams = webcrypto.EcKeyGenParams;
  type EcKeyImportParams = webcrypto.EcKeyImportParams;
  type EcdsaParams = webcrypto.EcdsaParams;
  type KeyAlgorithm = webcrypto.KeyAlgorithm;
  type KeyUsage = webcrypto.KeyUsage;
  type RsaHashedImportParams = webcrypto.RsaHashedImportParams;
  type RsaHashedKeyGenParams = webcrypto.RsaHashedKeyGenParams;
  var CryptoKey: { prototype: webcrypto.CryptoKey; new (): webcrypto.CryptoKey };
}
