/**
 * An in-memory `localStorage` for the service worker. msw's cookie store
 * reads `localStorage` when its module is evaluated, and workers have none,
 * so this module must be imported before `msw` (the worker entry imports it
 * first). Nothing here persists: the worker's state lives in IndexedDB.
 */

/** The Web Storage API surface (the WebWorker lib has no `Storage` type). */
interface WebStorage {
  readonly length: number;
  clear(): void;
  getItem(key: string): string | null;
  key(index: number): string | null;
  removeItem(key: string): void;
  setItem(key: string, value: string): void;
}

class MemoryStorage implements WebStorage {
  readonly #items = new Map<string, string>();

  get length(): number {
    return this.#items.size;
  }

  clear(): void {
    this.#items.clear();
  }

  getItem(key: string): string | null {
    return this.#items.get(String(key)) ?? null;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  removeItem(key: string): void {
    this.#items.delete(String(key));
  }

  setItem(key: string, value: string): void {
    this.#items.set(String(key), String(value));
  }
}

const scope = globalThis as { localStorage?: WebStorage };
if (scope.localStorage === undefined) {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
}
