/**
 * Export and import of the Dexie backend's whole database through Dexie's
 * export addon (`dexie-export-import`), the only module that imports it.
 * The addon is loaded on first use, which keeps it out of every start-up
 * path, and because its module reads `self` as it loads and reads blobs
 * with `FileReader`, which Node lacks (the Node host and the unit tests run
 * this backend over fake-indexeddb), the two get minimal stand-ins there
 * first. An import is validated in full before the addon clears anything, so
 * a malformed file changes nothing. (The addon reads the file between its
 * writes, which an outer IndexedDB transaction would not survive, so only a
 * storage failure part way, such as a full disk, can leave a partial state.)
 */

import type { Dexie } from 'dexie';
import { LazyModule } from '../../machinery/lazy-module';
import { parseExport } from '../export-format';
import { completeExportedHistory } from './history-rows';
import { StorageError, type ImportOptions } from '../types';

const addon = new LazyModule('dexie-export-import', () => import('./dexie-export-import.lazy'));

export async function exportDatabase(db: Dexie): Promise<Blob> {
  const { exportDB } = await loadAddon();
  const exported = await exportDB(db, { prettyJson: false });
  // Change rows stored without their object get it back: the export's format is the one every backend reads.
  return new Blob([completeExportedHistory(await exported.text())], {
    type: exported.type,
  });
}

export async function importDatabase(db: Dexie, data: Blob, options: ImportOptions = {}): Promise<void> {
  // Validates the document (throws InvalidImport) before the addon clears anything.
  parseExport(await data.text());
  const { importInto } = await loadAddon();
  const onProgress = options.onProgress;
  try {
    await importInto(db, data, {
      acceptNameDiff: true,
      clearTablesBeforeImport: true,
      progressCallback: (progress) => {
        onProgress?.({ completedRows: progress.completedRows, totalRows: progress.totalRows ?? 0 });
        return true;
      },
    });
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StorageError('Internal', `the import failed part way: ${message}`);
  }
}

function loadAddon(): ReturnType<typeof addon.load> {
  provideWorkerGlobals();
  return addon.load();
}

/** What the addon expects of a browser or worker scope, for runtimes without one (Node). */
function provideWorkerGlobals(): void {
  const scope = globalThis as { self?: unknown; FileReader?: unknown };
  scope.self ??= globalThis;
  scope.FileReader ??= BlobReader;
}

/** The part of `FileReader` the addon uses: `readAsArrayBuffer` with `onload`/`onerror`. */
class BlobReader {
  result: ArrayBuffer | null = null;
  error: unknown = null;
  onload: ((event: { target: BlobReader }) => void) | null = null;
  onerror: ((event: { target: BlobReader }) => void) | null = null;
  onabort: ((event: { target: BlobReader }) => void) | null = null;

  readAsArrayBuffer(blob: Blob): void {
    blob.arrayBuffer().then(
      (buffer) => {
        this.result = buffer;
        this.onload?.({ target: this });
      },
      (error: unknown) => {
        this.error = error;
        this.onerror?.({ target: this });
      },
    );
  }
}
