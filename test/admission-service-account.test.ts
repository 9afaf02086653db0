/**
 * The ServiceAccount admission plugin over HTTP against the Node host,
 * table-driven, in both naming profiles: the `default` account and the
 * projected token volume (its exact shape and random suffix, mounted in
 * init and regular containers), `automountServiceAccountToken` from the
 * pod and from the account, the account's pull secrets, an existing mount
 * at the path, the 403 for a missing account, mountable-secret
 * enforcement, and the deprecated `serviceAccount` alias. Each namespace's
 * accounts are created by the test itself, so it does not depend on the
 * service-account controller's timing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileName } from '../src/machinery/naming';
import { startTestHost, type TestHost, type TestResponse } from './support/host';

interface Names {
  volumePrefix: string;
  rootCA: string;
  mountPath: string;
  enforce: string;
}

const names: Record<ProfileName, Names> = {
  orch: {
    volumePrefix: 'orch-api-access-',
    rootCA: 'orch-root-ca.crt',
    mountPath: '/var/run/secrets/orch.io/serviceaccount',
    enforce: 'orch.io/enforce-mountable-secrets',
  },
  kubernetes: {
    volumePrefix: 'kube-api-access-',
    rootCA: 'kube-root-ca.crt',
    mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
    enforce: 'kubernetes.io/enforce-mountable-secrets',
  },
};

const ns = 'sa-admission';

function pod(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
}

type Spec = Record<string, unknown> & {
  containers: { volumeMounts?: unknown[] }[];
  initContainers?: { volumeMounts?: unknown[] }[];
  volumes?: { name: string; projected?: unknown }[];
};

interface Case {
  name: string;
  pod: ReturnType<typeof pod>;
  status: number;
  message?: string;
  check?: (spec: Spec, n: Names) => void;
}

/** The one volume the plugin added, checked against the spec's shape; returns its name. */
function expectTokenVolume(spec: Spec, n: Names): string {
  const volume = (spec.volumes ?? []).find((v) => v.name.startsWith(n.volumePrefix));
  expect(volume?.name).toMatch(new RegExp(`^${n.volumePrefix}[bcdfghjklmnpqrstvwxz2456789]{5}$`));
  expect(volume).toEqual({
    name: volume?.name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: n.rootCA, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    },
  });
  return volume?.name ?? '';
}

const mounted = (spec: Spec, n: Names, name: string) => ({ name, readOnly: true, mountPath: n.mountPath });

const cases: Case[] = [
  {
    name: 'a pod naming no account runs as default with the token volume in every container',
    pod: pod('plain', { initContainers: [{ name: 'init', image: 'busybox' }] }),
    status: 201,
    check: (spec, n) => {
      expect(spec.serviceAccountName).toBe('default');
      expect(spec.serviceAccount).toBe('default');
      const volume = expectTokenVolume(spec, n);
      expect(spec.containers[0]?.volumeMounts).toEqual([mounted(spec, n, volume)]);
      expect(spec.initContainers?.[0]?.volumeMounts).toEqual([mounted(spec, n, volume)]);
    },
  },
  {
    name: 'a missing account is refused with the real message',
    pod: pod('ghostly', { serviceAccountName: 'ghost' }),
    status: 403,
    message: `pods "ghostly" is forbidden: error looking up service account ${ns}/ghost: serviceaccount "ghost" not found`,
  },
  {
    name: 'the pod turning automount off gets no volume',
    pod: pod('no-token', { automountServiceAccountToken: false }),
    status: 201,
    check: (spec) => {
      expect(spec.volumes).toBeUndefined();
      expect(spec.containers[0]?.volumeMounts).toBeUndefined();
    },
  },
  {
    name: 'the account turning automount off gets no volume',
    pod: pod('quiet', { serviceAccountName: 'quiet' }),
    status: 201,
    check: (spec) => expect(spec.volumes).toBeUndefined(),
  },
  {
    name: 'the pod wins over the account',
    pod: pod('loud', { serviceAccountName: 'quiet', automountServiceAccountToken: true }),
    status: 201,
    check: (spec, n) => {
      expectTokenVolume(spec, n);
    },
  },
  {
    name: 'the account pull secrets are copied to a pod without any',
    pod: pod('pulls', { serviceAccountName: 'puller' }),
    status: 201,
    check: (spec) => expect(spec.imagePullSecrets).toEqual([{ name: 'registry' }]),
  },
  {
    name: 'a pod with its own pull secrets keeps them',
    pod: pod('own-pulls', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] }),
    status: 201,
    check: (spec) => expect(spec.imagePullSecrets).toEqual([{ name: 'mine' }]),
  },
  {
    name: 'a container already mounting the path is left alone, the others get the volume',
    pod: pod('own-mount', {
      volumes: [{ name: 'mine', emptyDir: {} }],
      containers: [
        { name: 'a', image: 'nginx', volumeMounts: [{ name: 'mine', mountPath: '@mountPath' }] },
        { name: 'b', image: 'nginx' },
      ],
    }),
    status: 201,
    check: (spec, n) => {
      const volume = expectTokenVolume(spec, n);
      expect(spec.containers[0]?.volumeMounts).toEqual([{ name: 'mine', mountPath: n.mountPath }]);
      expect(spec.containers[1]?.volumeMounts).toEqual([mounted(spec, n, volume)]);
    },
  },
  {
    name: 'the deprecated serviceAccount field names the account',
    pod: pod('old-field', { serviceAccount: 'puller' }),
    status: 201,
    check: (spec) => {
      expect(spec.serviceAccountName).toBe('puller');
      expect(spec.serviceAccount).toBe('puller');
    },
  },
  {
    name: 'an account enforcing mountable secrets refuses an unlisted one',
    pod: pod('secretive', {
      serviceAccountName: 'strict',
      containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'other' } }] }],
    }),
    status: 403,
    message:
      'pods "secretive" is forbidden: container app with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
  },
];

