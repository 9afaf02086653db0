/**
 * Whether the table is live: listing, watching (with the last
 * resourceVersion seen), relisting after a 410 Gone, or retrying after a
 * failure. Fixed width, so its changes never move the toolbar.
 */

import type { LivePhase } from './useLiveTable';

const labels: Record<LivePhase, string> = {
  idle: '',
  listing: 'listing…',
  live: 'live',
  relisting: '410 Gone: relisting…',
  retrying: 'reconnecting…',
};

export function LiveStatus({
  phase,
  resourceVersion,
  refused = false,
}: {
  phase: LivePhase;
  resourceVersion: string | undefined;
  /** The server refused the list (401/403): not a connection problem, so not "reconnecting". */
  refused?: boolean;
}) {
  if (phase === 'idle') return <span className="live-status" />;
  if (refused)
    return (
      <span className="live-status live-refused" title="The server refused the list for this identity.">
        <span className="live-dot" aria-hidden="true" />
        refused
      </span>
    );
  return (
    <span
      className={`live-status live-${phase}`}
      title="This list follows a watch: changes appear as they happen."
    >
      <span className="live-dot" aria-hidden="true" />
      {labels[phase]}
      {phase === 'live' && resourceVersion !== undefined ? ` · rv ${resourceVersion}` : ''}
    </span>
  );
}
