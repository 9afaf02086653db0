/**
 * What a fresh server holds from its first second, in both naming profiles:
 * the system PriorityClasses, the API Priority and Fairness bootstrap
 * configuration (13 FlowSchemas, 8 PriorityLevelConfigurations, kept as the
 * real config ensurer keeps them), one APIService per served group/version
 * but apiregistration's own, and the node-lease namespace; a reset brings
 * back exactly that set. The kubernetes profile also checks kubectl's
 * tables of the three kinds against the real server's columns.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingProfile, type ProfileName } from '../src/machinery/naming';
import { createEstablished, crdBody, crdsPath, eventually } from './support/crd';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

interface Meta {
  name: string;
  generation?: number;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}
interface Item {
  metadata: Meta;
  spec: Record<string, unknown>;
  status?: { conditions?: Record<string, string>[] };
}

const skipKubectl = kubectlSkipReason();

describe.each<ProfileName>(['orch', 'kubernetes'])('startup objects (%s profile)', (profileName) => {
  const profile = namingProfile(profileName);
  const fc = `/apis/${profile.suffixed('flowcontrol.apiserver')}/v1beta3`;
  const apiServices = `/apis/${profile.suffixed('apiregistration')}/v1/apiservices`;
  const priorityClasses = `/apis/${profile.suffixed('scheduling')}/v1/priorityclasses`;
  const autoupdate =
    profileName === 'orch' ? 'apf.orch.io/autoupdate-spec' : 'apf.kubernetes.io/autoupdate-spec';
  const automanaged =
    profileName === 'orch'
      ? 'kube-aggregator.orch.io/automanaged'
      : 'kube-aggregator.kubernetes.io/automanaged';
  let host: TestHost;

  const items = async (path: string): Promise<Item[]> => {
    const r = await host.request('GET', path);
    expect(r.status, r.text).toBe(200);
    return r.body.items as Item[];
  };
  const get = async (path: string): Promise<Item | undefined> => {
    const r = await host.request('GET', path);
    return r.status === 200 ? (r.body as Item) : undefined;
  };
  const mergePatch = async (path: string, body: unknown): Promise<void> => {
    const r = await host.request('PATCH', path, { body, contentType: 'application/merge-patch+json' });
    expect(r.status, r.text).toBe(200);
  };

  beforeAll(async () => {
    host = await startTestHost({ profile: profileName });
  });
  afterAll(() => host.close());

  /** The whole start-up set, as a fresh server has it. */
  async function expectStartupSet(): Promise<void> {
    const flowSchemas = await items(`${fc}/flowschemas`);
    const levels = await items(`${fc}/prioritylevelconfigurations`);
    expect(flowSchemas).toHaveLength(13);
    expect(levels).toHaveLength(8);
    for (const o of [...flowSchemas, ...levels]) expect(o.metadata.annotations?.[autoupdate]).toBe('true');
    const byName = new Map(flowSchemas.map((o) => [o.metadata.name, o]));
    expect(byName.get('catch-all')?.spec).toMatchObject({
      matchingPrecedence: 10000,
      priorityLevelConfiguration: { name: 'catch-all' },
      distinguisherMethod: { type: 'ByUser' },
    });
    expect(byName.get('global-default')?.spec['matchingPrecedence']).toBe(9900);
    expect(byName.has(`${profile.shortWord}-system-service-accounts`)).toBe(true);
    const pcs = await items(priorityClasses);
    expect(pcs.map((p) => [p.metadata.name, (p as unknown as { value: number }).value])).toEqual([
      ['system-cluster-critical', 2000000000],
      ['system-node-critical', 2000001000],
    ]);
    const namespaces = (await items('/api/v1/namespaces')).map((n) => n.metadata.name);
    expect(namespaces.sort()).toEqual(
      ['default', profile.systemNamespace, profile.publicNamespace, profile.nodeLeaseNamespace].sort(),
    );
  }

  it('has the priority classes, the APF configuration and the node-lease namespace', async () => {
    await expectStartupSet();
    const exempt = await get(`${fc}/prioritylevelconfigurations/exempt`);
    expect(exempt?.spec).toEqual({ type: 'Exempt' });
    const system = await get(`${fc}/prioritylevelconfigurations/system`);
    expect(system?.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 33,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
      },
    });
    const probes = await get(`${fc}/flowschemas/probes`);
    expect(probes?.spec).toEqual({
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 2,
      rules: [
        {
          subjects: [
            { kind: 'Group', group: { name: 'system:unauthenticated' } },
            { kind: 'Group', group: { name: 'system:authenticated' } },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
        },
      ],
    });
  });

  it('registers one local APIService per served group/version but apiregistration', async () => {
    const list = await items(apiServices);
    const names = list.map((o) => o.metadata.name);
    expect(names).toContain('v1.');
    expect(names).toContain('v1.apps');
    expect(names).toContain(`v1beta3.${profile.suffixed('flowcontrol.apiserver')}`);
    expect(names).toContain(`v1beta2.${profile.suffixed('flowcontrol.apiserver')}`);
    expect(names.some((n) => n.endsWith(profile.suffixed('apiregistration')))).toBe(false);
    // The served built-in group/versions of v1.27 by default: 22, less apiregistration's own.
    expect(list).toHaveLength(21);
    for (const o of list) {
      expect(o.metadata.labels?.[automanaged]).toBe('onstart');
      expect(o.status?.conditions).toEqual([
        expect.objectContaining({
          type: 'Available',
          status: 'True',
          reason: 'Local',
          message: 'Local APIServices are always available',
        }),
      ]);
    }
    const apps = list.find((o) => o.metadata.name === 'v1.apps');
    expect(apps?.spec).toMatchObject({
      group: 'apps',
      version: 'v1',
      groupPriorityMinimum: 17800,
      versionPriority: 15,
    });
    const core = list.find((o) => o.metadata.name === 'v1.');
    expect(core?.spec).toMatchObject({
      group: '',
      version: 'v1',
      groupPriorityMinimum: 18000,
      versionPriority: 1,
    });
    const fcv = list.find((o) => o.metadata.name === `v1beta3.${profile.suffixed('flowcontrol.apiserver')}`);
    expect(fcv?.spec).toMatchObject({ groupPriorityMinimum: 16100, versionPriority: 18 });
  });

  it('puts back a mandatory FlowSchema after an edit and after a delete', async () => {
    await mergePatch(`${fc}/flowschemas/catch-all`, {
      metadata: { annotations: { [autoupdate]: 'false' } },
      spec: { matchingPrecedence: 9999 },
    });
    const restored = await eventually(async () => {
      const o = await get(`${fc}/flowschemas/catch-all`);
      return o?.spec['matchingPrecedence'] === 10000 ? o : undefined;
    }, 'catch-all restored');
    expect(restored.metadata.annotations?.[autoupdate]).toBe('true');
    const deleted = await host.request('DELETE', `${fc}/flowschemas/exempt`);
    expect(deleted.status, deleted.text).toBe(200);
    const back = await eventually(() => get(`${fc}/flowschemas/exempt`), 'exempt recreated');
    expect(back.spec['matchingPrecedence']).toBe(1);
  });

  it('updates a suggested object only while autoupdate-spec is true', async () => {
    await mergePatch(`${fc}/flowschemas/service-accounts`, { spec: { matchingPrecedence: 8000 } });
    await eventually(async () => {
      const o = await get(`${fc}/flowschemas/service-accounts`);
      return o?.spec['matchingPrecedence'] === 9000 ? o : undefined;
    }, 'service-accounts restored while autoupdate-spec is true');
    await mergePatch(`${fc}/flowschemas/global-default`, {
      metadata: { annotations: { [autoupdate]: 'false' } },
      spec: { matchingPrecedence: 9500 },
    });
    // A later edit of a mandatory object makes the ensurer pass over every FlowSchema again.
    await mergePatch(`${fc}/flowschemas/catch-all`, { spec: { matchingPrecedence: 9998 } });
    await eventually(async () => {
      const o = await get(`${fc}/flowschemas/catch-all`);
      return o?.spec['matchingPrecedence'] === 10000 ? o : undefined;
    }, 'catch-all restored');
    const kept = await get(`${fc}/flowschemas/global-default`);
    expect(kept?.spec['matchingPrecedence']).toBe(9500);
    expect(kept?.metadata.annotations?.[autoupdate]).toBe('false');
  });

  it('removes an object that claims autoupdate-spec but is not part of the configuration', async () => {
    const created = await host.request('POST', `${fc}/prioritylevelconfigurations`, {
      body: {
        metadata: { name: 'stale-bootstrap', annotations: { [autoupdate]: 'true' } },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const mine = await host.request('POST', `${fc}/prioritylevelconfigurations`, {
      body: {
        metadata: { name: 'mine' },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } },
        },
      },
    });
    expect(mine.status, mine.text).toBe(201);
    await eventually(
      async () =>
        (await get(`${fc}/prioritylevelconfigurations/stale-bootstrap`)) === undefined ? true : undefined,
      'the stale object deleted',
    );
    expect(await get(`${fc}/prioritylevelconfigurations/mine`)).toBeDefined();
  });

  it('registers an automanaged APIService for each group/version a CRD serves, while it serves it', async () => {
    const apiGroup = profile.suffixed('apiextensions');
    await createEstablished(
      host,
      crdBody({ type: 'object' }, { group: 'startup.example.com', apiGroup }),
      apiGroup,
    );
    const registered = await eventually(async () => {
      const o = await get(`${apiServices}/v1.startup.example.com`);
      return o?.status?.conditions?.[0]?.['reason'] === 'Local' ? o : undefined;
    }, 'the CRD group/version registered');
    expect(registered.metadata.labels?.[automanaged]).toBe('true');
    expect(registered.spec).toMatchObject({
      group: 'startup.example.com',
      version: 'v1',
      groupPriorityMinimum: 1000,
      versionPriority: 100,
    });
    // Deleted by a user, it comes back while the CRD serves the version.
    expect((await host.request('DELETE', `${apiServices}/v1.startup.example.com`)).status).toBe(200);
    await eventually(() => get(`${apiServices}/v1.startup.example.com`), 'registered again');
    const deleted = await host.request('DELETE', `${crdsPath(apiGroup)}/widgets.startup.example.com`);
    expect(deleted.status, deleted.text).toBe(200);
    await eventually(
      async () => ((await get(`${apiServices}/v1.startup.example.com`)) === undefined ? true : undefined),
      'the APIService removed with its CRD',
    );
  });

  it('a reset restores exactly the start-up set', async () => {
    expect((await host.request('DELETE', `${priorityClasses}/system-node-critical`)).status).toBe(200);
    expect((await host.request('DELETE', `${apiServices}/v1.apps`)).status).toBe(200);
    const reset = await host.request('POST', '/sandbox/v1/reset');
    expect(reset.status, reset.text).toBeLessThan(300);
    await expectStartupSet();
    const global = await get(`${fc}/flowschemas/global-default`);
    expect(global?.spec['matchingPrecedence']).toBe(9900);
    expect(await get(`${fc}/prioritylevelconfigurations/mine`)).toBeUndefined();
    expect(await items(apiServices)).toHaveLength(21);
  });
});

