/**
 * The app's routes live in the URL fragment (`#/explorer?kind=v1/configmaps`)
 * so that every screen is a link a presenter can share, the static host and
 * the worker's shell cache serve one `index.html` for all of them, and the
 * path stays free for the API prefixes the worker answers.
 */

export type ViewName =
  | 'learn'
  | 'explorer'
  | 'editor'
  | 'watch'
  | 'console'
  | 'lab'
  | 'workshop'
  | 'identity'
  | 'traces'
  | 'webhooks'
  | 'server'
  | 'terminal'
  | 'spec';

/** The views; `tab: false` ones (the spec section list, reached from error explanations) have no header tab. */
export const views: { name: ViewName; label: string; tab?: false }[] = [
  { name: 'learn', label: 'Learn' },
  { name: 'explorer', label: 'Explorer' },
  { name: 'editor', label: 'Editor' },
  { name: 'watch', label: 'Watch' },
  { name: 'console', label: 'Console' },
  { name: 'lab', label: 'Apply lab' },
  { name: 'workshop', label: 'Workshop' },
  { name: 'identity', label: 'Identity' },
  { name: 'traces', label: 'Traces' },
  { name: 'webhooks', label: 'Webhooks' },
  { name: 'server', label: 'Server' },
  { name: 'terminal', label: 'Terminal' },
  { name: 'spec', label: 'Spec sections', tab: false },
];

export interface Route {
  view: ViewName;
  params: Record<string, string>;
}

/** The route of a page whose fragment names none: the explorer, the first screen. */
export const startRoute: Route = { view: 'explorer', params: {} };

/** Views whose route may name one item in the path (`#/learn/<lesson>`), as this parameter. */
const pathParams: Partial<Record<ViewName, string>> = { learn: 'lesson' };

export function parseRoute(hash: string): Route | undefined {
  if (!hash.startsWith('#/')) return undefined;
  const [path = '', search = ''] = hash.slice(2).split(/\?(.*)/s);
  const [first = '', ...rest] = path.split('/');
  const view = views.find((v) => v.name === first)?.name;
  if (view === undefined) return undefined;
  const params = Object.fromEntries(new URLSearchParams(search));
  const pathParam = pathParams[view];
  if (rest.length > 0) {
    if (pathParam === undefined) return undefined;
    params[pathParam] = decodeURIComponent(rest.join('/'));
  }
  return { view, params };
}

export function routeHref(view: ViewName, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  const pathParam = pathParams[view];
  let path = `#/${view}`;
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (key === pathParam) path += `/${encodeURIComponent(value)}`;
    else search.set(key, value);
  }
  const query = search.toString();
  return `${path}${query === '' ? '' : `?${query}`}`;
}

export function navigate(view: ViewName, params: Record<string, string | undefined> = {}): void {
  location.hash = routeHref(view, params);
}