/** Replaces the mount path placeholder with the profile's path. */
function withProfilePaths<T>(value: T, n: Names): T {
  return JSON.parse(JSON.stringify(value).replaceAll('@mountPath', n.mountPath)) as T;
}

for (const profile of ['orch', 'kubernetes'] as const) {
  describe(`ServiceAccount admission over HTTP (profile ${profile})`, () => {
    const n = names[profile];
    let host: TestHost;

    /** Creates an account unless the controller got there first. */
    async function account(name: string, extra: Record<string, unknown> = {}): Promise<void> {
      const r = await host.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns }, ...extra },
      });
      expect([201, 409]).toContain(r.status);
    }

    beforeAll(async () => {
      host = await startTestHost({ profile });
      const created = await host.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      });
      expect(created.status).toBe(201);
      await account('default');
      await account('quiet', { automountServiceAccountToken: false });
      await account('puller', { imagePullSecrets: [{ name: 'registry' }] });
      await account('strict', {
        metadata: { name: 'strict', namespace: ns, annotations: { [n.enforce]: 'true' } },
        secrets: [{ name: 'allowed' }],
      });
    });
    afterAll(() => host.close());

    for (const c of cases) {
      it(c.name, async () => {
        const r: TestResponse = await host.request('POST', `/api/v1/namespaces/${ns}/pods`, {
          body: withProfilePaths(c.pod, n),
        });
        expect(r.status, r.text).toBe(c.status);
        if (c.message !== undefined) {
          expect(r.body.message).toBe(c.message);
          expect(r.body.reason).toBe('Forbidden');
        }
        c.check?.(r.body.spec as Spec, n);
      });
    }

    it('the volume survives a read back and each pod gets its own suffix', async () => {
      const a = await host.request('GET', `/api/v1/namespaces/${ns}/pods/plain`);
      const b = await host.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: pod('plain-2') });
      const va = expectTokenVolume(a.body.spec as Spec, n);
      const vb = expectTokenVolume(b.body.spec as Spec, n);
      expect(va).not.toBe(vb);
    });

    it('ephemeral containers get no mount, and an enforcing account limits their secrets', async () => {
      const created = await host.request('POST', `/api/v1/namespaces/${ns}/pods`, {
        body: pod('debuggable', { serviceAccountName: 'strict' }),
      });
      expect(created.status, created.text).toBe(201);
      const patch = (secret: string) =>
        host.request('PATCH', `/api/v1/namespaces/${ns}/pods/debuggable/ephemeralcontainers`, {
          contentType: 'application/strategic-merge-patch+json',
          body: {
            spec: {
              ephemeralContainers: [
                { name: `dbg-${secret}`, image: 'busybox', envFrom: [{ secretRef: { name: secret } }] },
              ],
            },
          },
        });
      const refused = await patch('other');
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.message).toBe(
        'pods "debuggable" is forbidden: ephemeral container dbg-other with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
      );
      const allowed = await patch('allowed');
      expect(allowed.status, allowed.text).toBe(200);
      const debug = (allowed.body.spec.ephemeralContainers as { name: string; volumeMounts?: unknown }[])[0];
      expect(debug?.name).toBe('dbg-allowed');
      expect(debug?.volumeMounts).toBeUndefined();
    });

    it('a dry run shows the change and stores nothing', async () => {
      const r = await host.request('POST', `/api/v1/namespaces/${ns}/pods?dryRun=All`, { body: pod('dry') });
      expect(r.status).toBe(201);
      expectTokenVolume(r.body.spec as Spec, n);
      expect((await host.request('GET', `/api/v1/namespaces/${ns}/pods/dry`)).status).toBe(404);
    });
  });
}
