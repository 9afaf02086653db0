/**
 * Admission and audit settings of a running sandbox (the browser's
 * workshop settings, over `PUT /sandbox/v1/settings`): plugins enabled and
 * disabled take effect at once, bad names and documents are refused with
 * the real start-up messages (400, nothing saved), an embedded
 * AdmissionConfiguration reaches its plugin, and the audit policy turns
 * the live audit view on and off. The Node host's flags give the same
 * start-up errors.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostArgs } from '../src/hosts/node/args';
import { startTestHost, type TestHost } from './support/host';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

describe('admission settings', () => {
  it('the default-on plugins are reported, and AlwaysDeny enabled at run time refuses writes', async () => {
    const before = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap('a1'),
    });
    expect(before.status).toBe(201);
    const put = await host.request('PUT', '/sandbox/v1/settings', {
      body: { admission: { enablePlugins: ['AlwaysDeny'], disablePlugins: [] } },
    });
    expect(put.status).toBe(200);
    expect(put.body.admission.enablePlugins).toEqual(['AlwaysDeny']);
    const denied = await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap('a2'),
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('admission control is denying all modifications');
    const back = await host.request('PUT', '/sandbox/v1/settings', {
      body: { admission: { enablePlugins: [], disablePlugins: [] } },
    });
    expect(back.status).toBe(200);
    expect(
      (await host.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('a3') })).status,
    ).toBe(201);
  });

  const refusals: { name: string; admission: unknown; message: string }[] = [
    {
      name: 'an unknown plugin to enable',
      admission: { enablePlugins: ['Nope'] },
      message: 'enable-admission-plugins plugin "Nope" is unknown',
    },
    {
      name: 'an unknown plugin to disable',
      admission: { disablePlugins: ['Nope'] },
      message: 'disable-admission-plugins plugin "Nope" is unknown',
    },
    {
      name: 'a plugin both enabled and disabled',
      admission: { enablePlugins: ['AlwaysDeny'], disablePlugins: ['AlwaysDeny'] },
      message: '[AlwaysDeny] in enable-admission-plugins and disable-admission-plugins overlapped',
    },
    {
      name: 'a configuration of another kind',
      admission: { configuration: 'apiVersion: v1\nkind: ConfigMap\n' },
      message: 'failed to read plugin config',
    },
    {
      name: 'a configuration naming a file (the browser has none)',
      admission: {
        configuration:
          'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: erl.yaml\n',
      },
      message: 'embed the plugin',
    },
  ];
  for (const c of refusals)
    it(`refuses ${c.name} with 400 and saves nothing`, async () => {
      const r = await host.request('PUT', '/sandbox/v1/settings', { body: { admission: c.admission } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(c.message);
      const now = await host.request('GET', '/sandbox/v1/settings');
      expect(now.body.admission.enablePlugins).toEqual([]);
    });

  it('the audit policy turns the live view on, and an empty one turns it off', async () => {
    const off = await host.request('GET', '/sandbox/v1/audit');
    expect(off.body.enabled).toBe(false);
    const on = await host.request('PUT', '/sandbox/v1/settings', {
      body: { auditPolicy: 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n' },
    });
    expect(on.status).toBe(200);
    const r = await host.request('GET', '/api/v1/namespaces');
    const view = await host.request('GET', '/sandbox/v1/audit');
    expect(view.body.enabled).toBe(true);
    expect(view.body.items.some((e: { auditID: string }) => e.auditID === r.headers.get('audit-id'))).toBe(
      true,
    );
    const bad = await host.request('PUT', '/sandbox/v1/settings', { body: { auditPolicy: 'kind: Policy' } });
    expect(bad.status).toBe(400);
    expect((await host.request('PUT', '/sandbox/v1/settings', { body: { auditPolicy: '' } })).status).toBe(
      200,
    );
    expect((await host.request('GET', '/sandbox/v1/audit')).body.enabled).toBe(false);
  });
});

describe('admission flags of the Node host', () => {
  const read = (path: string): string => {
    if (path === '/cfg/admission.yaml')
      return 'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: erl.yaml\n';
    if (path === '/cfg/erl.yaml')
      return 'apiVersion: eventratelimit.admission.orch.io/v1alpha1\nkind: Configuration\nlimits:\n- type: Server\n  qps: 1\n  burst: 1\n';
    throw new Error(`open ${path}: no such file or directory`);
  };
  it('an unknown plugin refuses to start with the real message', () => {
    expect(() => parseHostArgs(['--enable-admission-plugins=Nope'], read)).toThrow(
      'enable-admission-plugins plugin "Nope" is unknown',
    );
  });
  it('reads the configuration file and the plugin files it names, relative to it', () => {
    const options = parseHostArgs(
      ['--enable-admission-plugins=EventRateLimit', '--admission-control-config-file=/cfg/admission.yaml'],
      read,
    );
    expect(options.admission?.pluginConfigurations?.get('EventRateLimit')).toMatchObject({
      kind: 'Configuration',
      limits: [{ type: 'Server', qps: 1, burst: 1 }],
    });
  });
  it('a missing plugin file refuses to start', () => {
    expect(() => parseHostArgs(['--admission-control-config-file=/cfg/missing.yaml'], read)).toThrow(
      /failed to read plugin config/,
    );
  });
});
