/**
 * Export and import of the whole state (objects, history, revisions,
 * settings) as one file in Dexie's export format. The same file imports
 * into the Node host (`POST /sandbox/v1/import`) and back. An import
 * replaces everything, so picking a file first asks (what the file holds,
 * what the sandbox holds now) and Cancel keeps the current state; open
 * watches end with 410 and relist, and a progress bar follows the server's
 * progress lines. After it the revision is read again (not taken from the
 * import's last line, which controllers' first writes overtake), and every
 * card showing it is told.
 */

import { useState } from 'react';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import { ErrorNotice } from '../common/ErrorNotice';
import { ProgressBar } from '../common/ProgressBar';
import { importState } from './load-scenario';
import { stateReplacedEvent, summarizeStateFile, type StateFileSummary } from './state-file';

interface PendingImport {
  file: File;
  text: string;
  summary: StateFileSummary;
  /** The sandbox now: its resourceVersion (from the settings) and object count (when /metrics answers). */
  current: { revision: number | undefined; objects: number | undefined };
}

/** The sandbox's current resourceVersion and object count, each undefined when it cannot be read. */
async function currentState(client: ReturnType<typeof useClient>): Promise<PendingImport['current']> {
  const [settings, metrics] = await Promise.allSettled([
    client.send<{ revision?: number }>('GET', '/sandbox/v1/settings'),
    client
      .raw('GET', '/metrics')
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status))))),
  ]);
  let objects: number | undefined;
  if (metrics.status === 'fulfilled') {
    objects = 0;
    for (const line of metrics.value.split('\n')) {
      const match = /^apiserver_storage_objects\{[^}]*\}\s+(\d+)/.exec(line);
      if (match !== null) objects += Number(match[1]);
    }
  }
  return {
    revision: settings.status === 'fulfilled' ? settings.value.body.revision : undefined,
    objects,
  };
}

export function StateFileCard() {
  const client = useClient();
  const discovery = useDiscovery();
  const [progress, setProgress] = useState<{ label: string; done: number; total: number } | undefined>(
    undefined,
  );
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [pending, setPending] = useState<PendingImport | undefined>(undefined);

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

  /** Reads the picked file and asks before anything is replaced. */
  async function askImport(file: File) {
    setError(undefined);
    setMessage(undefined);
    try {
      const text = await file.text();
      const summary = summarizeStateFile(text);
      setPending({ file, text, summary, current: await currentState(client) });
    } catch (e) {
      setError(e);
    }
  }

  async function importFile({ file, text }: PendingImport) {
    setPending(undefined);
    try {
      await importState(client, text, (done, total, label) => setProgress({ label, done, total }));
      const now = await currentState(client);
      setMessage(`Imported ${file.name}: the sandbox is at resourceVersion ${now.revision ?? '?'}.`);
      window.dispatchEvent(new Event(stateReplacedEvent));
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
            disabled={progress !== undefined || pending !== undefined}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file !== undefined) void askImport(file);
            }}
          />
        </label>
      </div>
      {pending !== undefined ? (
        <div className="confirm" role="group" aria-label="Confirm the import">
          <p>
            <strong>Replace the whole sandbox with {pending.file.name}?</strong> The file holds{' '}
            {pending.summary.objects} {pending.summary.objects === 1 ? 'object' : 'objects'}. Everything here
            now — {pending.current.objects !== undefined ? `${pending.current.objects} objects, ` : ''}
            the history up to resourceVersion {pending.current.revision ?? '?'} and the settings — is
            replaced; export first to keep it.
          </p>
          <div className="row">
            <button type="button" className="danger-solid" onClick={() => void importFile(pending)}>
              Yes, replace the sandbox
            </button>
            <button type="button" className="secondary" onClick={() => setPending(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
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
