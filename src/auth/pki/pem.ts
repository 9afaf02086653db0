/**
 * PEM armour for DER bytes: certificates (`CERTIFICATE`), PKCS#8 private
 * keys (`PRIVATE KEY`), public keys (`PUBLIC KEY`) and certificate requests
 * (`CERTIFICATE REQUEST`). Files the hosts read (`--client-ca-file`, a
 * kubeconfig's `certificate-authority-data`) hold bundles, so decoding
 * returns every block of the wanted label in order and ignores the text
 * around them, as the real server's certificate loaders do.
 */

export type PemLabel = 'CERTIFICATE' | 'PRIVATE KEY' | 'PUBLIC KEY' | 'CERTIFICATE REQUEST' | (string & {});

/** Base64 (standard alphabet, padded) of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so long certificates do not exceed the argument limit of fromCharCode.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Bytes of base64 text (standard or URL alphabet, padding and whitespace optional); throws on other characters. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const normalized = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const padded = normalized + '='.repeat((4 - (normalized.length % 4)) % 4);
  const binary = atob(padded);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** One PEM block per DER value, 64-column base64, each ending in a newline. */
export function encodePEM(der: Uint8Array | readonly Uint8Array[], label: PemLabel): string {
  const items = der instanceof Uint8Array ? [der] : der;
  return items
    .map((bytes) => {
      const lines = toBase64(bytes).match(/.{1,64}/g) ?? [];
      return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
    })
    .join('');
}

export interface PemBlock {
  label: string;
  der: Uint8Array<ArrayBuffer>;
}

/** Every PEM block in `text`, in order. */
export function decodePEMBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const body = (m[2] ?? '')
      .split('\n')
      // Encapsulated headers (`Proc-Type: …`) are not base64; skip them.
      .filter((line) => !line.includes(':'))
      .join('');
    blocks.push({ label: m[1] ?? '', der: fromBase64(body) });
  }
  return blocks;
}

/** The DER of each block labelled `label` (default `CERTIFICATE`). */
export function decodePEM(text: string, label: PemLabel = 'CERTIFICATE'): Uint8Array<ArrayBuffer>[] {
  return decodePEMBlocks(text)
    .filter((b) => b.label === label)
    .map((b) => b.der);
}

/** Bytes backed by a plain ArrayBuffer (a copy only when needed), which WebCrypto and the X.509 parser require. */
export function ownBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
