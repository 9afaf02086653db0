/**
 * The check of `status.certificate`: nothing, or PEM `CERTIFICATE` blocks
 * only (a signer may store a chain), without headers, each holding
 * certificates that parse — the real `validateCertificate`, with Go's
 * messages. Clients read this field as "the certificate", so stray keys or
 * text must never land in it.
 */

import { x509 } from '../../../../auth/pki/x509';
import { goQuote } from '../../../../machinery/go-format';
import { goPemDecode, latin1 } from '../../../../auth/pki/go-pem';

/** The DER values concatenated in `der` (Go's `ParseCertificates` accepts several in one block). */
function splitDer(der: Uint8Array): Uint8Array[] | undefined {
  const out: Uint8Array[] = [];
  let offset = 0;
  while (offset < der.length) {
    if ((der[offset] ?? 0) !== 0x30 || offset + 1 >= der.length) return undefined;
    const b = der[offset + 1] ?? 0;
    let header = 2;
    let length = b;
    if (b >= 0x80) {
      const count = b & 0x7f;
      if (count === 0 || count > 4 || offset + 2 + count > der.length) return undefined;
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + (der[offset + 2 + i] ?? 0);
      header += count;
    }
    const end = offset + header + length;
    if (end > der.length) return undefined;
    out.push(der.subarray(offset, end));
    offset = end;
  }
  return out;
}

function parses(der: Uint8Array): boolean {
  const { X509Certificate } = x509();
  try {
    new X509Certificate(new Uint8Array(der));
    return true;
  } catch {
    return false;
  }
}

/** Undefined when `bytes` are empty or hold only well-formed CERTIFICATE blocks; otherwise Go's error text (the library must be loaded). */
export function certificateError(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return undefined;
  let rest = latin1(bytes);
  let blocks = 0;
  for (;;) {
    const decoded = goPemDecode(rest);
    if (decoded === undefined) break;
    const { block } = decoded;
    if (block.type !== 'CERTIFICATE')
      return `only CERTIFICATE PEM blocks are allowed, found ${goQuote(block.type)}`;
    if (Object.keys(block.headers).length > 0) return 'no PEM block headers are permitted';
    blocks++;
    const certs = splitDer(block.bytes);
    if (certs === undefined || !certs.every(parses)) return 'x509: malformed certificate';
    if (certs.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    rest = decoded.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}
