/**
 * Export and import of the whole state (objects, history, revisions,
 * settings) as one file in Dexie's export format. The same file imports
 * into the Node host (`POST /sandbox/v1/import`) and back. An import
 * replaces everything; open watches end with 410 and relist, and a progress
 * bar follows the server's progress lines.
 */

import { useState } from 'react';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import { ErrorNotice } from '../common/ErrorNotice';
import { ProgressBar } from '../common/ProgressBar';
import { importState } from './load-scenario';

export function StateFileCard() {
  const client = useClient();
  const discovery = useDiscovery();
  const [progress, setProgress] = useState<{ label: string; done: number; total: number } | undefined>(
    undefined,
  );
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);

  async function exportState() {
    setError(undefined);
    setMessage(undefined);
    setProgress({ label: 'Exporting', done: 0, total: 0 });
    try {
      const response = await client.raw('GET', '/sandbox/v1/export');
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const blob = await response.blob();
      const name =
        /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
        'orch-sandbox.json';
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setMessage(`Saved ${name} (${(blob.size / 1024).toFixed(1)} KiB).`);
    } catch (e) {
      setError(e);
    } finally {
      setProgress(undefined);
    }
  }

  async function importFile(file: File) {
    setError(undefined);
    setMessage(undefined);
    try {
      const settings = await importState(client, await file.text(), (done, total, label) =>
        setProgress({ label, done, total }),
      );
      setMessage(
        `Imported ${file.name}: the sandbox is at resourceVersion ${String(settings['revision'] ?? '?')}.`,
      );
      discovery.reload();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(undefined);
    }
  }

  return (
    <section className="card" aria-labelledby="state-heading">
      <h3 id="state-heading">State file</h3>
      <p>Save the whole sandbox to a file, or replace it with one (from this browser or the Node host).</p>
      <div className="row">
        <button type="button" disabled={progress !== undefined} onClick={() => void exportState()}>
          Export state
        </button>
        <label className="file-button">
          Import state…
          <input
            type="file"
            accept=".json,application/json"
            disabled={progress !== undefined}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file !== undefined) void importFile(file);
            }}
          />
        </label>
      </div>
      {progress !== undefined ? (
        <ProgressBar
          label={progress.label}
          {...(progress.total > 0 ? { value: progress.done, max: progress.total } : {})}
        />
      ) : null}
      {message !== undefined ? (
        <p className="success" role="status">
          {message}
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="The state file failed" error={error} /> : null}
    </section>
  );
}
