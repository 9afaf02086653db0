/**
 * The current route from the URL fragment, following `hashchange`. A
 * fragment that is not a route (an in-page anchor) leaves the route alone.
 */

import { useEffect, useState } from 'react';
import { parseRoute, startRoute, type Route } from '../lib/route';

export function useRoute(): Route {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash) ?? startRoute);
  useEffect(() => {
    const follow = () => {
      const next = parseRoute(location.hash);
      if (next !== undefined) setRoute(next);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
