/**
 * Deleting the selected rows: one DELETE per object (the API has no
 * multi-object transaction), with a progress bar while they run and the
 * failures listed after. The watch removes each row as its deletion lands.
 */

import { useState } from 'react';
import { ProgressBar } from '../common/ProgressBar';
import { ErrorNotice } from '../common/ErrorNotice';

interface Props {
  count: number;
  onDelete: (progress: (done: number) => void) => Promise<{ failed: { name: string; error: unknown }[] }>;
  onClear: () => void;
}

export function BulkDeleteBar({ count, onDelete, onClear }: Props) {
  const [running, setRunning] = useState<{ done: number; total: number } | undefined>(undefined);
  const [failed, setFailed] = useState<{ name: string; error: unknown }[]>([]);
  if (count === 0 && running === undefined && failed.length === 0) return null;
  return (
    <div className="bulk-bar" role="group" aria-label="Selected objects">
      {running === undefined ? (
        <>
          <span>{count} selected</span>
          <button
            type="button"
            className="danger"
            disabled={count === 0}
            onClick={() => {
              const total = count;
              setFailed([]);
              setRunning({ done: 0, total });
              void onDelete((done) => setRunning({ done, total })).then((result) => {
                setRunning(undefined);
                setFailed(result.failed);
              });
            }}
          >
            Delete selected
          </button>
          <button type="button" className="secondary" onClick={onClear}>
            Clear selection
          </button>
        </>
      ) : (
        <ProgressBar label="Deleting" value={running.done} max={running.total} />
      )}
      {failed.map((f) => (
        <ErrorNotice key={f.name} title={`${f.name} not deleted`} error={f.error} />
      ))}
    </div>
  );
}
