/**
 * Deleting the selected rows: first a confirmation naming them (the
 * garbage collector deletes their dependents in the background), then one
 * DELETE per object (the API has no multi-object transaction) with a
 * progress bar, then what happened: how many went and the failures. The
 * watch removes each row as its deletion lands; an object held by
 * finalizers stays as Terminating.
 */

import { useState } from 'react';
import { ProgressBar } from '../common/ProgressBar';
import { ErrorNotice } from '../common/ErrorNotice';

interface Props {
  count: number;
  /** The selected objects' names, listed in the confirmation. */
  names?: string[];
  onDelete: (progress: (done: number) => void) => Promise<{ failed: { name: string; error: unknown }[] }>;
  onClear: () => void;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'confirm' }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'finished'; total: number; failed: { name: string; error: unknown }[] };

export function BulkDeleteBar({ count, names = [], onDelete, onClear }: Props) {
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  if (count === 0 && (phase.kind === 'idle' || phase.kind === 'confirm')) return null;

  function run() {
    const total = count;
    setPhase({ kind: 'running', done: 0, total });
    void onDelete((done) => setPhase({ kind: 'running', done, total })).then((result) =>
      setPhase({ kind: 'finished', total, failed: result.failed }),
    );
  }

  return (
    <div className="bulk-bar" role="group" aria-label="Selected objects">
      {phase.kind === 'running' ? (
        <ProgressBar label="Deleting" value={phase.done} max={phase.total} />
      ) : phase.kind === 'confirm' ? (
        <>
          <span>
            Delete {count} object{count === 1 ? '' : 's'}: {names.slice(0, 8).join(', ')}
            {names.length > 8 ? ` and ${names.length - 8} more` : ''}? Their dependents are deleted by the
            garbage collector; objects with finalizers stay Terminating until those are removed.
          </span>
          <button type="button" className="danger-solid" onClick={run}>
            Yes, delete {count}
          </button>
          <button type="button" className="secondary" autoFocus onClick={() => setPhase({ kind: 'idle' })}>
            Cancel
          </button>
        </>
      ) : (
        <>
          {phase.kind === 'finished' ? (
            <span role="status">
              Deleted {phase.total - phase.failed.length} of {phase.total}
              {phase.failed.length > 0 ? `; ${phase.failed.length} refused` : ''}.
            </span>
          ) : null}
          {count > 0 ? (
            <>
              <span>{count} selected</span>
              <button type="button" className="danger" onClick={() => setPhase({ kind: 'confirm' })}>
                Delete selected…
              </button>
              <button type="button" className="secondary" onClick={onClear}>
                Clear selection
              </button>
            </>
          ) : (
            <button type="button" className="secondary small" onClick={() => setPhase({ kind: 'idle' })}>
              Dismiss
            </button>
          )}
        </>
      )}
      {phase.kind === 'finished'
        ? phase.failed.map((f) => (
            <ErrorNotice key={f.name} title={`${f.name} not deleted`} error={f.error} />
          ))
        : null}
    </div>
  );
}
