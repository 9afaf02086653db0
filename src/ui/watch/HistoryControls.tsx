/**
 * What it takes to see a 410 Gone. Watches are served from the server's
 * watch cache, which starts when the server starts and keeps a window of
 * recent changes; a watch from before that is told it is too old.
 * "Reset watch cache" starts the caches again now, as a server restart
 * does; restarting from the watch's first resourceVersion then provokes
 * the 410, and with "relist on 410" the inspector lists again and
 * continues, as an informer would. Compaction (on a schedule, 5 minutes by
 * default, or "Compact history now") drops the store's history, which
 * Exact lists and continue tokens read — not watches.
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { routeHref } from '../lib/route';

interface Settings {
  compactionIntervalMs?: number;
  revision?: number;
  compactedRevision?: number;
}

interface Props {
  /** The view is shown: the server's revision and compaction are read again. */
  active: boolean;
  /** The newest resourceVersion the watch saw; a new one means the revision moved. */
  lastVersion: string | undefined;
  running: boolean;
  firstVersion: string | undefined;
  onNote: (text: string) => void;
  onRestartFrom: (resourceVersion: string) => void;
}

export function HistoryControls({ active, lastVersion, firstVersion, onNote, onRestartFrom }: Props) {
  const client = useClient();
  const [settings, setSettings] = useState<Settings | undefined>(undefined);
  const refresh = () =>
    client.send<Settings>('GET', '/sandbox/v1/settings').then(
      (answer) => setSettings(answer.body),
      () => undefined,
    );
  useEffect(() => {
    if (active) void refresh();
    // Read when shown and when the watch sees a new version (scheduled compaction moves it too); the buttons refresh it.
  }, [active, lastVersion]);

  return (
    <div className="history-controls">
      <p className="muted">
        History window:{' '}
        {settings?.compactionIntervalMs === undefined ? '…' : formatMs(settings.compactionIntervalMs)}
        {settings?.compactedRevision !== undefined
          ? ` · compacted up to rv ${settings.compactedRevision}`
          : ''}{' '}
        · <a href={routeHref('workshop')}>change in Workshop → Settings</a>
      </p>
      <div className="row">
        <button
          type="button"
          className="secondary"
          onClick={() => {
            void client.send<{ compactedRevision: number }>('POST', '/sandbox/v1/compact').then(
              (answer) => {
                onNote(`history compacted: versions before ${answer.body.compactedRevision} are gone`);
                void refresh();
              },
              (error: unknown) => onNote(`compaction failed: ${String(error)}`),
            );
          }}
        >
          Compact history now
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            void client.send<{ watchCacheStart: number }>('POST', '/sandbox/v1/restart-watch-cache').then(
              (answer) =>
                onNote(
                  `watch cache restarted at rv ${answer.body.watchCacheStart}: watches from before it are too old`,
                ),
              (error: unknown) => onNote(`watch cache restart failed: ${String(error)}`),
            );
          }}
        >
          Reset watch cache
        </button>
        <button
          type="button"
          className="secondary"
          disabled={firstVersion === undefined || firstVersion === ''}
          onClick={() => firstVersion !== undefined && onRestartFrom(firstVersion)}
        >
          Restart from rv {firstVersion ?? '…'}
        </button>
      </div>
    </div>
  );
}

function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
