/**
 * Base64 of text as the API carries it in `[]byte` fields and Secret data
 * (standard alphabet, padded, of the text's UTF-8 bytes), without Node's
 * Buffer so that the core and the browser share it. Decoding a body the
 * way Go's decoder judges it is go-base64.ts's job; these helpers read and
 * write values that are already valid.
 */

/** Base64 of the UTF-8 bytes of `text`. */
export function encodeBase64Text(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The UTF-8 text of base64 `data` (white space, as in wrapped PEM-like values, ignored); throws on invalid base64. */
export function decodeBase64Text(data: string): string {
  const binary = atob(data.replace(/\s+/g, ''));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
