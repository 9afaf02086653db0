/**
 * Opens the worker's storage: the IndexedDB database named after the naming
 * profile, through the Dexie backend. IndexedDB outlives the worker, which the
 * browser stops when idle, so every restart reopens the same state.
 */

import { createDexieStorage } from '../../../storage/dexie/dexie-storage';
import type { Storage } from '../../../storage/types';

export function openStorage(name: string): Storage {
  return createDexieStorage({ name });
}
