/**
 * The last discovery this tab read, kept in sessionStorage so that a reload
 * draws the explorer's kinds at once while discovery is read again (the
 * fresh answer replaces it a few tens of milliseconds later, and the usable
 * marker waits for that answer). It is kept per naming profile and acting
 * identity (whom the UI acts as and impersonates): what one may discover
 * another may not, so a changed identity or profile finds no entry. Only a
 * complete discovery is kept (one with a failed group version is not).
 */

import type { Discovery } from '../../client/index';
import { adminIdentityName, type ActingAs } from './identity';

const storageKey = 'orch-sandbox.discovery';

interface Entry {
  scope: string;
  groupVersions: Discovery['groupVersions'];
}

/**
 * The entry's text as last read or written here, with its parse: a load reads the entry twice (the main
 * script's early reads, then the explorer's first render) and the `pagehide` handler once more, each a
 * `JSON.parse` of the whole discovery on the page's main thread, the last one before the next page can
 * commit. The same text gives the same entry, so each is parsed once.
 */
let known: { text: string; entry: Partial<Entry> } | undefined;

/** Whose discovery it is: the profile, the identity (the built-in admin by default) and whom it impersonates. */
export function discoveryScope(profile: string, acting: ActingAs | undefined): string {
  return JSON.stringify([profile, acting?.name ?? adminIdentityName, acting?.impersonate?.user ?? '']);
}

export function readDiscovery(scope: string, storage = sessionStorageOrUndefined()): Discovery | undefined {
  try {
    const text = storage?.getItem(storageKey);
    if (text === null || text === undefined) return undefined;
    if (known?.text !== text) known = { text, entry: JSON.parse(text) as Partial<Entry> };
    const { entry } = known;
    if (entry.scope !== scope || !Array.isArray(entry.groupVersions)) return undefined;
    return { groupVersions: entry.groupVersions, failed: [] };
  } catch {
    return undefined;
  }
}

export function writeDiscovery(
  scope: string,
  discovery: Discovery,
  storage = sessionStorageOrUndefined(),
): void {
  try {
    if (discovery.failed.length > 0) storage?.removeItem(storageKey);
    else {
      const entry = { scope, groupVersions: discovery.groupVersions };
      const text = JSON.stringify(entry);
      storage?.setItem(storageKey, text);
      known = { text, entry };
    }
  } catch {
    // Storage full or disabled: the next reload reads discovery before drawing the kinds, as a first visit does.
  }
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}
