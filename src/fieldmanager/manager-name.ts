/**
 * The name a write is recorded under: the `fieldManager` query parameter,
 * or else the User-Agent up to its first `/` (kubectl's
 * `kubectl-client-side-apply/v1.27.0 (...)` becomes
 * `kubectl-client-side-apply`), as the real server derives it; and the
 * real server's checks on an explicit `fieldManager`.
 */

import { fieldError, type FieldError } from '../machinery/field-errors';

/** The longest manager name, in UTF-8 bytes. */
export const fieldManagerMaxLength = 128;

const utf8 = new TextEncoder();

/**
 * Printable ASCII only (space to `~`): every such character is a letter, number, punctuation, symbol or the
 * space, one UTF-8 byte each. The common names (a browser's `Mozilla`, `kubectl-…`) take this path, which
 * reads the string once instead of testing a Unicode class and encoding each character (decision 0089).
 */
const printableAscii = /^[\x20-\x7e]*$/;

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** The last User-Agent seen and its manager: a client sends the same one with every request. */
let lastUserAgent: string | null | undefined;
let lastManager = '';

/** The User-Agent before its first `/`, without unprintable characters, cut to 128 bytes. */
export function managerFromUserAgent(userAgent: string | null): string {
  if (userAgent === lastUserAgent) return lastManager;
  const manager = managerOf(userAgent);
  lastUserAgent = userAgent;
  lastManager = manager;
  return manager;
}

function managerOf(userAgent: string | null): string {
  const prefix = (userAgent ?? '').split('/')[0] ?? '';
  if (printableAscii.test(prefix)) return prefix.slice(0, fieldManagerMaxLength);
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!isPrint(ch)) continue;
    const n = utf8.encode(ch).length;
    if (bytes + n > fieldManagerMaxLength) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The manager of a write: `fieldManager` when given, else from the User-Agent. */
export function managerOrUserAgent(fieldManager: string | null, userAgent: string | null): string {
  return fieldManager !== null && fieldManager !== '' ? fieldManager : managerFromUserAgent(userAgent);
}

/** The real server's checks of a `fieldManager` option (length, printable characters). */
export function validateFieldManager(fieldManager: string, field = 'fieldManager'): FieldError[] {
  if (fieldManager.length <= fieldManagerMaxLength && printableAscii.test(fieldManager)) return [];
  const errors: FieldError[] = [];
  if (utf8.encode(fieldManager).length > fieldManagerMaxLength)
    errors.push(fieldError.tooLong(field, fieldManagerMaxLength));
  let position = 0;
  for (const ch of fieldManager) {
    if (!isPrint(ch)) {
      const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errors.push(
        fieldError.invalid(field, fieldManager, `invalid character U+${code} (at position ${position})`),
      );
    }
    position += utf8.encode(ch).length;
  }
  return errors;
}
