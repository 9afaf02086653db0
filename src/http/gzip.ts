/**
 * Gzip for answers the real server compresses when the client asks: the
 * `/metrics` text, as Prometheus' handler (promhttp) gzips it whenever the
 * scrape's `Accept-Encoding` names gzip — Prometheus always does, and a
 * fresh server's text is megabytes. Uses the web platform's
 * CompressionStream, which both hosts have (Node and the service worker).
 */

/** Whether an `Accept-Encoding` value accepts gzip (`gzip` or `*` without `q=0`). */
export function acceptsGzip(header: string | null): boolean {
  if (header === null) return false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/** The gzip encoding of a text's UTF-8 bytes. */
export async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}
