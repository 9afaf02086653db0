/**
 * Service-account token keys and minting. Loads the PEM keys the real
 * `--service-account-key-file` accepts (public or private, RSA or ECDSA,
 * PKIX/PKCS#8/PKCS#1/SEC1 or a certificate) through WebCrypto, names each by
 * the real key id (base64url SHA-256 of the DER public key), and signs the
 * sandbox's own tokens — legacy secret tokens and bound (TokenRequest)
 * tokens — with the claims the real token generator writes, profile-named.
 * The signing key can be generated, or exported and loaded again (PEM or
 * JWK) so a host can persist it.
 */

import { joseLibrary, type JWK } from '../../machinery/jose';
import type { NamingProfile } from '../../machinery/naming';
import { pkcs8FromPKCS1, pkcs8FromSEC1, readTlv, spkiFromPKCS1, tlvChildren } from '../pki/der';

// DER OIDs (tag and length included) and the WebCrypto parameters they stand for.
const OID_RSA = '06092a864886f70d010101';
const OID_EC = '06072a8648ce3d0201';
const CURVES: Record<string, { crv: string; alg: string }> = {
  '06082a8648ce3d030107': { crv: 'P-256', alg: 'ES256' },
  '06052b81040022': { crv: 'P-384', alg: 'ES384' },
  '06052b81040023': { crv: 'P-521', alg: 'ES512' },
};
const RSA_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

export interface VerificationKey {
  /** The real key id: base64url(SHA-256(DER SubjectPublicKeyInfo)). */
  kid: string;
  /** The public key as a JWK (with `kid`, `use`, `alg`), as the JWKS document shows it. */
  jwk: JWK;
  /** The JWS algorithms this key can verify. */
  algorithms: string[];
  spkiPEM: string;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

type Bytes = Uint8Array<ArrayBuffer>;

export interface PemBlock {
  label: string;
  der: Bytes;
}

export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    try {
      const binary = atob((m[2] ?? '').replace(/\s+/g, ''));
      blocks.push({ label: m[1] ?? '', der: Uint8Array.from(binary, (c) => c.charCodeAt(0)) });
    } catch {
      // A block that is not base64 is no key; the real loader skips what it cannot parse.
    }
  }
  return blocks;
}

type KeyDer = { format: 'spki' | 'pkcs8'; der: Bytes };

/** Rewraps PKCS#1, SEC1 and certificates into the SPKI/PKCS#8 forms WebCrypto imports. */
function normalize(block: PemBlock): KeyDer | undefined {
  const { der } = block;
  switch (block.label) {
    case 'PUBLIC KEY':
      return { format: 'spki', der };
    case 'PRIVATE KEY':
      return { format: 'pkcs8', der };
    case 'RSA PUBLIC KEY':
      return { format: 'spki', der: spkiFromPKCS1(der) };
    case 'RSA PRIVATE KEY':
      return { format: 'pkcs8', der: pkcs8FromPKCS1(der) };
    case 'EC PRIVATE KEY':
      return { format: 'pkcs8', der: pkcs8FromSEC1(der) };
    case 'CERTIFICATE': {
      const tbs = tlvChildren(der, readTlv(der, 0))[0];
      if (tbs === undefined) return undefined;
      const fields = tlvChildren(der, tbs);
      const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
      const spki = rest[5];
      return spki === undefined ? undefined : { format: 'spki', der: der.slice(spki.at, spki.end) };
    }
    default:
      return undefined;
  }
}

/** The WebCrypto import parameters for a SPKI or PKCS#8 key, from its AlgorithmIdentifier. */
function importParams(key: KeyDer): RsaHashedImportParams | EcKeyImportParams | undefined {
  const parts = tlvChildren(key.der, readTlv(key.der, 0));
  const algId = parts[key.format === 'spki' ? 0 : 1];
  if (algId === undefined) return undefined;
  const [oid, param] = tlvChildren(key.der, algId);
  if (oid === undefined) return undefined;
  const oidHex = hex(key.der.slice(oid.at, oid.end));
  if (oidHex === OID_RSA) return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const curve = param === undefined ? undefined : CURVES[hex(key.der.slice(param.at, param.end))];
  if (oidHex === OID_EC && curve !== undefined) return { name: 'ECDSA', namedCurve: curve.crv };
  return undefined;
}

