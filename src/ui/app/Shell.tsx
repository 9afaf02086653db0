/**
 * The app's frame: the header with the view tabs, and the views. A view is
 * mounted the first time it is opened and then kept (hidden while another
 * is shown), so a watch started in the inspector keeps collecting events
 * while the user edits in another view. Every view but the explorer is its
 * own chunk, loaded when first opened.
 */

import { lazy, Suspense, useState, type ComponentType } from 'react';
import { ExplorerView } from '../explorer/ExplorerView';
import type { ViewName } from '../lib/route';
import { DiscoveryProvider } from './DiscoveryContext';
import { Header } from './Header';
import { useRoute } from './useRoute';
import type { ViewProps } from './view-props';

const lazyViews: Record<Exclude<ViewName, 'explorer'>, ComponentType<ViewProps>> = {
  learn: lazy(() => import('../learn/LearnView').then((m) => ({ default: m.LearnView }))),
  editor: lazy(() => import('../editor/EditorView').then((m) => ({ default: m.EditorView }))),
  watch: lazy(() => import('../watch/WatchView').then((m) => ({ default: m.WatchView }))),
  console: lazy(() => import('../console/ConsoleView').then((m) => ({ default: m.ConsoleView }))),
  lab: lazy(() => import('../lab/LabView').then((m) => ({ default: m.LabView }))),
  workshop: lazy(() => import('../workshop/WorkshopView').then((m) => ({ default: m.WorkshopView }))),
  identity: lazy(() => import('../identity/IdentityView').then((m) => ({ default: m.IdentityView }))),
  traces: lazy(() => import('../trace/TraceView').then((m) => ({ default: m.TraceView }))),
  webhooks: lazy(() => import('../webhooks/WebhooksView').then((m) => ({ default: m.WebhooksView }))),
  server: lazy(() => import('../server/ServerView').then((m) => ({ default: m.ServerView }))),
  terminal: lazy(() => import('../terminal/TerminalView').then((m) => ({ default: m.TerminalView }))),
  spec: lazy(() => import('./SpecSectionsView').then((m) => ({ default: m.SpecSectionsView }))),
};

export function Shell() {
  const route = useRoute();
  const [opened, setOpened] = useState<ViewName[]>([route.view]);
  if (!opened.includes(route.view)) setOpened([...opened, route.view]);
  // Each view keeps the parameters it was last shown with; the tabs link back to them.
  const [lastParams, setLastParams] = useState<Partial<Record<ViewName, Record<string, string>>>>({
    [route.view]: route.params,
  });
  if (lastParams[route.view] !== route.params) setLastParams({ ...lastParams, [route.view]: route.params });

  return (
    <DiscoveryProvider>
      <div className="app">
        <Header view={route.view} lastParams={lastParams} />
        {opened.map((name) => {
          const active = name === route.view;
          const props: ViewProps = { params: lastParams[name] ?? {}, active };
          const View = name === 'explorer' ? ExplorerView : lazyViews[name];
          return (
            <div key={name} className="view" hidden={!active}>
              <Suspense
                fallback={
                  <p className="view-loading" role="status">
                    <span className="spinner" aria-hidden="true" /> Loading the {name} view…
                  </p>
                }
              >
                <View {...props} />
              </Suspense>
            </div>
          );
        })}
      </div>
    </DiscoveryProvider>
  );
}
