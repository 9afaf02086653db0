/**
 * Service-account JWTs, verified as the real server does. Two
 * authenticators share the code: the legacy one accepts the issuer
 * `orch/serviceaccount` (upstream `kubernetes/serviceaccount`) with the
 * profile-prefixed private claims of secret tokens, and checks the Secret and
 * account only under `--service-account-lookup`; the bound one accepts the
 * configured issuers, checks `exp`/`nbf`/`iat` with a one-minute leeway and
 * always checks that the account (and the bound pod or secret) still exists
 * with the token's uid. A token whose issuer is not its own is not its
 * business (no opinion); a token with its issuer that fails any check is an
 * error, whose real text TokenReview shows in `status.error`.
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import type { ObjectLister } from '../listers';
import { joseLibrary } from '../../machinery/jose';
import { secretData } from '../../machinery/bootstrap-token';
import { legacyIssuer, serviceAccountUsername, type VerificationKey } from './service-account-signer';
import type { ExplainingTokenAuthenticator, TokenAuthentication, TokenVerdict } from './types';

/** go-jose's answer to any signature that does not verify (wrong key, tampered, unsupported alg). */
export const cryptoFailure = 'square/go-jose: error in cryptographic primitive';
/** Clock skew tolerated on `exp`, `nbf`, `iat` and deletion times (go-jose's DefaultLeeway). */
const leewaySeconds = 60;

export interface ServiceAccountListers {
  serviceAccounts: ObjectLister;
  secrets: ObjectLister;
  pods: ObjectLister;
}

/**
 * Verification keys that may not exist yet (the sandbox's own signing key, made on its first use): asked with
 * each token to verify. `create: false` gives only a key that exists (in this server or stored by another);
 * `create: true` makes it if needed (a token without a key id, tried with every key as before).
 */
export type LateKeys = (options: { create: boolean }) => Promise<readonly VerificationKey[]>;

export interface ServiceAccountAuthenticatorOptions {
  profile: NamingProfile;
  keys: readonly VerificationKey[];
  lateKeys?: LateKeys;
  /** The bound authenticator's issuers (`--service-account-issuer`); the legacy one uses the legacy issuer. */
  issuers: readonly string[];
  /** `--api-audiences`. */
  apiAudiences: readonly string[];
  /** `--service-account-lookup` (legacy tokens only; bound tokens are always looked up). Default true. */
  lookup?: boolean;
  listers: ServiceAccountListers;
  now?: () => number;
  /** Told of the Secret of each legacy token that authenticates with lookup on (legacy token tracking). */
  legacyTokenUsed?: (secret: KubeObject) => void;
}

type Claims = Record<string, unknown>;
type Outcome = { namespace: string; name: string; uid: string; pod?: { name: string; uid: string } } | Error;

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return undefined;
  try {
    const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    return undefined;
  }
}

