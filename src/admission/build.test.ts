/**
 * The admission chain over the plugins off by default, a lazy script: a chain
 * built before the script is loaded knows its plugins' names at once and
 * loads them before its first admission; once loaded, chains are built
 * directly. The order of the two cases matters (the script loads once per
 * process), so they run in sequence.
 */

import { describe, expect, it } from 'vitest';
import { buildAdmissionChain, loadAdmissionPlugins } from './build';
import { DeferredAdmissionChain } from './chain';
import { noAdmissionMetrics } from './metrics';
import { offByDefaultPlugins } from './plugins/library';
import { fakeDeps, podAttributes } from './plugins/support/fake-deps.test-support';

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
const attrs = podAttributes(configMap, { kind: 'ConfigMap', resource: 'configmaps' });
const options = { enablePlugins: ['AlwaysDeny'], disablePlugins: ['NamespaceLifecycle'] };

describe('plugins off by default', () => {
  it('a chain of default-on plugins does not load them', async () => {
    const chain = buildAdmissionChain({}, fakeDeps(), noAdmissionMetrics);
    expect(chain).not.toBeInstanceOf(DeferredAdmissionChain);
    await loadAdmissionPlugins({});
    expect(offByDefaultPlugins.loaded).toBe(false);
  });

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
