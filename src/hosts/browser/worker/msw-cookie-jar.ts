/**
 * Stands in for `tough-cookie` in the worker build (vite.config.ts aliases
 * it here). MSW keeps a cookie jar, persisted in localStorage, to fill a
 * handler's `cookies` argument and to remember `Set-Cookie` of mocked
 * responses. The worker's handlers never read that argument and the API
 * server sets no cookies, so the jar only cost a public-suffix list of
 * ~110 KiB gzip in the worker script and a domain match on every request.
 * A request's own `Cookie` header still reaches the server untouched.
 */

/** A stored cookie; the jar below never holds any, so nothing is ever restored. */
export class Cookie {
  domain: string | null = null;
  path: string | null = null;
  key = '';

  static fromJSON(): Cookie | undefined {
    return undefined;
  }

  toJSON(): Record<string, never> {
    return {};
  }
}

/** The index MSW reads and persists: always empty. */
export class MemoryCookieStore {
  idx: Record<string, Record<string, Record<string, Cookie>>> = {};
}

export class CookieJar {
  constructor(readonly store?: MemoryCookieStore) {}

  getCookiesSync(): Cookie[] {
    return [];
  }

  setCookie(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}
