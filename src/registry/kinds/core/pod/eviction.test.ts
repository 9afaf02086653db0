import { beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../api/meta';
import type { AdmissionAttributes } from '../../../../machinery/admission/attributes';
import { allowAll } from '../../../../auth/authorizer';
import { StaticTokens } from '../../../../auth/authn/static-tokens';
import { StatusError } from '../../../../machinery/errors';
import { namingProfile } from '../../../../machinery/naming';
import { createMemoryStorage } from '../../../../storage/memory/memory-storage';
import { builtInDefinitions, builtInRegistry } from '../../../builtins';
import { Catalog } from '../../../catalog';
import { profileDefinitions } from '../../../crd/definitions';
import type { GenericStore } from '../../../generic/store';
import { RestInstaller } from '../../../installer';
import { isCreater, isNamedCreater, type RestStorage } from '../../../rest/capabilities';
import { internalScope, type RequestScope } from '../../../rest/scope';
import { parseRuntimeConfig } from '../../../runtime-config';
import { selectorRequirements, spendDisruption } from './eviction';

const now = new Date('2026-01-02T03:04:05Z');
let installer: RestInstaller;
let catalog: Catalog;
let seen: AdmissionAttributes[];

function scope(
  resource: string,
  subresource: string,
  kind: string,
  extra: Partial<RequestScope> = {},
): RequestScope {
  return {
    ...internalScope(
      { username: 'tester', groups: ['system:authenticated'] },
      {
        verb: 'create',
        namespace: 'default',
        name: '',
        subresource,
        requestResource: { group: '', version: 'v1', resource },
        requestKind: { group: kind === 'Eviction' ? 'policy' : '', version: 'v1', kind },
      },
      now,
    ),
    ...extra,
  };
}

function store(group: string, resource: string): GenericStore {
  const s = installer.storeFor(group, resource);
  if (s === undefined) throw new Error(`${resource} not served`);
  return s;
}

function subresource(name: string): RestStorage {
  const rt = catalog.lookup('', 'v1', 'pods');
  if (rt === undefined) throw new Error('pods not served');
  const s = installer.storages(rt).subresources.get(name);
  if (s === undefined) throw new Error(`pods/${name} not served`);
  return s;
}

async function pod(name: string, labels: Record<string, string>, status?: object): Promise<void> {
  const pods = store('', 'pods');
  const s = scope('pods', '', 'Pod');
  await pods.create(
    s,
    { metadata: { name, namespace: 'default', labels }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    {},
  );
  if (status !== undefined)
    await pods
      .withStrategy({ ...pods.strategy, prepareForUpdate: (obj) => obj })
      .update(s, name, (current) => ({ ...(current ?? {}), status }), {});
}

async function budget(name: string, selector: object, status: object): Promise<void> {
  const pdbs = store('policy', 'poddisruptionbudgets');
  const s = { ...scope('poddisruptionbudgets', '', 'PodDisruptionBudget') };
  await pdbs.create(s, { metadata: { name, namespace: 'default' }, spec: { minAvailable: 1, selector } }, {});
  await pdbs
    .withStrategy({ ...pdbs.strategy, prepareForUpdate: (obj) => obj })
    .update(s, name, (current) => ({ ...(current ?? {}), status }), {});
}

async function evict(
  name: string,
  extra: Partial<RequestScope> = {},
  body: object = {},
): Promise<KubeObject> {
  const s = subresource('eviction');
  if (!isNamedCreater(s)) throw new Error('eviction is no NamedCreater');
  return s.createNamed(
    scope('pods', 'eviction', 'Eviction', extra),
    name,
    { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...body },
    {},
  );
}

const getPod = (name: string) => store('', 'pods').get(scope('pods', '', 'Pod'), name);

beforeEach(() => {
  const profile = namingProfile('orch');
  catalog = new Catalog(profile, profileDefinitions(profile, builtInDefinitions));
  catalog.loadBuiltIns(builtInRegistry, parseRuntimeConfig(undefined));
  seen = [];
  const recorder = { name: 'Recorder', validate: async (a: AdmissionAttributes) => void seen.push(a) };
  installer = new RestInstaller(
    catalog,
    {
      storage: createMemoryStorage(),
      admission: { mutate: async () => undefined, validate: recorder.validate },
      definitions: catalog.definitions,
      profile,
      featureGates: {},
      now: () => now,
      tooLargeResourceVersionWaitMs: 100,
    },
    { authorizer: allowAll, tokenAuthenticator: new StaticTokens() },
  );
});

describe('budget selection and spending', () => {
  it.each([
    [undefined, undefined],
    [{}, []],
    [{ matchLabels: { a: 'b' } }, [{ key: 'a', operator: 'Equals', values: ['b'] }]],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, undefined],
    [
      { matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      [{ key: 'a', operator: 'Exists', values: [] }],
    ],
    [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }, undefined],
  ])('selector %j → %j', (selector, want) => expect(selectorRequirements(selector)).toEqual(want));

  const pdb = (status: object, generation = 1): KubeObject => ({
    metadata: { name: 'b', generation },
    status,
  });
  it.each([
    [
      pdb({ observedGeneration: 0, disruptionsAllowed: 3 }),
      429,
      'The disruption budget b is still being processed by the server.',
    ],
    [
      pdb({ observedGeneration: 1, disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 1 }),
      429,
      'The disruption budget b needs 2 healthy pods and has 1 currently',
    ],
    [
      pdb({ observedGeneration: 1, disruptionsAllowed: -1 }),
      403,
      'poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative',
    ],
  ])('refuses %j', (budgetObject, code, message) => {
    try {
      spendDisruption(budgetObject, 'p', now, true);
      expect.unreachable();
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      expect(e.code).toBe(code);
      expect(code === 429 ? e.status.details?.causes?.[0]?.message : e.status.message).toBe(message);
    }
  });

  it('spends one and records the pod', () => {
    const next = spendDisruption(pdb({ observedGeneration: 1, disruptionsAllowed: 2 }), 'p', now, true);
    expect(next.status).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 1,
      disruptedPods: { p: '2026-01-02T03:04:05Z' },
    });
  });
});