describe('startup objects follow --runtime-config', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({
      profile: 'kubernetes',
      runtimeConfig: 'flowcontrol.apiserver.k8s.io/v1beta2=false',
      // A slower store than memory: the controllers that keep start-up objects race a reset's deletes.
      storage: 'dexie',
    });
  });
  afterAll(() => host.close());

  it('a reset on the Dexie store finishes and leaves only the start-up set', async () => {
    const ns = '/api/v1/namespaces';
    expect((await host.request('POST', ns, { body: { metadata: { name: 'scratch' } } })).status).toBe(201);
    const reset = await host.request('POST', '/sandbox/v1/reset');
    expect(reset.status, reset.text).toBeLessThan(300);
    const names = ((await host.request('GET', ns)).body.items as Item[]).map((o) => o.metadata.name);
    expect(names.sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const flowSchemas = await host.request('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    expect(flowSchemas.body.items).toHaveLength(13);
  });

  it('registers no APIService for a disabled group/version', async () => {
    const r = await host.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices');
    const names = (r.body.items as Item[]).map((o) => o.metadata.name);
    expect(names).toContain('v1beta3.flowcontrol.apiserver.k8s.io');
    expect(names).not.toContain('v1beta2.flowcontrol.apiserver.k8s.io');
    expect(names).toHaveLength(20);
  });
});

