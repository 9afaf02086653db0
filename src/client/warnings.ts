/**
 * Reads the `Warning` response header (RFC 7234 section 5.5): the server
 * sends one `299 - "text"` item per warning (unknown fields, deprecated
 * APIs), comma-separated when combined, with `"` and `\` escaped inside
 * the quotes. Clients show the texts, so they are unquoted here.
 */

export function parseWarnings(header: string | null): string[] {
  if (header === null) return [];
  const warnings: string[] = [];
  let i = 0;
  const quoted = (): string => {
    // header[i] is the opening quote; returns the unescaped text and leaves i after the closing quote.
    let text = '';
    for (i++; i < header.length && header[i] !== '"'; i++) {
      if (header[i] === '\\' && i + 1 < header.length) i++;
      text += header[i];
    }
    i++;
    return text;
  };
  while (i < header.length) {
    const start = header.indexOf('"', i);
    if (start < 0) break;
    i = start;
    warnings.push(quoted());
    while (header[i] === ' ') i++;
    if (header[i] === '"') quoted(); // the optional warn-date
    const comma = header.indexOf(',', i);
    if (comma < 0) break;
    i = comma + 1;
  }
  return warnings;
}
