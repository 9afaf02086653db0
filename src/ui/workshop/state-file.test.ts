/** The import's question reads a state file's object count, and refuses what is no state file. */

import { describe, expect, it } from 'vitest';
import { summarizeStateFile } from './state-file';

const file = (objects: unknown[]) =>
  JSON.stringify({
    formatName: 'dexie',
    formatVersion: 1,
    data: {
      databaseVersion: 1,
      tables: [],
      data: [
        { tableName: 'meta', inbound: true, rows: [{ name: 'revision', value: 9 }] },
        { tableName: 'objects', inbound: true, rows: objects },
      ],
    },
  });

describe('summarizeStateFile', () => {
  it('counts the objects', () => {
    expect(summarizeStateFile(file([{ key: 'a' }, { key: 'b' }]))).toEqual({ objects: 2 });
  });
  it('says plainly when the file is not a state file', () => {
    expect(() => summarizeStateFile('{')).toThrow(/not JSON/);
    expect(() => summarizeStateFile('{"kind":"ConfigMap"}')).toThrow(/not a sandbox export/);
  });
});
