/**
 * The options of a watch request as the inspector's form holds them, and
 * the query they make. Every parameter the API defines for a watch is here:
 * selectors, resourceVersion and resourceVersionMatch, bookmarks, streaming
 * lists (sendInitialEvents) and timeoutSeconds — and how a link's
 * parameters fill them (optionsFromParams).
 */

import type { QueryParams, ResourceRef } from '../../client/index';
import { collectionRef, type ResourceChoice } from '../lib/resource-choice';

/** Where the watch starts: the API's resourceVersion semantics for watch. */
export type StartAt = 'unset' | 'zero' | 'list' | 'exact';

export interface WatchOptions {
  kind: string;
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  startAt: StartAt;
  /** For `exact`: the resourceVersion to start after. */
  resourceVersion: string;
  resourceVersionMatch: '' | 'NotOlderThan' | 'Exact';
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean;
  timeoutSeconds: string;
  /** On 410 Gone, list and watch again from the list's version, as informers do. */
  relistOnGone: boolean;
}

export const defaultWatchOptions: WatchOptions = {
  kind: 'v1/configmaps',
  namespace: 'default',
  labelSelector: '',
  fieldSelector: '',
  startAt: 'list',
  resourceVersion: '',
  resourceVersionMatch: '',
  allowWatchBookmarks: true,
  sendInitialEvents: false,
  timeoutSeconds: '',
  relistOnGone: true,
};

const startAts: readonly StartAt[] = ['unset', 'zero', 'list', 'exact'];

/** `true`/`1` and `false`/`0` (a link's booleans); anything else keeps the default. */
function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return fallback;
}

/**
 * The options a link describes (`#/watch?kind=v1/configmaps&ns=…`): `kind`, `ns`, `labelSelector`,
 * `fieldSelector`, `startAt` (unset, zero, list, exact) with `resourceVersion`, `resourceVersionMatch`,
 * `allowWatchBookmarks`, `sendInitialEvents`, `timeoutSeconds` and `relistOnGone`; what a link leaves out
 * keeps its default. A `resourceVersion` alone means starting exactly there.
 */
export function optionsFromParams(params: Readonly<Record<string, string>>): WatchOptions {
  const d = defaultWatchOptions;
  const startAt = startAts.find((s) => s === params['startAt']);
  const resourceVersion = params['resourceVersion'] ?? '';
  const match = params['resourceVersionMatch'];
  return {
    kind: params['kind'] ?? d.kind,
    namespace: params['ns'] ?? '',
    labelSelector: params['labelSelector'] ?? '',
    fieldSelector: params['fieldSelector'] ?? '',
    startAt: startAt ?? (resourceVersion !== '' ? 'exact' : d.startAt),
    resourceVersion,
    resourceVersionMatch: match === 'NotOlderThan' || match === 'Exact' ? match : d.resourceVersionMatch,
    allowWatchBookmarks: flag(params['allowWatchBookmarks'], d.allowWatchBookmarks),
    sendInitialEvents: flag(params['sendInitialEvents'], d.sendInitialEvents),
    timeoutSeconds: params['timeoutSeconds'] ?? d.timeoutSeconds,
    relistOnGone: flag(params['relistOnGone'], d.relistOnGone),
  };
}

export function watchRef(choice: ResourceChoice, options: WatchOptions): ResourceRef {
  return collectionRef(choice, choice.resource.namespaced ? options.namespace : '');
}

/** Selectors only: what a relist sends. */
export function selectorQuery(options: WatchOptions): QueryParams {
  return {
    labelSelector: options.labelSelector.trim() || undefined,
    fieldSelector: options.fieldSelector.trim() || undefined,
  };
}

/** The watch's query for a start at `resourceVersion` (undefined: unset). */
export function watchQuery(options: WatchOptions, resourceVersion: string | undefined): QueryParams {
  return {
    ...selectorQuery(options),
    resourceVersion,
    resourceVersionMatch: options.resourceVersionMatch || undefined,
    allowWatchBookmarks: options.allowWatchBookmarks || undefined,
    sendInitialEvents: options.sendInitialEvents || undefined,
    timeoutSeconds: options.timeoutSeconds.trim() || undefined,
  };
}
