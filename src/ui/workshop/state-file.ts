/**
 * What a state file holds, read before it replaces anything: how many
 * objects — what the Workshop's import says before asking to replace the
 * sandbox. A light read of the export's JSON (Dexie's export
 * format); the server validates the whole file when it imports it.
 */

export interface StateFileSummary {
  objects: number;
}

interface ExportTable {
  tableName?: unknown;
  rows?: unknown;
}

/** The summary of a state file's text; throws with a plain reason when it is not one. */
export function summarizeStateFile(text: string): StateFileSummary {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a state file: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const data = (document as { formatName?: unknown; data?: { data?: unknown } } | null)?.data?.data;
  if ((document as { formatName?: unknown } | null)?.formatName !== 'dexie' || !Array.isArray(data))
    throw new Error('not a state file: not a sandbox export (Dexie export format)');
  const tables = data as ExportTable[];
  const rowsOf = (name: string): unknown[] => {
    const rows = tables.find((t) => t.tableName === name)?.rows;
    return Array.isArray(rows) ? rows : [];
  };
  return { objects: rowsOf('objects').length };
}

/** Announced on `window` after the state was replaced, so cards showing the revision read it again at once. */
export const stateReplacedEvent = 'orch-sandbox:state-replaced';