function record(value: unknown): Claims | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Claims) : undefined;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goQuoted(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

function uidOf(object: KubeObject): string {
  return object.metadata?.uid ?? '';
}

/** Seconds since the epoch of a deletion timestamp, or undefined when none. */
function deletedAt(object: KubeObject): number | undefined {
  const at = object.metadata?.deletionTimestamp;
  return typeof at === 'string' ? Date.parse(at) / 1000 : undefined;
}

export class ServiceAccountTokenAuthenticator implements ExplainingTokenAuthenticator {
  private readonly issuers: readonly string[];
  private readonly now: () => number;

  constructor(
    readonly mode: 'legacy' | 'bound',
    private readonly options: ServiceAccountAuthenticatorOptions,
  ) {
    this.issuers = mode === 'legacy' ? [legacyIssuer(options.profile)] : options.issuers;
    this.now = options.now ?? Date.now;
  }

  async reviewToken(token: string, audiences?: readonly string[]): Promise<TokenVerdict> {
    const parts = token.split('.');
    const claims =
      parts.length === 3 && !token.trim().startsWith('{') ? record(decodeSegment(parts[1] ?? '')) : undefined;
    if (claims === undefined) return declined('not a JWT');
    if (!this.issuers.includes(str(claims['iss']))) {
      return declined(
        `issuer ${JSON.stringify(claims['iss'] ?? '')} is not one of ${JSON.stringify(this.issuers)}`,
      );
    }
    const header = record(decodeSegment(parts[0] ?? ''));
    if (
      header === undefined ||
      typeof header['alg'] !== 'string' ||
      !/^[A-Za-z0-9_-]*$/.test(parts[2] ?? '')
    ) {
      return declined('not a well-formed JWS');
    }

    const signature = await this.verifySignature(token, header);
    if (signature !== undefined) return signature;

    const requested = audiences ?? this.options.apiAudiences;
    const aud = claims['aud'];
    let tokenAudiences = Array.isArray(aud) ? aud.map(str) : typeof aud === 'string' ? [aud] : [];
    // Tokens without audiences (legacy ones) are valid for the API audiences only.
    if (tokenAudiences.length === 0) tokenAudiences = [...this.options.apiAudiences];
    const granted = tokenAudiences.filter((a) => requested.includes(a));
    if (granted.length === 0 && this.options.apiAudiences.length > 0) {
      return failed(
        `token audiences ${goQuoted(tokenAudiences)} is invalid for the target audiences ${goQuoted(requested)}`,
      );
    }

    const outcome = this.mode === 'legacy' ? this.validateLegacy(token, claims) : this.validateBound(claims);
    if (outcome instanceof Error) return { kind: 'failed', result: 'rejected', error: outcome };
    const user = {
      username: serviceAccountUsername(outcome.namespace, outcome.name),
      uid: outcome.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${outcome.namespace}`],
      ...(outcome.pod === undefined ? {} : { extra: this.podExtra(outcome.pod) }),
    };
    return { kind: 'accepted', authentication: { user, audiences: granted } };
  }

  async authenticateToken(
    token: string,
    audiences?: readonly string[],
  ): Promise<TokenAuthentication | undefined> {
    const verdict = await this.reviewToken(token, audiences);
    if (verdict.kind === 'failed') throw verdict.error;
    return verdict.kind === 'accepted' ? verdict.authentication : undefined;
  }

  /** Undefined when a key verifies the signature; otherwise the failure. Keys are picked by `kid` when set. */
  private async verifySignature(token: string, header: Claims): Promise<TokenVerdict | undefined> {
    const kid = str(header['kid']);
    const late = (await this.options.lateKeys?.({ create: kid === '' })) ?? [];
    const all = late.length === 0 ? this.options.keys : [...this.options.keys, ...late];
    const keys = kid === '' ? all : all.filter((k) => k.kid === kid);
    if (keys.length === 0)
      return failed('invalid signature, no keys found', `no key has the token's kid "${kid}"`);
    const alg = str(header['alg']);
    const reasons: string[] = [];
    const { compactVerify, importJWK } = await joseLibrary.load();
    for (const key of keys) {
      if (!key.algorithms.includes(alg)) {
        reasons.push(`alg "${alg}" cannot be verified with key ${key.kid}`);
        continue;
      }
      try {
        await compactVerify(token, await importJWK({ ...key.jwk, alg }, alg));
        return undefined;
      } catch {
        reasons.push(`the signature does not verify with key ${key.kid}`);
      }
    }
    return failed(cryptoFailure, reasons.join('; '));
  }

  private validateLegacy(token: string, claims: Claims): Outcome {
    const claim = (name: string) => str(claims[this.options.profile.prefixed(`serviceaccount/${name}`)]);
    const subject = str(claims['sub']);
    const [namespace, secretName, name, uid] = [
      claim('namespace'),
      claim('secret.name'),
      claim('service-account.name'),
      claim('service-account.uid'),
    ];
    if (subject === '') return new Error('sub claim is missing');
    if (namespace === '') return new Error('namespace claim is missing');
    if (secretName === '') return new Error('secretName claim is missing');
    if (name === '') return new Error('serviceAccountName claim is missing');
    if (uid === '') return new Error('serviceAccountUID claim is missing');
    if (subject !== serviceAccountUsername(namespace, name)) return new Error('sub claim is invalid');
    if (this.options.lookup === false) return { namespace, name, uid };

    const secret = this.options.listers.secrets.get(namespace, secretName);
    if (secret === undefined || deletedAt(secret) !== undefined)
      return new Error('Token has been invalidated');
    if (secretData(secret, 'token') !== token) return new Error("Token does not match server's copy");
    const account = this.options.listers.serviceAccounts.get(namespace, name);
    if (account === undefined) return new Error(`serviceaccounts "${name}" not found`);
    if (deletedAt(account) !== undefined)
      return new Error(`ServiceAccount ${namespace}/${name} has been deleted`);
    if (uidOf(account) !== uid)
      return new Error(`ServiceAccount UID (${uidOf(account)}) does not match claim (${uid})`);
    this.options.legacyTokenUsed?.(secret);
    return { namespace, name, uid };
  }

  private validateBound(claims: Claims): Outcome {
    const now = this.now() / 1000;
    const time = this.checkTimes(claims, now);
    if (time !== undefined) return time;

    const own = record(claims[this.options.profile.labelDomain]) ?? {};
    const namespace = str(own['namespace']);
    const account = record(own['serviceaccount']) ?? {};
    const [name, uid] = [str(account['name']), str(account['uid'])];
    const deletedBefore = now - leewaySeconds;
    const gone = (o: KubeObject) => (deletedAt(o) ?? Infinity) < deletedBefore;

    const stored = this.options.listers.serviceAccounts.get(namespace, name);
    if (stored === undefined) return new Error(`serviceaccounts "${name}" not found`);
    if (gone(stored)) return new Error(`service account ${namespace}/${name} has been deleted`);
    if (uidOf(stored) !== uid)
      return new Error(`service account UID (${uidOf(stored)}) does not match claim (${uid})`);

    const secretRef = record(own['secret']);
    if (secretRef !== undefined) {
      const secret = this.options.listers.secrets.get(namespace, str(secretRef['name']));
      if (secret === undefined || gone(secret))
        return new Error('service account token has been invalidated');
      const claimed = str(secretRef['uid']);
      if (claimed !== uidOf(secret))
        return new Error(`secret UID (${uidOf(secret)}) does not match claim (${claimed})`);
    }
    const podRef = record(own['pod']);
    if (podRef === undefined) return { namespace, name, uid };
    const pod = this.options.listers.pods.get(namespace, str(podRef['name']));
    if (pod === undefined || gone(pod)) return new Error('service account token has been invalidated');
    const podUID = str(podRef['uid']);
    if (podUID !== uidOf(pod)) return new Error(`pod UID (${uidOf(pod)}) does not match claim (${podUID})`);
    return { namespace, name, uid, pod: { name: str(podRef['name']), uid: podUID } };
  }

  /** The real claim validation: nbf, then exp, then iat, each with the leeway. */
  private checkTimes(claims: Claims, now: number): Error | undefined {
    for (const field of ['exp', 'nbf', 'iat']) {
      const value = claims[field];
      if (value !== undefined && typeof value !== 'number') {
        return new Error(
          `json: cannot unmarshal ${typeof value} into Go struct field Claims.${field} of type jwt.NumericDate`,
        );
      }
    }
    const at = (field: string) => (typeof claims[field] === 'number' ? (claims[field] as number) : undefined);
    const [nbf, exp, iat] = [at('nbf'), at('exp'), at('iat')];
    if (nbf !== undefined && now + leewaySeconds < nbf)
      return new Error('service account token is not valid yet');
    if (exp !== undefined && now - leewaySeconds > exp) return new Error('service account token has expired');
    if (iat !== undefined && now + leewaySeconds < iat)
      return new Error('service account token is issued in the future');
    return undefined;
  }

  private podExtra(pod: { name: string; uid: string }): Record<string, string[]> {
    const key = (name: string) => this.options.profile.subPrefixed('authentication', name);
    return { [key('pod-name')]: [pod.name], [key('pod-uid')]: [pod.uid] };
  }
}

function declined(reason: string): TokenVerdict {
  return { kind: 'declined', result: 'no-credential', reason };
}

function failed(message: string, reason?: string): TokenVerdict {
  const error = new Error(message);
  return {
    kind: 'failed',
    result: 'rejected',
    error,
    reason: reason === undefined ? message : `${message} (${reason})`,
  };
}
