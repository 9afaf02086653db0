/**
 * The admission chain over the plugins, two lazy scripts: a chain built
 * before a script is loaded knows its plugins' names at once and loads them
 * before its first admission (the default-on ones only then, having asked for
 * their informers at once); once loaded, chains are built directly. The order
 * of the cases matters (a script loads once per process), so they run in
 * sequence.
 */

import { describe, expect, it } from 'vitest';
import { buildAdmissionChain, loadAdmissionPlugins } from './build';
import { DeferredAdmissionChain } from './chain';
import { noAdmissionMetrics } from './metrics';
import { defaultOnPlugins, offByDefaultPlugins } from './plugins/library';
import { fakeDeps, podAttributes } from './plugins/support/fake-deps.test-support';

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
const attrs = podAttributes(configMap, { kind: 'ConfigMap', resource: 'configmaps' });
const options = { enablePlugins: ['AlwaysDeny'], disablePlugins: ['NamespaceLifecycle'] };

describe('plugins on by default', () => {
  it('a chain built before they load asks for their informers now and loads them at its first admission', async () => {
    const asked: string[] = [];
    const deps = fakeDeps({
      namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }],
    });
    const chain = buildAdmissionChain(
      {},
      {
        ...deps,
        lister: (group, resource) => {
          asked.push(`${group}/${resource}`);
          return deps.lister(group, resource);
        },
      },
      noAdmissionMetrics,
    );
    expect(chain).toBeInstanceOf(DeferredAdmissionChain);
    expect(chain.names).toContain('NamespaceLifecycle');
    expect(asked).toEqual([
      '/limitranges',
      '/serviceaccounts',
      '/pods',
      'scheduling.orch.io/priorityclasses',
      'storage.orch.io/storageclasses',
      'storage.orch.io/storageclasses',
      'node.orch.io/runtimeclasses',
      'networking.orch.io/ingressclasses',
      'admissionregistration.orch.io/mutatingwebhookconfigurations',
      'admissionregistration.orch.io/validatingwebhookconfigurations',
      '/resourcequotas',
    ]);
    expect(defaultOnPlugins.loaded).toBe(false);
    await expect(chain.mutate(attrs)).resolves.toBeDefined();
    expect(defaultOnPlugins.loaded).toBe(true);
  });

  it('once loaded, a chain of them is built directly', async () => {
    await loadAdmissionPlugins({});
    expect(offByDefaultPlugins.loaded).toBe(false);
    const chain = buildAdmissionChain({}, fakeDeps(), noAdmissionMetrics);
    expect(chain).not.toBeInstanceOf(DeferredAdmissionChain);
    expect(chain.names).toContain('NamespaceLifecycle');
  });
});

describe('plugins off by default', () => {
  it('a chain built before they load names them now and waits for them before admitting', async () => {
    const chain = buildAdmissionChain(options, fakeDeps(), noAdmissionMetrics);
    expect(chain).toBeInstanceOf(DeferredAdmissionChain);
    expect(chain.names).toContain('AlwaysDeny');
    expect(chain.names).not.toContain('NamespaceLifecycle');
    await expect(chain.validate(attrs)).rejects.toMatchObject({ status: { code: 403, reason: 'Forbidden' } });
    expect(offByDefaultPlugins.loaded).toBe(true);
  });

  it('once loaded, a chain is built directly', async () => {
    await loadAdmissionPlugins(options);
    const chain = buildAdmissionChain(options, fakeDeps(), noAdmissionMetrics);
    expect(chain).not.toBeInstanceOf(DeferredAdmissionChain);
    await expect(chain.mutate(attrs)).rejects.toMatchObject({ status: { code: 403 } });
  });
});
