import { describe, expect, it } from 'vitest';
import { defaultWatchOptions, optionsFromParams, watchQuery } from './watch-options';

describe('a link filling the watch inspector', () => {
  it('keeps the defaults for what it leaves out', () => {
    expect(optionsFromParams({ kind: 'apps/v1/deployments', ns: 'web' })).toEqual({
      ...defaultWatchOptions,
      kind: 'apps/v1/deployments',
      namespace: 'web',
    });
  });

  it('takes every option a watch has', () => {
    const options = optionsFromParams({
      kind: 'v1/configmaps',
      ns: 'learn-watch',
      labelSelector: 'app=web',
      fieldSelector: 'metadata.name=one',
      startAt: 'exact',
      resourceVersion: '42',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: 'false',
      sendInitialEvents: 'true',
      timeoutSeconds: '30',
      relistOnGone: '0',
    });
    expect(options).toEqual({
      kind: 'v1/configmaps',
      namespace: 'learn-watch',
      labelSelector: 'app=web',
      fieldSelector: 'metadata.name=one',
      startAt: 'exact',
      resourceVersion: '42',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: false,
      sendInitialEvents: true,
      timeoutSeconds: '30',
      relistOnGone: false,
    });
    expect(watchQuery(options, '42')).toEqual({
      labelSelector: 'app=web',
      fieldSelector: 'metadata.name=one',
      resourceVersion: '42',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: undefined,
      sendInitialEvents: true,
      timeoutSeconds: '30',
    });
  });

  it('starts exactly at a resourceVersion given alone, and ignores values it does not know', () => {
    const options = optionsFromParams({
      resourceVersion: '7',
      startAt: 'later',
      resourceVersionMatch: 'Soon',
    });
    expect(options.startAt).toBe('exact');
    expect(options.resourceVersionMatch).toBe('');
    expect(optionsFromParams({ startAt: 'zero' }).startAt).toBe('zero');
  });
});
