/**
 * The first screen's data, read before React's first render: discovery and
 * the shown kind's list as a Table, read through the UI's own transport (so
 * they take the answers index.html or the main script asked early,
 * early-answers.ts) while the main script is still evaluating. On a reload
 * main.tsx waits a moment for them (`firstRenderWaitMs` at most) so that the
 * first render already shows the screen: the components take a read that is
 * done in their initial state (DiscoveryContext, useLiveTable) instead of
 * drawing the tab's last discovery and skeleton rows, reading the answers
 * in their effects and rendering again. A read still under way when a
 * component mounts is taken by its effect instead of being asked again.
 * Each read is taken once (by an effect), only by the identity version it
 * was read as (a taker of another version or list leaves it for its own),
 * and dropped when nobody takes it within the early answers' time to live
 * (take-once.ts).
 */

import type { ApiClient, Discovery } from '../../client/index';
import { EARLY_ANSWER_TTL_MS } from './early-answers';
import { firstScreenList } from './first-screen';
import { readTable, type ReadTable } from './read-table';
import type { Route } from './route';
import { TakeOnce } from './take-once';

/** How long a reload's first render waits for the first screen's reads, after the main script's evaluation. */
export const firstRenderWaitMs = 150;

/** A read started early: its promise, and its value once it has one. */
export interface PreparedRead<T> {
  promise: Promise<T>;
  /** Set when the read succeeded; a component that finds it renders with it at once. */
  done?: { value: T };
}

/** The early discovery read, under one key. */
const discovery = new TakeOnce<PreparedRead<Discovery>>(EARLY_ANSWER_TTL_MS);
const discoveryKey = 'discovery';
/** The early list read (one at most), by its path. */
const lists = new TakeOnce<PreparedRead<ReadTable>>(EARLY_ANSWER_TTL_MS);

/**
 * Starts the first screen's reads of `route` as identity version `version` (the list the tab's last
 * discovery `cached` or the default assumes, as ExplorerView picks it), replacing any started before;
 * resolves once both are done (or failed).
 */
export function prepareFirstScreen(
  client: ApiClient,
  route: Route,
  cached: Discovery | undefined,
  version: number,
): Promise<void> {
  const path = route.view === 'explorer' ? firstScreenList(route, cached) : undefined;
  lists.clear();
  const listRead = path === undefined ? undefined : prepared(readTable(client, path));
  if (path !== undefined && listRead !== undefined) lists.put(path, listRead, version);
  // Discovery is handed on together with the list (within `togetherMs`): its answer comes a few ms before the
  // list's, and shown alone it costs a render and a layout of the whole explorer that the list's answer then
  // waits behind; together they are one commit, the one that makes the screen usable (0110).
  const discoveryRead = prepared(
    listRead === undefined
      ? client.discovery()
      : withinOrAfter(client.discovery(), listRead.promise, togetherMs),
  );
  discovery.put(discoveryKey, discoveryRead, version);
  return Promise.allSettled([discoveryRead.promise, listRead?.promise]).then(() => undefined);
}

/**
 * The early discovery read if it was read as identity version `version`, left in place: a component's
 * initial state looks (React may call an initializer twice), its effect takes (`takePreparedDiscovery`).
 */
export function peekPreparedDiscovery(version: number): PreparedRead<Discovery> | undefined {
  return discovery.peek(discoveryKey, version);
}

/** The early discovery read, once, if it was read as identity version `version`. */
export function takePreparedDiscovery(version: number): PreparedRead<Discovery> | undefined {
  return discovery.take(discoveryKey, version);
}

/** The early read of the list at `path` (as a Table) if it was read as identity version `version`, left in place. */
export function peekPreparedList(path: string, version: number): PreparedRead<ReadTable> | undefined {
  return lists.peek(path, version);
}

/** The early read of the list at `path`, once, if it was read as identity version `version`. */
export function takePreparedList(path: string, version: number): PreparedRead<ReadTable> | undefined {
  return lists.take(path, version);
}

/** How long discovery's answer waits for the list's to be handed on with it, at most. */
export const togetherMs = 100;

/** `value`, once `other` has settled too or `capMs` have passed since `value` arrived (a failure at once). */
function withinOrAfter<T>(value: Promise<T>, other: Promise<unknown>, capMs: number): Promise<T> {
  return value.then((v) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, capMs);
    });
    const settled = other.then(
      () => undefined,
      () => undefined,
    );
    return Promise.race([settled, cap]).then(() => {
      clearTimeout(timer);
      return v;
    });
  });
}

function prepared<T>(promise: Promise<T>): PreparedRead<T> {
  const read: PreparedRead<T> = { promise };
  // A failure is the taker's to see (it asks again); untaken, it must not surface as an unhandled rejection.
  promise.then(
    (value) => {
      read.done = { value };
    },
    () => undefined,
  );
  return read;
}
