/**
 * The four built-in signers under a naming profile, each with its rules
 * (one file each), and the signing service the server hands the CSR
 * controllers: validate a request against its signer's rules, and either
 * say why not (the message of the `Failed` condition) or issue the
 * certificate from the CA configured for that signer. The service also
 * answers the auto-approver's one question — is this a valid node client
 * request, and whose — so controllers never parse X.509 themselves.
 */

import type { NamingProfile, SignerKind } from '../../machinery/naming';
import type { CertificateAuthority } from '../pki/issue';
import { goPemDecode } from '../pki/go-pem';
import { ownBytes } from '../pki/pem';
import { x509, x509Library } from '../pki/x509';
import { validateApiserverClient } from './kube-apiserver-client';
import { validateKubeletClient } from './kubelet-client';
import { validateKubeletServing } from './kubelet-serving';
import { validateLegacyUnknown } from './legacy-unknown';
import { parseRequestPEM, requestView, type RequestView } from './request';
import { certificateLifetimeMs, signRequest } from './sign';

export { parseRequestPEM, requestView, type RequestView } from './request';
export { certificateLifetimeMs, validityPeriod, backdateMs, shortLifetimeMs } from './sign';

export type { SignerKind } from '../../machinery/naming';

/** A signer rule: the message of the refusal, or undefined when the request may be signed. */
export type SignerRule = (request: RequestView, usages: readonly string[]) => string | undefined;

export interface BuiltInSigner {
  kind: SignerKind;
  /** The signer name under the profile (`orch.io/apiserver-client`, `kubernetes.io/kube-apiserver-client`, …). */
  name: string;
  validate: SignerRule;
}

const rules: Record<SignerKind, SignerRule> = {
  apiserverClient: validateApiserverClient,
  apiserverClientKubelet: validateKubeletClient,
  kubeletServing: validateKubeletServing,
  legacyUnknown: validateLegacyUnknown,
};

export function builtInSigners(profile: NamingProfile): BuiltInSigner[] {
  const names = profile.signers;
  return (Object.keys(rules) as SignerKind[]).map((kind) => ({
    kind,
    name: names[kind],
    validate: rules[kind],
  }));
}

/** The built-in signer of that name, or undefined for a custom signer name. */
export function builtInSigner(profile: NamingProfile, signerName: string): BuiltInSigner | undefined {
  return builtInSigners(profile).find((s) => s.name === signerName);
}

/** What the signing controller asks for one approved request. */
export interface SigningRequest {
  /** The PEM text of `spec.request`. */
  request: string;
  usages: readonly string[];
  signerName: string;
  expirationSeconds?: number;
  now: Date;
}

export type SigningOutcome = { certificate: string } | { failure: string };

export interface CertificateSigningService {
  /** The node client signer's name (the one the auto-approver looks at). */
  readonly nodeClientSigner: string;
  /** True when a built-in signer of that name runs here (has a CA); custom names are never ours. */
  handles(signerName: string): boolean;
  /** The issued PEM, or the rule the request breaks; throws when it cannot be parsed or signed (tried again later). */
  sign(input: SigningRequest): Promise<SigningOutcome>;
  /** The common name of a valid node client request (the real `IsKubeletClientCSR`), else undefined; rejects when unparsable. */
  nodeClientCommonName(request: string, usages: readonly string[]): Promise<string | undefined>;
  /** NotAfter of the first certificate of a PEM bundle (the cleaner's expiry check), or undefined. */
  certificateNotAfter(pem: string): Promise<Date | undefined>;
}

export interface SigningServiceOptions {
  profile: NamingProfile;
  /**
   * The CA of each running signer; a signer without one is not run (as with per-signer files for others only).
   * A function is called when the CA is first needed (the cluster CA, which a fresh store creates then).
   */
  authorities: Partial<Record<SignerKind, CertificateAuthority | (() => Promise<CertificateAuthority>)>>;
  /** `--cluster-signing-duration` in milliseconds (default 8760h). */
  durationMs?: number;
}

/** `--cluster-signing-duration`'s default: one year. */
export const defaultSigningDurationMs = 8760 * 3_600_000;

export function certificateSigningService(o: SigningServiceOptions): CertificateSigningService {
  const signers = builtInSigners(o.profile);
  const durationMs = o.durationMs ?? defaultSigningDurationMs;
  const running = (signerName: string) => {
    const signer = signers.find((s) => s.name === signerName);
    const ca = signer === undefined ? undefined : o.authorities[signer.kind];
    return signer === undefined || ca === undefined ? undefined : { signer, ca };
  };
  return {
    nodeClientSigner: o.profile.signers.apiserverClientKubelet,
    handles: (signerName) => running(signerName) !== undefined,
    async sign(input) {
      const found = running(input.signerName);
      if (found === undefined) throw new Error(`unrecognized signerName: "${input.signerName}"`);
      await x509Library.load();
      const request = requestView(parseRequestPEM(input.request));
      const failure = found.signer.validate(request, input.usages);
      if (failure !== undefined) return { failure };
      const certificate = await signRequest({
        ca: typeof found.ca === 'function' ? await found.ca() : found.ca,
        request,
        usages: input.usages,
        lifetimeMs: certificateLifetimeMs(durationMs, input.expirationSeconds),
        now: input.now,
      });
      return { certificate };
    },
    async nodeClientCommonName(request, usages) {
      await x509Library.load();
      const view = requestView(parseRequestPEM(request));
      return validateKubeletClient(view, usages) === undefined ? view.commonName : undefined;
    },
    async certificateNotAfter(pem) {
      // Go's cleaner reads the first block Go's PEM reader finds, whatever its label; unreadable means not expired.
      const block = goPemDecode(pem)?.block;
      if (block === undefined) return undefined;
      await x509Library.load();
      const { X509Certificate } = x509();
      try {
        return new X509Certificate(ownBytes(block.bytes)).notAfter;
      } catch {
        return undefined;
      }
    },
  };
}
