/**
 * The view tabs: plain links to the routes (with the parameters each view
 * was last shown with), so they work with the keyboard, open in new tabs and
 * can be shared; the current one is marked with `aria-current`.
 */

import { routeHref, views, type ViewName } from '../lib/route';

export function ViewTabs({
  current,
  lastParams,
}: {
  current: ViewName;
  lastParams: Partial<Record<ViewName, Record<string, string>>>;
}) {
  return (
    <nav className="view-tabs" aria-label="Views">
      {views
        .filter((view) => view.tab !== false)
        .map((view) => (
          <a
            key={view.name}
            href={routeHref(view.name, lastParams[view.name])}
            aria-current={view.name === current ? 'page' : undefined}
          >
            {view.label}
          </a>
        ))}
    </nav>
  );
}
