/**
 * Endpoints: the real validation of the addresses a Service's endpoints may
 * name — no unspecified, loopback or link-local address (what makes the
 * `kubernetes` Endpoints unpublishable for a loopback advertise address).
 */

import type { KubeObject } from '../../../../api/meta';
import type { FieldError } from '../../../../machinery/field-errors';
import { parseIP } from '../../../../machinery/service-ranges';
import type { KindRegistration } from '../../types';

/** Why an address may not be an endpoint (the real `validateNonSpecialIP`), or undefined. */
export function specialIPReason(ip: string): string | undefined {
  const parsed = parseIP(ip);
  if (parsed === undefined) return 'must be a valid IP address';
  const v = parsed.value;
  if (parsed.family === 'IPv4') {
    if (v === 0n) return 'may not be unspecified (0.0.0.0)';
    if (v >> 24n === 127n) return 'may not be in the loopback range (127.0.0.0/8, ::1/128)';
    if (v >> 16n === 0xa9fen) return 'may not be in the link-local range (169.254.0.0/16, fe80::/10)';
    if (v >> 8n === 0xe00000n)
      return 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)';
    return undefined;
  }
  if (v === 0n) return 'may not be unspecified (0.0.0.0)';
  if (v === 1n) return 'may not be in the loopback range (127.0.0.0/8, ::1/128)';
  if (v >> 118n === 0x3fan) return 'may not be in the link-local range (169.254.0.0/16, fe80::/10)';
  if (v >> 112n === 0xff02n) return 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)';
  return undefined;
}

function addressErrors(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const subsets = Array.isArray(obj.subsets) ? obj.subsets : [];
  for (const [i, subset] of subsets.entries()) {
    if (typeof subset !== 'object' || subset === null) continue;
    for (const key of ['addresses', 'notReadyAddresses'] as const) {
      const list = (subset as Record<string, unknown>)[key];
      for (const [j, address] of (Array.isArray(list) ? list : []).entries()) {
        const ip = (address as Record<string, unknown> | null)?.ip;
        if (typeof ip !== 'string') continue;
        const why = specialIPReason(ip);
        if (why !== undefined)
          errors.push({
            type: 'FieldValueInvalid',
            field: `subsets[${i}].${key}[${j}].ip`,
            badValue: ip,
            detail: why,
          });
      }
    }
  }
  return errors;
}

export const endpoints: KindRegistration = {
  // The real `ValidateEndpointsUpdate` checks the addresses again.
  hooks: { validate: addressErrors, validateUpdate: addressErrors },
};
