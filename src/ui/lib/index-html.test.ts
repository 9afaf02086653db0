/// <reference types="vite/client" />
// index.html's inline scripts run before any module loads (the theme before the first paint; on a reload,
// the admin's identities and the first screen's reads), so they repeat the UI's storage keys and the
// built-in admin's name: each must be the one the UI's code uses, or the page and the UI drift apart.
import { describe, expect, it } from 'vitest';
import page from '../../../index.html?raw';
import { firstScreenKey } from './first-screen';
import { adminIdentityName, deferredIdentitiesPath, identityKey } from './identity';
import { preferenceKey } from './preferences';

/** The one string `pattern`'s group captures in index.html (it must occur exactly once). */
function repeated(pattern: RegExp): string | undefined {
  const found = [...page.matchAll(new RegExp(pattern, 'g'))];
  expect(found, String(pattern)).toHaveLength(1);
  return found[0]?.[1];
}

describe("index.html's inline scripts", () => {
  it('read the theme and the profile under the preferences keys', () => {
    expect(repeated(/localStorage\.getItem\('([^']*)'\);\s*if \(theme === 'light'/)).toBe(
      preferenceKey('theme'),
    );
    expect(repeated(/localStorage\.getItem\('([^']*)'\) === 'kubernetes'/)).toBe(preferenceKey('profile'));
  });

  it("ask for the built-in admin by the UI's names, only when the tab chose no identity", () => {
    expect(repeated(/sessionStorage\.getItem\('([^']*)'\) === null/)).toBe(identityKey);
    expect(repeated(/fetch\('([^']*)'/)).toBe(deferredIdentitiesPath);
    expect(repeated(/identity\.name === '([^']*)'/)).toBe(adminIdentityName);
  });

  it('read the first screen the last page kept under its key', () => {
    expect(repeated(/sessionStorage\.getItem\('([^']*)'\) \?\? 'null'/)).toBe(firstScreenKey);
  });
});
