/**
 * The private keys of the requests this page generated, kept for this
 * browser tab only (sessionStorage, like the identity choice) and keyed by
 * the request itself (`spec.request`), so a request of the same name made
 * elsewhere never picks up a key that does not match it. The keys never
 * go to the server; without one, an issued certificate can be read but not
 * used.
 */

const storageKey = 'orch-sandbox.csr-keys';

/** How many keys are kept, the newest: a long session's requests would otherwise fill the tab's storage. */
export const keptKeys = 200;

/** The part of the Web Storage API used here (typed without the DOM library, so node-side tests compile it). */
interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function storage(): TabStorage | undefined {
  try {
    return (globalThis as { sessionStorage?: TabStorage }).sessionStorage;
  } catch {
    return undefined;
  }
}

// Also kept in memory, so a tab with storage disabled still works until it reloads.
const memory = new Map<string, string>();

function readAll(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(storageKey) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function keepKey(requestBase64: string, keyPEM: string): void {
  memory.delete(requestBase64);
  memory.set(requestBase64, keyPEM);
  for (const key of memory.keys()) {
    if (memory.size <= keptKeys) break;
    memory.delete(key);
  }
  try {
    // Object keys keep insertion order (base64 is never an integer key), so the last entries are the newest.
    const stored = Object.entries(readAll()).filter(([key]) => key !== requestBase64);
    stored.push([requestBase64, keyPEM]);
    storage()?.setItem(storageKey, JSON.stringify(Object.fromEntries(stored.slice(-keptKeys))));
  } catch {
    // Storage full or disabled: the key lasts for this page.
  }
}

export function keyFor(requestBase64: string | undefined): string | undefined {
  if (requestBase64 === undefined) return undefined;
  return memory.get(requestBase64) ?? readAll()[requestBase64];
}
