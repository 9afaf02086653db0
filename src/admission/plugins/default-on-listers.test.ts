/**
 * The table of informers a chain asks for before the default-on plugins are
 * loaded (default-on-listers.ts) is what the plugins' factories ask for as
 * they are built, in the same order, under both naming profiles.
 */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { defaultOnFactories } from './default-on-plugins.lazy';
import { defaultOnListers } from './default-on-listers';
import { defaultOnPluginNames, orderedPluginNames } from './index';
import { fakeDeps } from './support/fake-deps.test-support';

describe('default-on plugins’ informers', () => {
  for (const profileName of ['orch', 'kubernetes'] as const) {
    it(`match what their factories ask for (${profileName})`, () => {
      const profile = namingProfile(profileName);
      for (const name of orderedPluginNames.filter((n) => defaultOnPluginNames.has(n))) {
        const asked: [string, string][] = [];
        const deps = fakeDeps({ profile });
        const factory = defaultOnFactories[name];
        expect(factory, name).toBeDefined();
        factory?.({
          ...deps,
          lister: (group, resource) => {
            asked.push([group, resource]);
            return deps.lister(group, resource);
          },
        });
        expect(asked, name).toEqual(defaultOnListers(name, profile));
      }
    });
  }

  it('names a factory for every default-on plugin and no other', () => {
    expect(Object.keys(defaultOnFactories).sort()).toEqual([...defaultOnPluginNames].sort());
  });
});
