import { describe, expect, it, vi } from 'vitest';
import type { Discovery } from '../../client/index';
import { discoveryScope, readDiscovery, writeDiscovery } from './discovery-cache';
import { coreV1, memoryStorage } from './fixtures.test-support';

const discovery: Discovery = { groupVersions: [coreV1], failed: [] };

describe('discovery cache', () => {
  it('gives back the last discovery of the same profile and identity only', () => {
    const storage = memoryStorage();
    const admin = discoveryScope('orch', undefined);
    writeDiscovery(admin, discovery, storage);
    expect(readDiscovery(admin, storage)).toEqual(discovery);
    // The default identity is the built-in admin, named or not yet resolved.
    expect(readDiscovery(discoveryScope('orch', { name: 'admin', token: 't' }), storage)).toEqual(discovery);
    expect(readDiscovery(discoveryScope('kubernetes', undefined), storage)).toBeUndefined();
    expect(readDiscovery(discoveryScope('orch', { name: 'alice', token: 'a' }), storage)).toBeUndefined();
    const impersonating = { name: 'admin', token: 't', impersonate: { user: 'bob', groups: [] } };
    expect(readDiscovery(discoveryScope('orch', impersonating), storage)).toBeUndefined();
  });

  it('keeps no discovery with a failed group version, and forgets the one before', () => {
    const storage = memoryStorage();
    const scope = discoveryScope('orch', undefined);
    writeDiscovery(scope, discovery, storage);
    writeDiscovery(
      scope,
      { ...discovery, failed: [{ groupVersion: 'x/v1', error: new Error('stale') }] },
      storage,
    );
    expect(readDiscovery(scope, storage)).toBeUndefined();
  });

  it('reads nothing from a damaged entry', () => {
    const storage = memoryStorage();
    storage.setItem('orch-sandbox.discovery', '{not json');
    expect(readDiscovery(discoveryScope('orch', undefined), storage)).toBeUndefined();
  });

  it('parses the same entry once, and not at all after writing it', () => {
    const storage = memoryStorage();
    // A scope no other case writes: the parse kept is the module's, whatever the storage.
    const scope = discoveryScope('kubernetes', undefined);
    storage.setItem('orch-sandbox.discovery', JSON.stringify({ scope, groupVersions: [coreV1] }));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(readDiscovery(scope, storage)).toEqual(discovery);
      expect(readDiscovery(scope, storage)).toEqual(discovery);
      expect(parse).toHaveBeenCalledTimes(1);
      writeDiscovery(scope, discovery, storage);
      expect(readDiscovery(scope, storage)?.groupVersions).toBe(discovery.groupVersions);
      expect(parse).toHaveBeenCalledTimes(1);
      // Another text (another tab's write, an edit) is parsed again.
      storage.setItem('orch-sandbox.discovery', JSON.stringify({ scope: 'other', groupVersions: [] }));
      expect(readDiscovery(scope, storage)).toBeUndefined();
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });
});
