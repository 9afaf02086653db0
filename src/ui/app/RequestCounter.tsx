/**
 * How many requests the UI has sent (the request log's size), linking to
 * the console where each can be reopened or copied as curl or kubectl.
 */

import { routeHref } from '../lib/route';
import { useLoggedCount } from './RequestLogContext';

export function RequestCounter() {
  const count = useLoggedCount();
  return (
    <a
      className="request-counter"
      href={routeHref('console')}
      title="The request log: every request this UI sent"
    >
      <span className="numeric">{count}</span> requests
    </a>
  );
}
