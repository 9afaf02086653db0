/**
 * The app's routes live in the URL fragment (`#/explorer?kind=v1/configmaps`)
 * so that every screen is a link a presenter can share, the static host and
 * the worker's shell cache serve one `index.html` for all of them, and the
 * path stays free for the API prefixes the worker answers.
 */

export type ViewName =
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

export function parseRoute(hash: string): Route | undefined {
  if (!hash.startsWith('#/')) return undefined;
  const [path = '', search = ''] = hash.slice(2).split(/\?(.*)/s);
  const view = views.find((v) => v.name === path)?.name;
  if (view === undefined) return undefined;
  return { view, params: Object.fromEntries(new URLSearchParams(search)) };
}

export function routeHref(view: ViewName, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, value);
  const query = search.toString();
  return `#/${view}${query === '' ? '' : `?${query}`}`;
}

export function navigate(view: ViewName, params: Record<string, string | undefined> = {}): void {
  location.hash = routeHref(view, params);
}
