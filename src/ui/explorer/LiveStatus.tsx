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
}: {
  phase: LivePhase;
  resourceVersion: string | undefined;
}) {
  if (phase === 'idle') return <span className="live-status" />;
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
