/**
 * The browser's default audit policy needs no YAML library at start: it is
 * checked from its data, which must stay the same policy as the text the
 * workshop settings show. Settings with a document to parse load the library.
 * The tests run in order: the library is loaded once, by the later ones.
 */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../machinery/naming';
import { yamlLibrary } from '../machinery/decode/yaml-library';
import { parseAuditPolicy } from '../audit/policy';
import {
  auditPolicyOf,
  defaultBrowserAuditPolicy,
  defaultBrowserAuditPolicyDocument,
  loadYamlForSettings,
} from './admission-settings';

const profiles = [namingProfile('orch'), namingProfile('kubernetes')];
const noConfiguration = { enablePlugins: [], disablePlugins: [], configuration: '  ' };

describe('the default browser audit policy', () => {
  it('is read without the YAML library, and the default settings do not load it', async () => {
    for (const profile of profiles) {
      expect(auditPolicyOf(profile, defaultBrowserAuditPolicy(profile))?.rules).toEqual([
        { level: 'None', nonResourceURLs: ['/sandbox/*'] },
        { level: 'Metadata' },
      ]);
      await loadYamlForSettings(profile, {
        auditPolicy: defaultBrowserAuditPolicy(profile),
        admission: noConfiguration,
      });
    }
    expect(yamlLibrary.loaded).toBe(false);
  });

  it('is, as text, the same policy as its data', async () => {
    await yamlLibrary.load();
    for (const profile of profiles) {
      const text = defaultBrowserAuditPolicy(profile);
      expect(yamlLibrary.get().parse(text)).toEqual(defaultBrowserAuditPolicyDocument(profile));
      expect(auditPolicyOf(profile, text)).toEqual(parseAuditPolicy(profile, text));
    }
  });
});
