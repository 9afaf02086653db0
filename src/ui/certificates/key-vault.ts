/**
 * The private keys of the requests this page generated, kept for this
 * browser tab only (sessionStorage, like the identity choice) and keyed by
 * the request itself (`spec.request`), so a request of the same name made
 * elsewhere never picks up a key that does not match it. The keys never
 * go to the server; without one, an issued certificate can be read but not
 * used.
 */

const storageKey = 'orch-sandbox.csr-keys';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
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
  memory.set(requestBase64, keyPEM);
  try {
    storage()?.setItem(storageKey, JSON.stringify({ ...readAll(), [requestBase64]: keyPEM }));
  } catch {
    // Storage full or disabled: the key lasts for this page.
  }
}

export function keyFor(requestBase64: string | undefined): string | undefined {
  if (requestBase64 === undefined) return undefined;
  return memory.get(requestBase64) ?? readAll()[requestBase64];
}