describe.skipIf(skipKubectl !== undefined)(
  'kubectl tables of the start-up objects (kubernetes profile)',
  () => {
    let host: TestHost;
    const k = (...args: string[]) => kubectl(host.kubeconfigPath, args);
    beforeAll(async () => {
      if (skipKubectl !== undefined) console.log(`SKIP: ${skipKubectl}`);
      host = await startTestHost({ profile: 'kubernetes' });
    });
    afterAll(() => host.close());

    it('get flowschemas prints the real columns', async () => {
      const r = await k('get', 'flowschemas');
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toMatch(
        /^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL$/,
      );
      expect(lines).toHaveLength(14);
      expect(r.stdout).toMatch(/\nexempt\s+exempt\s+1\s+<none>\s+\d+s\s+False\n/);
      expect(r.stdout).toMatch(
        /\nkube-controller-manager\s+workload-high\s+800\s+ByNamespace\s+\d+s\s+False\n/,
      );
      expect(r.stdout).toMatch(/\ncatch-all\s+catch-all\s+10000\s+ByUser\s+\d+s\s+False\n/);
    });

    it('get prioritylevelconfigurations prints the real columns', async () => {
      const r = await k('get', 'prioritylevelconfigurations');
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toMatch(
        /^NAME\s+TYPE\s+NOMINALCONCURRENCYSHARES\s+QUEUES\s+HANDSIZE\s+QUEUELENGTHLIMIT\s+AGE$/,
      );
      expect(lines).toHaveLength(9);
      expect(r.stdout).toMatch(/\ncatch-all\s+Limited\s+5\s+<none>\s+<none>\s+<none>\s+\d+s\n/);
      expect(r.stdout).toMatch(/\nexempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>\s+\d+s\n/);
      expect(r.stdout).toMatch(/\nleader-election\s+Limited\s+10\s+16\s+4\s+50\s+\d+s\n/);
    });

    it('get apiservices prints the real columns', async () => {
      const r = await k('get', 'apiservices');
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/);
      expect(lines).toHaveLength(22);
      expect(lines[1]).toMatch(/^v1\.\s+Local\s+True\s+\d+s$/);
      expect(r.stdout).toMatch(/\nv1\.apps\s+Local\s+True\s+\d+s\n/);
    });
  },
);
