/** ServiceAccount against fixed accounts: defaulting, the missing-account 403, pull secrets, the token volume, mirror pods, mountable secrets. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { StatusError } from '../../machinery/errors';
import { namingProfile } from '../../machinery/naming';
import type { AdmissionAttributes } from '../types';
import { serviceAccountPlugin } from './service-account';
import { fakeDeps, podAttributes } from './support/fake-deps.test-support';

const sa = (name: string, extra: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: 'default', ...(annotations !== undefined ? { annotations } : {}) },
  ...extra,
});

const pod = (spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', ...meta },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});

const accounts = [
  sa('default'),
  sa('bot', { imagePullSecrets: [{ name: 'reg' }, { name: 'reg2' }] }),
  sa('quiet', { automountServiceAccountToken: false }),
  sa(
    'strict',
    { secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'reg' }] },
    { 'orch.io/enforce-mountable-secrets': 'true' },
  ),
];

interface Setup {
  objects?: KubeObject[];
  live?: KubeObject[];
  profile?: 'orch' | 'kubernetes';
}

function setup(o: Setup = {}) {
  const profile = namingProfile(o.profile ?? 'orch');
  const deps = fakeDeps({ objects: { '/serviceaccounts': o.objects ?? accounts }, profile });
  const liveCalls: string[] = [];
  deps.client.get = (_g, _r, namespace, name) => {
    liveCalls.push(`${namespace}/${name}`);
    return Promise.resolve(o.live?.find((s) => s.metadata?.name === name));
  };
  const sleeps: number[] = [];
  const plugin = serviceAccountPlugin(deps, {
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    suffix: () => 'xyz12',
  });
  return { plugin, liveCalls, sleeps };
}

type PodOut = { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } };

async function admitted(
  p: KubeObject,
  o: Setup = {},
  over: Partial<AdmissionAttributes> = {},
): Promise<PodOut> {
  const { plugin } = setup(o);
  return ((await plugin.admit?.(podAttributes(p, over))) ?? p) as PodOut;
}

async function refusal(promise: Promise<unknown> | undefined): Promise<StatusError> {
  const e = await promise?.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof StatusError)) throw new Error(`expected a StatusError, got ${String(e)}`);
  return e;
}

const orchVolume = {
  name: 'orch-api-access-xyz12',
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'orch-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  },
};
const orchMount = {
  name: 'orch-api-access-xyz12',
  readOnly: true,
  mountPath: '/var/run/secrets/orch.io/serviceaccount',
};

describe('ServiceAccount admit', () => {
  it('sets default, adds the projected volume and mounts it in init and regular containers only', async () => {
    const out = await admitted(
      pod({
        initContainers: [{ name: 'init', image: 'i' }],
        ephemeralContainers: [{ name: 'debug', image: 'i' }],
      }),
    );
    expect(out.spec.serviceAccountName).toBe('default');
    expect(out.spec.serviceAccount).toBe('default');
    expect(out.spec.volumes).toEqual([orchVolume]);
    expect(out.spec.containers[0]?.volumeMounts).toEqual([orchMount]);
    expect((out.spec.initContainers as Record<string, unknown>[])[0]?.volumeMounts).toEqual([orchMount]);
    expect((out.spec.ephemeralContainers as Record<string, unknown>[])[0]?.volumeMounts).toBeUndefined();
    expect(out.spec.imagePullSecrets).toBeUndefined();
  });

  it('uses the upstream names in the kubernetes profile', async () => {
    const out = await admitted(pod(), {
      profile: 'kubernetes',
      objects: [sa('default')],
    });
    const volume = (
      out.spec.volumes as { name: string; projected: { sources: Record<string, unknown>[] } }[]
    )[0];
    expect(volume?.name).toBe('kube-api-access-xyz12');
    expect(volume?.projected.sources[1]).toEqual({
      configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
    });
    expect(out.spec.containers[0]?.volumeMounts).toEqual([
      {
        name: 'kube-api-access-xyz12',
        readOnly: true,
        mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      },
    ]);
  });

  const automount: { name: string; spec: Record<string, unknown>; mounted: boolean }[] = [
    { name: 'account says no', spec: { serviceAccountName: 'quiet' }, mounted: false },
    {
      name: 'pod says yes over the account',
      spec: { serviceAccountName: 'quiet', automountServiceAccountToken: true },
      mounted: true,
    },
    { name: 'pod says no', spec: { automountServiceAccountToken: false }, mounted: false },
    { name: 'nobody says anything', spec: {}, mounted: true },
  ];
  for (const c of automount) {
    it(`automount: ${c.name}`, async () => {
      const out = await admitted(pod(c.spec));
      expect(out.spec.volumes !== undefined).toBe(c.mounted);
      expect(out.spec.containers[0]?.volumeMounts !== undefined).toBe(c.mounted);
    });
  }

  it('copies the account pull secrets only when the pod has none', async () => {
    const copied = await admitted(pod({ serviceAccountName: 'bot' }));
    expect(copied.spec.imagePullSecrets).toEqual([{ name: 'reg' }, { name: 'reg2' }]);
    const own = await admitted(pod({ serviceAccountName: 'bot', imagePullSecrets: [{ name: 'mine' }] }));
    expect(own.spec.imagePullSecrets).toEqual([{ name: 'mine' }]);
  });

  it('keeps an existing api-access volume and a container that already mounts the path', async () => {
    const out = await admitted(
      pod({
        volumes: [{ name: 'orch-api-access-mine', emptyDir: {} }],
        containers: [
          { name: 'a', image: 'i' },
          {
            name: 'b',
            image: 'i',
            volumeMounts: [{ name: 'other', mountPath: '/var/run/secrets/orch.io/serviceaccount' }],
          },
        ],
      }),
    );
    expect(out.spec.volumes).toEqual([{ name: 'orch-api-access-mine', emptyDir: {} }]);
    expect(out.spec.containers[0]?.volumeMounts).toEqual([{ ...orchMount, name: 'orch-api-access-mine' }]);
    expect(out.spec.containers[1]?.volumeMounts).toEqual([
      { name: 'other', mountPath: '/var/run/secrets/orch.io/serviceaccount' },
    ]);
  });

  it('adds no volume when every container already mounts the path', async () => {
    const out = await admitted(
      pod({
        containers: [
          {
            name: 'a',
            image: 'i',
            volumeMounts: [{ name: 'x', mountPath: '/var/run/secrets/orch.io/serviceaccount' }],
          },
        ],
      }),
    );
    expect(out.spec.volumes).toBeUndefined();
  });

  it('refuses a missing account, and a missing default after ten live lookups', async () => {
    const ghost = setup();
    const e = await refusal(ghost.plugin.admit?.(podAttributes(pod({ serviceAccountName: 'ghost' }))));
    expect(e.code).toBe(403);
    expect(e.status.reason).toBe('Forbidden');
    expect(e.message).toBe(
      'pods "p" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
    );
    expect(ghost.liveCalls).toEqual(['default/ghost']);

    const none = setup({ objects: [] });
    const d = await refusal(none.plugin.admit?.(podAttributes(pod())));
    expect(d.message).toBe(
      'pods "p" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
    );
    expect(none.liveCalls).toHaveLength(10);
    expect(none.sleeps).toHaveLength(9);
    for (const ms of none.sleeps) expect(ms >= 100 && ms < 200).toBe(true);
  });

  it("waits for the serviceaccount controller's first pass before looking up a missing default", async () => {
    const made: KubeObject[] = [];
    let firstPassDone: () => void = () => undefined;
    const firstPass = new Promise<void>((resolve) => (firstPassDone = resolve));
    const deps = fakeDeps({ objects: { '/serviceaccounts': [] }, profile: namingProfile('orch') });
    deps.defaultServiceAccounts = () => firstPass;
    deps.client.get = (_g, _r, _namespace, name) =>
      Promise.resolve(made.find((s) => s.metadata?.name === name));
    const plugin = serviceAccountPlugin(deps, { sleep: () => Promise.resolve(), suffix: () => 'xyz12' });
    const admitting = plugin.admit?.(podAttributes(pod()));
    // The controller makes the account only after the plugin's ten lookups would have been spent.
    await new Promise((resolve) => setTimeout(resolve, 20));
    made.push(sa('default'));
    firstPassDone();
    const out = (await admitting) as PodOut;
    expect(out.spec.serviceAccountName).toBe('default');
  });

  it('gives up waiting for a first pass that does not come, then refuses as before', async () => {
    const deps = fakeDeps({ objects: { '/serviceaccounts': [] }, profile: namingProfile('orch') });
    deps.defaultServiceAccounts = () => new Promise<void>(() => undefined);
    deps.client.get = () => Promise.resolve(undefined);
    const plugin = serviceAccountPlugin(deps, { sleep: () => Promise.resolve(), firstPassWaitMs: 10 });
    const e = await refusal(plugin.admit?.(podAttributes(pod())));
    expect(e.message).toBe(
      'pods "p" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
    );
  });

  it('does not wait for the first pass for an account other than default', async () => {
    const deps = fakeDeps({ objects: { '/serviceaccounts': [] }, profile: namingProfile('orch') });
    deps.defaultServiceAccounts = () => new Promise<void>(() => undefined);
    deps.client.get = () => Promise.resolve(undefined);
    const plugin = serviceAccountPlugin(deps, { sleep: () => Promise.resolve(), firstPassWaitMs: 60_000 });
    const e = await refusal(plugin.admit?.(podAttributes(pod({ serviceAccountName: 'ghost' }))));
    expect(e.code).toBe(403);
  });

  it('finds an account the cache does not have yet by a live read', async () => {
    const { plugin, liveCalls } = setup({ objects: [], live: [sa('default')] });
    const out = (await plugin.admit?.(podAttributes(pod()))) as PodOut;
    expect(out.spec.serviceAccountName).toBe('default');
    // Admit reads it, and so does the validation Admit ends with (as the real plugin does).
    expect(new Set(liveCalls)).toEqual(new Set(['default/default']));
  });

  it('names a generated pod by its generateName in the refusal', async () => {
    const { plugin } = setup();
    const p = pod({ serviceAccountName: 'ghost' });
    p.metadata = { generateName: 'web-', namespace: 'default' };
    const e = await refusal(plugin.admit?.(podAttributes(p)));
    expect(e.message).toMatch(/^pods "web-" is forbidden: error looking up service account default\/ghost/);
  });

  it('leaves updates, other resources and other subresources alone', async () => {
    const { plugin } = setup({ objects: [] });
    expect(
      await plugin.admit?.(podAttributes(pod(), { operation: 'UPDATE', oldObject: pod() })),
    ).toBeUndefined();
    await expect(
      plugin.validate?.(podAttributes(pod(), { operation: 'UPDATE', oldObject: pod() })),
    ).resolves.toBeUndefined();
    expect(await plugin.admit?.(podAttributes(pod(), { subresource: 'status' }))).toBeUndefined();
    expect(
      await plugin.admit?.(
        podAttributes(
          { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } },
          { resource: 'services', kind: 'Service' },
        ),
      ),
    ).toBeUndefined();
  });
});

describe('ServiceAccount and mirror pods', () => {
  const mirror = (spec: Record<string, unknown>) =>
    pod(spec, { annotations: { 'orch.io/config.mirror': 'x' } });
  const cases: { name: string; spec: Record<string, unknown>; error?: string }[] = [
    { name: 'a plain mirror pod is admitted unchanged', spec: {} },
    {
      name: 'may not name an account',
      spec: { serviceAccountName: 'default' },
      error: 'a mirror pod may not reference service accounts',
    },
    {
      name: 'may not use a secret',
      spec: { volumes: [{ name: 'v', secret: { secretName: 's' } }] },
      error: 'a mirror pod may not reference secrets',
    },
    {
      name: 'may not use a secret through env',
      spec: {
        containers: [
          {
            name: 'c',
            image: 'i',
            env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
          },
        ],
      },
      error: 'a mirror pod may not reference secrets',
    },
    {
      name: 'may not project a token',
      spec: { volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] },
      error: 'a mirror pod may not use ServiceAccountToken volume projections',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { plugin } = setup();
      const result = plugin.admit?.(podAttributes(mirror(c.spec)));
      if (c.error === undefined) {
        expect(await result).toBeUndefined();
        return;
      }
      const e = await refusal(result);
      expect(e.message).toBe(`pods "p" is forbidden: ${c.error}`);
    });
  }
});

describe('ServiceAccount mountable secrets (enforce-mountable-secrets)', () => {
  const cases: { name: string; spec: Record<string, unknown>; error?: string }[] = [
    {
      name: 'a listed secret volume and pull secret',
      spec: { volumes: [{ name: 'v', secret: { secretName: 'ok' } }], imagePullSecrets: [{ name: 'reg' }] },
    },
    {
      name: 'an unlisted secret volume',
      spec: { volumes: [{ name: 'v', secret: { secretName: 'no' } }] },
      error:
        'volume with secret.secretName="no" is not allowed because service account strict does not reference that secret',
    },
    {
      name: 'an init container env var',
      spec: {
        initContainers: [
          {
            name: 'i',
            image: 'i',
            env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'no', key: 'k' } } }],
          },
        ],
      },
      error:
        'init container i with envVar E referencing secret.secretName="no" is not allowed because service account strict does not reference that secret',
    },
    {
      name: 'a container envFrom',
      spec: { containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'no' } }] }] },
      error:
        'container c with envFrom referencing secret.secretName="no" is not allowed because service account strict does not reference that secret',
    },
    {
      name: 'an unlisted pull secret',
      spec: { imagePullSecrets: [{ name: 'reg' }, { name: 'no' }] },
      error:
        'imagePullSecrets[1].name="no" is not allowed because service account strict does not reference that imagePullSecret',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { plugin } = setup();
      const result = plugin.admit?.(podAttributes(pod({ serviceAccountName: 'strict', ...c.spec })));
      if (c.error === undefined) {
        await expect(result).resolves.toBeDefined();
        return;
      }
      const e = await refusal(result);
      expect(e.code).toBe(403);
      expect(e.message).toBe(`pods "p" is forbidden: ${c.error}`);
    });
  }

  it('checks ephemeral containers on the ephemeralcontainers subresource (403 where the real plugin answers 500)', async () => {
    const { plugin } = setup();
    const p = pod({
      serviceAccountName: 'strict',
      ephemeralContainers: [{ name: 'dbg', image: 'i', envFrom: [{ secretRef: { name: 'no' } }] }],
    });
    const e = await refusal(
      plugin.validate?.(
        podAttributes(p, { operation: 'UPDATE', subresource: 'ephemeralcontainers', oldObject: p }),
      ),
    );
    expect(e.code).toBe(403);
    expect(e.message).toBe(
      'pods "p" is forbidden: ephemeral container dbg with envFrom referencing secret.secretName="no" is not allowed because service account strict does not reference that secret',
    );
    const fine = pod({
      serviceAccountName: 'default',
      ephemeralContainers: [{ name: 'dbg', image: 'i', envFrom: [{ secretRef: { name: 'no' } }] }],
    });
    await expect(
      plugin.validate?.(
        podAttributes(fine, { operation: 'UPDATE', subresource: 'ephemeralcontainers', oldObject: fine }),
      ),
    ).resolves.toBeUndefined();
  });
});