const PRIVATE_FIELDS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'key_ops', 'ext'] as const;

/** The public half of a key, as a public JWK. */
async function publicJWK(key: CryptoKey): Promise<JWK> {
  const { exportJWK } = await joseLibrary.load();
  const jwk = await exportJWK(key);
  for (const field of PRIVATE_FIELDS) delete jwk[field];
  return jwk;
}

/** Describes a public JWK the way the real server advertises it. */
export async function verificationKey(jwk: JWK): Promise<VerificationKey> {
  const { base64url, exportSPKI, importJWK } = await joseLibrary.load();
  const algorithms =
    jwk.kty === 'RSA' ? RSA_ALGS : [Object.values(CURVES).find((c) => c.crv === jwk.crv)?.alg ?? ''];
  const alg = algorithms[0] ?? '';
  const base = { ...jwk };
  delete base.alg;
  delete base.kid;
  delete base.use;
  const key = await importJWK({ ...base, alg }, alg, { extractable: true });
  if (!(key instanceof CryptoKey)) throw new Error('not an asymmetric key');
  const spkiPEM = await exportSPKI(key);
  const der = pemBlocks(spkiPEM)[0]?.der ?? new Uint8Array();
  const kid = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', der)));
  return { kid, jwk: { use: 'sig', kty: base.kty, kid, alg, ...base }, algorithms, spkiPEM };
}

/** Imports one PEM block's key (private keys give their public half); undefined when it holds none. */
async function importBlock(block: PemBlock): Promise<{ publicKey: JWK; privateKey?: CryptoKey } | undefined> {
  try {
    const key = normalize(block);
    const params = key === undefined ? undefined : importParams(key);
    if (key === undefined || params === undefined) return undefined;
    const usage: KeyUsage[] = key.format === 'pkcs8' ? ['sign'] : ['verify'];
    const imported = await crypto.subtle.importKey(key.format, key.der, params, true, usage);
    return key.format === 'pkcs8'
      ? { publicKey: await publicJWK(imported), privateKey: imported }
      : { publicKey: await publicJWK(imported) };
  } catch {
    return undefined;
  }
}

