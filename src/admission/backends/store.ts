/**
 * Declared backends, kept with the server's state in the storage's
 * settings (so they survive restarts and travel with exports) and read
 * again on every call, so an import or another tab's edit takes effect at
 * once.
 */

import type { BackendReader, WebhookBackend } from './types';

/** The part of the storage this needs. */
export interface SettingsStore {
  getSetting<T>(name: string): Promise<T | undefined>;
  setSetting<T>(name: string, value: T): Promise<void>;
}

export const BACKENDS_SETTING = 'sandbox.webhookBackends';

export interface BackendStore extends BackendReader {
  get(name: string): Promise<WebhookBackend | undefined>;
  /** Creates or replaces; true when it was created. */
  put(backend: WebhookBackend): Promise<boolean>;
  /** The deleted backend, if there was one. */
  delete(name: string): Promise<WebhookBackend | undefined>;
}

export function backendStore(settings: SettingsStore): BackendStore {
  // Writes are serialized so two concurrent PUTs never lose one another.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const list = async () => (await settings.getSetting<WebhookBackend[]>(BACKENDS_SETTING)) ?? [];
  return {
    list,
    async get(name) {
      return (await list()).find((b) => b.name === name);
    },
    put: (backend) =>
      serialized(async () => {
        const all = await list();
        const i = all.findIndex((b) => b.name === backend.name);
        const next = i < 0 ? [...all, backend] : all.map((b, j) => (j === i ? backend : b));
        next.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        await settings.setSetting(BACKENDS_SETTING, next);
        return i < 0;
      }),
    delete: (name) =>
      serialized(async () => {
        const all = await list();
        const found = all.find((b) => b.name === name);
        if (found !== undefined)
          await settings.setSetting(
            BACKENDS_SETTING,
            all.filter((b) => b.name !== name),
          );
        return found;
      }),
  };
}
