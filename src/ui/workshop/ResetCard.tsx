/**
 * Reset to a clean cluster, after a confirmation: every object is deleted
 * (open watches see the deletions), the history is compacted, and the
 * initial namespaces come back.
 */

import { useState } from 'react';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { ProgressBar } from '../common/ProgressBar';
import { stateReplacedEvent } from './state-file';

export function ResetCard() {
  const client = useClient();
  const [phase, setPhase] = useState<'idle' | 'confirm' | 'running' | 'done'>('idle');
  const [revision, setRevision] = useState<number | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);

  async function reset() {
    setPhase('running');
    setError(undefined);
    try {
      const answer = await client.send<{ revision?: number }>('POST', '/sandbox/v1/reset');
      setRevision(answer.body.revision);
      setPhase('done');
      window.dispatchEvent(new Event(stateReplacedEvent));
    } catch (e) {
      setError(e);
      setPhase('idle');
    }
  }

  return (
    <section className="card" aria-labelledby="reset-heading">
      <h3 id="reset-heading">Reset</h3>
      <p>Back to a clean cluster: every object is deleted and the initial namespaces are created again.</p>
      {phase === 'confirm' ? (
        <div className="confirm" role="group" aria-label="Confirm the reset">
          <p>
            <strong>Delete every object in this sandbox?</strong> Export the state first if you want to keep
            it.
          </p>
          <div className="row">
            <button type="button" className="danger-solid" onClick={() => void reset()}>
              Yes, reset the sandbox
            </button>
            <button type="button" className="secondary" onClick={() => setPhase('idle')}>
              Cancel
            </button>
          </div>
        </div>
      ) : phase === 'running' ? (
        <ProgressBar label="Resetting" />
      ) : (
        <button type="button" className="danger" onClick={() => setPhase('confirm')}>
          Reset the sandbox…
        </button>
      )}
      {phase === 'done' ? (
        <p className="success" role="status">
          The sandbox is clean (resourceVersion {revision ?? '?'}).
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="The reset failed" error={error} /> : null}
    </section>
  );
}
