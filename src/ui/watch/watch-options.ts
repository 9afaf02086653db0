/**
 * The options of a watch request as the inspector's form holds them, and
 * the query they make. Every parameter the API defines for a watch is here:
 * selectors, resourceVersion and resourceVersionMatch, bookmarks, streaming
 * lists (sendInitialEvents) and timeoutSeconds.
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