describe('eviction storage', () => {
  it('admits the Eviction as a CREATE of pods/eviction, then deletes through the pod store', async () => {
    await pod('p', { app: 'x' });
    seen = [];
    const answer = await evict('p');
    expect(answer).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect(
      seen.map(
        (a) => `${a.operation} ${a.resource}/${a.subresource} ${a.object?.kind ?? a.oldObject?.kind ?? ''}`,
      ),
    ).toEqual(['CREATE pods/eviction Eviction', 'UPDATE pods/eviction Pod', 'DELETE pods/eviction Pod']);
    await expect(getPod('p')).rejects.toThrow('pods "p" not found');
  });

  it('spends the budget of a running pod through its status, and dry run stores nothing', async () => {
    await pod('p', { app: 'x' }, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
    await budget(
      'b',
      { matchLabels: { app: 'x' } },
      { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1 },
    );
    await evict('p', { dryRun: true });
    await getPod('p');
    await evict('p');
    await expect(getPod('p')).rejects.toThrow('not found');
    const b = await store('policy', 'poddisruptionbudgets').get(
      scope('poddisruptionbudgets', '', 'PodDisruptionBudget'),
      'b',
    );
    expect(b.status).toMatchObject({ disruptionsAllowed: 0, disruptedPods: { p: '2026-01-02T03:04:05Z' } });
    const statusWrite = seen.find((a) => a.resource === 'poddisruptionbudgets' && a.subresource === 'status');
    expect(statusWrite).toMatchObject({
      operation: 'UPDATE',
      subresource: 'status',
      user: { username: 'system:apiserver' },
    });
  });

  it('validates the eviction deleteOptions as a delete would', async () => {
    await pod('p', {});
    await expect(evict('p', {}, { deleteOptions: { propagationPolicy: 'Sometimes' } })).rejects.toThrow(
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    await getPod('p');
  });
});

describe('binding storages', () => {
  it('pods/binding and bindings set the node once', async () => {
    await pod('p', {});
    await pod('q', {});
    seen = [];
    const sub = subresource('binding');
    if (!isNamedCreater(sub)) throw new Error('binding is no NamedCreater');
    await sub.createNamed(
      scope('pods', 'binding', 'Binding'),
      'p',
      { metadata: { name: 'p' }, target: { name: 'n' } },
      {},
    );
    expect((await getPod('p')).spec).toMatchObject({ nodeName: 'n' });

    const rt = catalog.lookup('', 'v1', 'bindings');
    if (rt === undefined) throw new Error('bindings not served');
    const top = installer.storages(rt).main;
    if (!isCreater(top)) throw new Error('bindings is no Creater');
    await top.create(
      scope('bindings', '', 'Binding'),
      { metadata: { name: 'q' }, target: { name: 'n' } },
      {},
    );
    expect((await getPod('q')).status).toMatchObject({
      conditions: [
        {
          type: 'PodScheduled',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    });
    await expect(
      top.create(scope('bindings', '', 'Binding'), { metadata: { name: 'q' }, target: { name: 'm' } }, {}),
    ).rejects.toThrow(
      'Operation cannot be fulfilled on pods/binding "q": pod q is already assigned to node "n"',
    );
    expect(seen[0]).toMatchObject({
      operation: 'CREATE',
      resource: 'pods',
      subresource: 'binding',
      kind: 'Binding',
    });
  });
});
