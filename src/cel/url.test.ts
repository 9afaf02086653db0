import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import { isURL, parseURL } from './url';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

describe('URL library (Go ParseRequestURI semantics)', () => {
  it('accepts absolute URLs and absolute paths, not relative references', () => {
    expect(isURL('https://example.com')).toBe(true);
    expect(isURL('/absolute/path')).toBe(true);
    expect(isURL('mailto:someone@example.com')).toBe(true);
    expect(isURL('relative/path')).toBe(false);
    expect(isURL('')).toBe(false);
    expect(isURL('https://exa mple.com')).toBe(false);
    expect(isURL('https://example.com:80a')).toBe(false);
    expect(isURL('https://example.com/%zz')).toBe(false);
  });

  it('gives scheme, host, hostname, port, escaped path and query', () => {
    const u = parseURL('HTTPS://user@[::1]:8443/a%20b/c?x=1&y=&x=2');
    expect(u.scheme).toBe('https');
    expect(u.host).toBe('[::1]:8443');
    expect(u.hostname()).toBe('::1');
    expect(u.port()).toBe('8443');
    expect(u.escapedPath()).toBe('/a%20b/c');
    expect(u.query()).toEqual({ x: ['1', '2'], y: [''] });
  });

  it('escapes a path given unescaped', () => {
    expect(parseURL('https://example.com/a b').escapedPath()).toBe('/a%20b');
    expect(parseURL('https://example.com').port()).toBe('');
  });

  it('fails url() with the real server words', () => {
    expect(() => parseURL('relative/path')).toThrow(
      'URL parse error during conversion from string: parse "relative/path": invalid URI for request',
    );
  });
});