/** Every key in one `--service-account-key-file`'s contents; throws the real error when there is none. */
export async function loadVerificationKeys(pem: string): Promise<VerificationKey[]> {
  const keys: VerificationKey[] = [];
  for (const block of pemBlocks(pem)) {
    const found = await importBlock(block);
    if (found !== undefined) keys.push(await verificationKey(found.publicKey));
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

export interface AccountRef {
  namespace: string;
  name: string;
  uid: string;
}

export interface BoundTokenRequest {
  namespace: string;
  account: { name: string; uid: string };
  audiences: string[];
  expirationSeconds: number;
  boundObject?: { kind: 'Pod' | 'Secret'; name: string; uid: string };
  /** Seconds since the epoch; default now. */
  now?: number;
  /** Projected tokens the kubelet refreshes: warn when used after this many seconds (`warnafter`). */
  warnAfterSeconds?: number;
}

/** `system:serviceaccount:<ns>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The issuer of legacy secret tokens: `orch/serviceaccount` (upstream `kubernetes/serviceaccount`). */
export function legacyIssuer(profile: NamingProfile): string {
  return `${profile.word}/serviceaccount`;
}

export class ServiceAccountSigner {
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly key: VerificationKey,
    private readonly profile: NamingProfile,
    /** The issuer of bound tokens (the first `--service-account-issuer`). */
    readonly issuer: string,
  ) {}

  static async generate(
    profile: NamingProfile,
    issuer: string,
    // RSA 2048 by default: tokens are RS256, as a kubeadm cluster's (its sa.key is RSA).
    alg: 'ES256' | 'RS256' = 'RS256',
  ): Promise<ServiceAccountSigner> {
    const { generateKeyPair } = await joseLibrary.load();
    const pair = await generateKeyPair(alg, {
      extractable: true,
      ...(alg === 'RS256' ? { modulusLength: 2048 } : {}),
    });
    return new ServiceAccountSigner(
      pair.privateKey,
      await verificationKey(await publicJWK(pair.publicKey)),
      profile,
      issuer,
    );
  }

  /** From a private key PEM (PKCS#8, PKCS#1 or SEC1). */
  static async fromPEM(pem: string, profile: NamingProfile, issuer: string): Promise<ServiceAccountSigner> {
    for (const block of pemBlocks(pem)) {
      const found = await importBlock(block);
      if (found?.privateKey === undefined) continue;
      return new ServiceAccountSigner(
        found.privateKey,
        await verificationKey(found.publicKey),
        profile,
        issuer,
      );
    }
    throw new Error('no RSA or ECDSA private key in the PEM data');
  }

  /** From a private JWK (as `exportJWK` returned it). */
  static async fromJWK(jwk: JWK, profile: NamingProfile, issuer: string): Promise<ServiceAccountSigner> {
    const alg =
      jwk.kty === 'RSA' ? 'RS256' : (Object.values(CURVES).find((c) => c.crv === jwk.crv)?.alg ?? '');
    const { importJWK } = await joseLibrary.load();
    const privateKey = await importJWK({ ...jwk, alg }, alg, { extractable: true });
    if (!(privateKey instanceof CryptoKey)) throw new Error('not an asymmetric key');
    return new ServiceAccountSigner(
      privateKey,
      await verificationKey(await publicJWK(privateKey)),
      profile,
      issuer,
    );
  }

  get alg(): string {
    return this.key.algorithms[0] ?? '';
  }

  async exportPEM(): Promise<string> {
    return (await joseLibrary.load()).exportPKCS8(this.privateKey);
  }

  async exportJWK(): Promise<JWK> {
    return (await joseLibrary.load()).exportJWK(this.privateKey);
  }

  /** For `--service-account-key-file`. */
  publicKeysPEM(): string[] {
    return [this.key.spkiPEM];
  }

  /** The JWKS document the issuer's discovery serves. */
  jwks(): { keys: JWK[] } {
    return { keys: [{ ...this.key.jwk }] };
  }

  /** A legacy token for a `service-account-token` Secret: no expiry, no audience. */
  signLegacy(account: AccountRef, secret: { name: string }): Promise<string> {
    const claim = (name: string) => this.profile.prefixed(`serviceaccount/${name}`);
    return this.sign({
      iss: legacyIssuer(this.profile),
      [claim('namespace')]: account.namespace,
      [claim('secret.name')]: secret.name,
      [claim('service-account.name')]: account.name,
      [claim('service-account.uid')]: account.uid,
      sub: serviceAccountUsername(account.namespace, account.name),
    });
  }

  /** A bound token: audiences, `iat`/`nbf` now, `exp` after `expirationSeconds`, bound to a pod or secret. */
  signBound(request: BoundTokenRequest): Promise<string> {
    const now = request.now ?? Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      namespace: request.namespace,
      serviceaccount: { name: request.account.name, uid: request.account.uid },
    };
    if (request.boundObject !== undefined) {
      const { kind, name, uid } = request.boundObject;
      claims[kind === 'Pod' ? 'pod' : 'secret'] = { name, uid };
    }
    if (request.warnAfterSeconds !== undefined) claims['warnafter'] = now + request.warnAfterSeconds;
    return this.sign({
      aud: request.audiences,
      exp: now + request.expirationSeconds,
      iat: now,
      iss: this.issuer,
      [this.profile.labelDomain]: claims,
      nbf: now,
      sub: serviceAccountUsername(request.namespace, request.account.name),
    });
  }

  private async sign(payload: Record<string, unknown>): Promise<string> {
    const { SignJWT } = await joseLibrary.load();
    return new SignJWT(payload)
      .setProtectedHeader({ alg: this.alg, kid: this.key.kid })
      .sign(this.privateKey);
  }
}
