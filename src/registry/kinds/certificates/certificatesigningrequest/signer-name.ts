/**
 * The rule for signer names (the real `ValidateSignerName`): a DNS domain
 * of at least two labels, one `/`, and a path of dot-separated DNS
 * subdomains, at most 571 bytes in all — room for
 * `<fqdn>/<namespace>.<name>`. The name decides who may approve and sign
 * (`signers` by name or `<domain>/*`), so its shape must be unambiguous.
 */

import { fieldError, GoValueText, type FieldError } from '../../../../machinery/field-errors';
import { goQuote } from '../../../../machinery/go-format';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../../machinery/names';

const maxDomainLength = 253;
const maxPathLength = 253 + 63 + 1;
const maxSignerNameLength = maxDomainLength + maxPathLength + 1;

const byteLength = (s: string): number => new TextEncoder().encode(s).length;

/** A string bad value as Go's `%q` prints it. */
export const quoted = (s: string): GoValueText => new GoValueText(goQuote(s));

export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName === '') return [fieldError.required(path, '')];
  const segments = signerName.split('/');
  const [domain = '', signerPath = ''] = segments;
  if (segments.length !== 2)
    return [
      fieldError.invalid(
        path,
        quoted(signerName),
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  const errors: FieldError[] = [];
  if (byteLength(domain) > maxDomainLength) errors.push(fieldError.tooLong(path, maxDomainLength));
  const domainLabels = domain.split('.');
  // Only the first bad label is reported: later ones would repeat the same message.
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    for (const p of problems)
      errors.push(fieldError.invalid(path, quoted(domain), `validating label ${goQuote(label)}: ${p}`));
    break;
  }
  if (domainLabels.length < 2)
    errors.push(
      fieldError.invalid(
        path,
        quoted(domain),
        'should be a domain with at least two segments separated by dots',
      ),
    );
  for (const label of signerPath.split('.')) {
    const problems = isDNS1123Subdomain(label);
    if (problems.length === 0) continue;
    for (const p of problems)
      errors.push(fieldError.invalid(path, quoted(signerPath), `validating label ${goQuote(label)}: ${p}`));
    break;
  }
  if (byteLength(signerName) > maxSignerNameLength)
    errors.push(fieldError.tooLong(path, maxSignerNameLength));
  return errors;
}
