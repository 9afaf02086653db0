/**
 * The first screen's reads, asked before the UI renders (see
 * early-answers.ts): discovery's two aggregated documents (the shell) and for
 * the explorer the shown kind's list as a Table (most of the screen); on
 * another view the server's version (the header) too. What the explorer
 * shows beside its list but does not wait for — the namespace picker's list
 * and the header's version — is asked once the list is shown
 * (`besideFirstScreen`), so that the worker answers the list and discovery
 * without those two between them. Each
 * request is built as the component that consumes it builds its own (the
 * same client calls, paths and Accept headers), so the component's request
 * finds the answer waiting. The kind's list is the one the route names when
 * the tab's last discovery (discovery-cache.ts) gives its path, else the
 * default kind's as ExplorerView assumes it before discovery answers.
 *
 * Two moments ask them. At the main script's evaluation on a reload
 * (`askFirstScreen`), once the identity to act as is known. And sooner:
 * when the page goes away, the list for its route is kept in sessionStorage
 * (`rememberFirstScreen`), and index.html's inline script of the next load —
 * a reload of the same route by the default identity, served by the same
 * worker — asks them at once with the admin's token the last page kept (or,
 * without one, as soon as the identities list gives it), while the main
 * script is still loading; the UI adopts those answers
 * (`askedByPage`). The inline script asks only what is listed, so the two
 * never disagree on what a request is.
 */

import { TABLE_ACCEPT, resourcePath, type ApiClient, type Discovery } from '../../client/index';
import { aggregatedDiscoveryAccept } from '../../client/discovery';
import { allNamespaces } from '../explorer/NamespaceSelect';
import { assumedDefaultCollection, choiceFromParam, collectionRef, defaultChoice } from './resource-choice';
import { parseRoute, startRoute, type Route } from './route';

/** One read: a path and its Accept header (sent as a GET by the acting identity). */
export interface FirstScreenRead {
  path: string;
  accept: string;
}

/** What index.html's inline script sent on this load, from the reads the last page kept. */
export interface AskedByPage extends FirstScreenRead {
  answer: Promise<Response>;
  /** When it was sent (epoch ms, `performance.now()`); unset until the admin's token arrived. */
  at?: number;
  started?: number;
}

/** The sessionStorage key index.html's inline script reads (keep the two in step). */
export const firstScreenKey = 'orch-sandbox.first-screen';

/** The reads of `route`'s first screen, given the discovery the UI will be shown first (if any). */
export function firstScreenReads(route: Route, cached: Discovery | undefined): FirstScreenRead[] {
  const json = 'application/json';
  const explorer = route.view === 'explorer';
  // What the usable screen waits for (the list, the heaviest read, then discovery): the worker takes them up in
  // the order they are sent. The explorer's namespaces and version wait for the list to be shown (below).
  const list = explorer ? firstScreenList(route, cached) : undefined;
  return [
    ...(list === undefined ? [] : [{ path: list, accept: TABLE_ACCEPT }]),
    { path: '/api', accept: aggregatedDiscoveryAccept },
    { path: '/apis', accept: aggregatedDiscoveryAccept },
    ...(explorer ? [] : [{ path: '/version', accept: json }]),
  ];
}

/** The path of the explorer's list on `route` (read as a Table), given the discovery it is shown first. */
export function firstScreenList(route: Route, cached: Discovery | undefined): string | undefined {
  const namespace = route.params['ns'] ?? 'default';
  const listNamespace = namespace === allNamespaces ? '' : namespace;
  // As ExplorerView picks its collection: from the discovery it is shown (the cached one), else the assumed default.
  const gvs = cached?.groupVersions ?? [];
  const choice = choiceFromParam(gvs, route.params['kind']) ?? defaultChoice(gvs);
  const list =
    choice !== undefined
      ? choice.resource.verbs.includes('list')
        ? collectionRef(choice, listNamespace)
        : undefined
      : assumedDefaultCollection(route.params['kind'], listNamespace);
  return list === undefined ? undefined : resourcePath(list);
}

/** Asks the first screen's reads through `client`, whose transport keeps the answers; nothing is read here. */
export function askFirstScreen(client: ApiClient, route: Route, cached?: Discovery): void {
  for (const { path, accept } of firstScreenReads(route, cached))
    void client.raw('GET', path, { headers: { accept } }).catch(() => undefined);
}

/**
 * Keeps the reads of the page's current route for index.html to ask on the next load of the same route, and
 * the built-in admin's token they are asked with when the tab acts as the admin by default: the next load
 * then sends them at once instead of after the identities list answers. The inline script still checks that
 * token against the list's (a reset or an import may change it) and asks again with the list's when they
 * differ. The token is no secret from this page: the identities list hands it to any script of the origin.
 */
export function rememberFirstScreen(
  hash: string,
  profile: string,
  reads: FirstScreenRead[],
  token?: string,
): void {
  try {
    sessionStorage.setItem(
      firstScreenKey,
      JSON.stringify({ hash, profile, requests: reads, ...(token === undefined ? {} : { token }) }),
    );
  } catch {
    // Storage full or disabled: the next load asks them from the main script.
  }
}

/** The reads index.html's inline script sent on this load, taken once. */
export function askedByPage(): AskedByPage[] {
  const page = globalThis as { __orchFirstScreen?: AskedByPage[] };
  const asked = page.__orchFirstScreen ?? [];
  delete page.__orchFirstScreen;
  return asked;
}

let markShown: () => void = () => undefined;
const shown = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** Called when the explorer first shows its real first screen (discovery read, the list live). */
export function firstScreenShown(): void {
  markShown();
}

/**
 * Resolves once the first screen is shown, or after `capMs` (another view is shown first, or the list is
 * refused): work that the first screen does not need waits for it rather than competing with its requests.
 */
export function afterFirstScreen(capMs = 1500): Promise<void> {
  return Promise.race([shown, new Promise<void>((resolve) => setTimeout(resolve, capMs))]);
}

/**
 * What a page opened on the explorer shows beside its first screen but does not wait for (the namespace
 * picker's list, the header's version) is asked once that screen is shown: on a first visit the worker
 * answers requests one after another on its thread, so two more reads among the first screen's put the list
 * and discovery later (0110). A page opened on another view asks them at once.
 */
export function besideFirstScreen(): Promise<void> {
  return (parseRoute(location.hash) ?? startRoute).view === 'explorer'
    ? afterFirstScreen()
    : Promise.resolve();
}
