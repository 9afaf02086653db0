/** Workshop settings holding a document to parse (an admission configuration, another audit policy) load the YAML library first. */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../machinery/naming';
import { yamlLibrary } from '../machinery/decode/yaml-library';
import { admissionOptionsOf, loadYamlForSettings } from './admission-settings';

describe('settings with a YAML document', () => {
  it('load the YAML library before they are checked', async () => {
    const profile = namingProfile('orch');
    const configuration = [
      'apiVersion: apiserver.config.orch.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: EventRateLimit',
      '  configuration: {kind: Configuration}',
    ].join('\n');
    await loadYamlForSettings(profile, { auditPolicy: '' });
    expect(yamlLibrary.loaded).toBe(false);
    await loadYamlForSettings(profile, {
      admission: { enablePlugins: [], disablePlugins: [], configuration },
    });
    expect(yamlLibrary.loaded).toBe(true);
    expect(
      admissionOptionsOf(profile, {
        enablePlugins: [],
        disablePlugins: [],
        configuration,
      }).pluginConfigurations?.get('EventRateLimit'),
    ).toEqual({ kind: 'Configuration' });
  });
});
