/**
 * What an empty list says: that nothing is here yet, and for a first-time
 * user, what to try — the whole tour in four lines, no documentation needed.
 */

import { routeHref } from '../lib/route';

export function EmptyGuide({ kindLabel }: { kindLabel: string }) {
  return (
    <div className="empty-guide">
      <p className="muted">
        No {kindLabel} here yet. The list is live: objects appear the moment anyone creates them.
      </p>
      <ol>
        <li>
          Create one with the panel on the right (pick <strong>Namespace</strong> on the left first to make
          your own namespace).
        </li>
        <li>
          Open an object and choose <strong>Watch it</strong> — in a second tab, to see your changes arrive.
        </li>
        <li>
          Provoke and resolve an apply conflict in the <a href={routeHref('lab')}>Apply lab</a>.
        </li>
        <li>
          Start over any time from <a href={routeHref('workshop')}>Workshop → Reset</a>.
        </li>
      </ol>
    </div>
  );
}
