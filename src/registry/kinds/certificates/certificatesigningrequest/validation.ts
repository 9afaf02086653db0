/**
 * Validation of a CertificateSigningRequest, as the real
 * `pkg/apis/certificates/validation` does it for each kind of write: the
 * request itself (PEM, PKCS#10, signature), usages, signer name,
 * expirationSeconds, conditions and the issued certificate, plus what an
 * update of the main resource, of `status` or of `approval` may change.
 * Problems a stored object already has are tolerated on its updates, as on
 * the real server, so old data never becomes impossible to approve or
 * sign.
 */

import type { KubeObject } from '../../../../api/meta';
import { decodeGoBase64 } from '../../../../machinery/go-base64';
import { fieldError, GoValueText, type FieldError } from '../../../../machinery/field-errors';
import { latin1 } from '../../../../auth/pki/go-pem';
import { goBytesValue } from './go-bytes';
import { requestError } from './request';
import { certificateError } from './certificate';
import { x509Library } from '../../../../auth/pki/x509';
import { quoted, validateSignerName } from './signer-name';
import { conditionAllowances, conditionUpdateErrors, validateConditions } from './conditions';

/** Every key usage a request may ask for (the real `allValidUsages`), sorted as Go lists them. */
export const knownUsages: readonly string[] = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
].sort();

/** Which write is validated: a create, an update of the main resource, or of a subresource. */
export type CsrWrite = 'create' | 'update' | 'status' | 'approval';

interface Spec {
  request?: unknown;
  signerName?: unknown;
  usages?: unknown;
  expirationSeconds?: unknown;
}

const specOf = (obj: KubeObject | undefined): Spec => (obj?.spec ?? {}) as Spec;
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : [];

/** The bytes of a `[]byte` field (base64 in JSON); absent for a missing field. */
function bytesOf(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string') return undefined;
  const decoded = decodeGoBase64(value);
  // Bodies with bad base64 never get here (decoding answers 400); internal writes show the text as is.
  return decoded.ok ? decoded.bytes : new TextEncoder().encode(value);
}

const certificateBytes = (obj: KubeObject | undefined): Uint8Array =>
  bytesOf((obj?.status as { certificate?: unknown } | undefined)?.certificate) ?? new Uint8Array();

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => latin1(a) === latin1(b);

const hasUnknownUsage = (usages: string[]): boolean => usages.some((u) => !knownUsages.includes(u));
const hasDuplicateUsage = (usages: string[]): boolean => new Set(usages).size !== usages.length;

async function requestErrors(request: unknown): Promise<FieldError[]> {
  // A missing request is the schema's `Required value`.
  const bytes = bytesOf(request);
  if (bytes === undefined) return [];
  const problem = await requestError(bytes);
  return problem === undefined
    ? []
    : [fieldError.invalid('spec.request', new GoValueText(goBytesValue(bytes)), problem)];
}

function usageErrors(usages: string[], old: KubeObject | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (usages.length === 0) errors.push(fieldError.required('spec.usages', ''));
  const oldUsages = strings(specOf(old).usages);
  if (old === undefined || !hasUnknownUsage(oldUsages))
    usages.forEach((u, i) => {
      if (!knownUsages.includes(u))
        errors.push(fieldError.notSupported(`spec.usages[${i}]`, quoted(u), knownUsages));
    });
  if (old === undefined || !hasDuplicateUsage(oldUsages)) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errors.push(fieldError.duplicate(`spec.usages[${i}]`, quoted(u)));
      seen.add(u);
    });
  }
  return errors;
}

function signerNameErrors(
  signerName: string,
  old: KubeObject | undefined,
  legacySigner: string,
): FieldError[] {
  const legacyStored = old !== undefined && specOf(old).signerName === legacySigner;
  if (signerName === legacySigner && !legacyStored)
    return [
      fieldError.invalid(
        'spec.signerName',
        quoted(signerName),
        'the legacy signerName is not allowed via this API version',
      ),
    ];
  return validateSignerName('spec.signerName', signerName);
}

function certificateErrors(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const bytes = certificateBytes(obj);
  if (old !== undefined) {
    const stored = certificateBytes(old);
    // Untouched, or already bad in storage: tolerated.
    if (sameBytes(bytes, stored) || certificateError(stored) !== undefined) return [];
  }
  const problem = certificateError(bytes);
  return problem === undefined
    ? []
    : [fieldError.invalid('status.certificate', '<certificate data>', problem)];
}

/** What the write may not change: conditions and the certificate, by the subresource written. */
function updateErrors(obj: KubeObject, old: KubeObject, write: CsrWrite): FieldError[] {
  const errors = conditionUpdateErrors(obj, old, write === 'approval');
  const stored = certificateBytes(old);
  if (!sameBytes(certificateBytes(obj), stored)) {
    if (write !== 'status')
      errors.push(fieldError.forbidden('status.certificate', 'updates may not set certificate content'));
    else if (stored.length > 0)
      errors.push(
        fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content'),
      );
  }
  return errors;
}

/**
 * Every problem of `obj` for this write, in the real server's order; `old`
 * is the stored object (absent on create), `legacySigner` the profile's
 * `<domain>/legacy-unknown`, refused through v1.
 */
export async function validateCertificateSigningRequest(
  obj: KubeObject,
  old: KubeObject | undefined,
  write: CsrWrite,
  legacySigner: string,
): Promise<FieldError[]> {
  // The request's and the certificate's checks parse X.509: the library is loaded by the first write of a request.
  await x509Library.load();
  const spec = specOf(obj);
  const errors = await requestErrors(spec.request);
  errors.push(...usageErrors(strings(spec.usages), old));
  errors.push(
    ...signerNameErrors(typeof spec.signerName === 'string' ? spec.signerName : '', old, legacySigner),
  );
  const seconds = spec.expirationSeconds;
  if (typeof seconds === 'number' && seconds < 600)
    errors.push(
      fieldError.invalid(
        'spec.expirationSeconds',
        seconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  const allow =
    old === undefined
      ? { bothApprovedAndDenied: false, duplicateTypes: false, emptyType: false }
      : conditionAllowances(old);
  errors.push(...validateConditions(obj, allow));
  errors.push(...certificateErrors(obj, old));
  if (old !== undefined && write !== 'create') errors.push(...updateErrors(obj, old, write));
  return errors;
}
