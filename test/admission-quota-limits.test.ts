/**
 * LimitRanger, ResourceQuota, EventRateLimit and ImagePolicyWebhook over
 * HTTP against one Node host, table-driven and in order (quota cases build
 * on the usage earlier cases left): LimitRange defaults and min / max /
 * ratio refusals, quota object counts and compute sums with the exact
 * refusal texts, `status.used` kept current and freed after a deletion,
 * Event writes throttled after the burst, and an image policy backend on a
 * real HTTPS loopback server that allows, denies, and fails (the plugin
 * then admits, `defaultAllow` being set).
 */

import { readFileSync } from 'node:fs';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookCallError, type WebhookTransport } from '../src/admission/webhook-transport';
import { readWorkshopFile } from '../src/ui/workshop/scenario-file';
import { startTestHost, type TestHost, type TestResponse } from './support/host';
import { createTestCA, issueCertificate } from './support/pki';

interface Case {
  name: string;
  method?: string;
  path: string;
  body?: unknown;
  status: number;
  /** The whole Status message (rejections). */
  message?: string;
  reason?: string;
  check?: (r: TestResponse) => void | Promise<void>;
}

const podsIn = (ns: string) => `/api/v1/namespaces/${ns}/pods`;

function pod(name: string, resources?: Record<string, unknown>, image = 'nginx') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image, ...(resources !== undefined ? { resources } : {}) }] },
  };
}

function claim(name: string, storage: string) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
  };
}

function event(name: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Pod', namespace: 'events', name: 'p' },
    reason: 'Test',
    message: 'm',
    source: { component: 'test' },
  };
}

const cpu = (request: string, limit: string) => ({ requests: { cpu: request }, limits: { cpu: limit } });

let host: TestHost;
let backend: Server;
const reviews: { spec: { containers: { image: string }[]; namespace: string }; auth: string | undefined }[] =
  [];

/** A transport for the test only: POSTs over node:https trusting the configured CA. */
const httpsTransport: WebhookTransport = {
  call(c) {
    return new Promise((resolve, reject) => {
      const url = new URL(c.clientConfig.url ?? '');
      const req = httpsRequest(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          timeout: c.timeoutMs,
          ...(c.clientConfig.caBundle !== undefined
            ? { ca: Buffer.from(c.clientConfig.caBundle, 'base64').toString() }
            : {}),
          headers: {
            'content-type': 'application/json',
            ...(c.credentials?.token !== undefined ? { authorization: `Bearer ${c.credentials.token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'] ?? null,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      req.on('error', (e) => reject(new WebhookCallError('unreachable', e.message)));
      req.end(c.body);
    });
  },
};

beforeAll(async () => {
  const ca = await createTestCA('image-policy-ca');
  const cert = await issueCertificate(ca, { cn: 'backend', ips: ['127.0.0.1'], server: true });
  backend = createServer({ cert: cert.certPEM, key: cert.keyPEM }, (req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const review = JSON.parse(text) as { spec: { containers: { image: string }[]; namespace: string } };
      reviews.push({ spec: review.spec, auth: req.headers.authorization });
      const images = review.spec.containers.map((c) => c.image);
      if (images.some((i) => i.includes('broken'))) {
        res.writeHead(500).end('down');
        return;
      }
      const evil = images.some((i) => i.includes('evil'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          apiVersion: 'imagepolicy.orch.io/v1alpha1',
          kind: 'ImageReview',
          status: evil ? { allowed: false, reason: 'evil images are not allowed' } : { allowed: true },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const port = (backend.address() as AddressInfo).port;
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: backend',
    '  cluster:',
    `    server: https://127.0.0.1:${port}/review`,
    `    certificate-authority-data: ${Buffer.from(ca.certPEM).toString('base64')}`,
    'users:',
    '- name: apiserver',
    '  user:',
    '    token: image-token',
    'contexts:',
    '- name: default',
    '  context: {cluster: backend, user: apiserver}',
    'current-context: default',
  ].join('\n');
  host = await startTestHost({
    webhookTransport: httpsTransport,
    admission: {
      enablePlugins: ['EventRateLimit', 'ImagePolicyWebhook'],
      loadFile: (path) => {
        if (path === '/etc/image-policy/kubeconfig.yaml') return kubeconfig;
        throw new Error(`open ${path}: no such file or directory`);
      },
      pluginConfigurations: new Map<string, unknown>([
        [
          'EventRateLimit',
          {
            apiVersion: 'eventratelimit.admission.orch.io/v1alpha1',
            kind: 'Configuration',
            limits: [{ type: 'Namespace', qps: 0.0001, burst: 3 }],
          },
        ],
        [
          'ImagePolicyWebhook',
          {
            imagePolicy: {
              orchConfigFile: '/etc/image-policy/kubeconfig.yaml',
              allowTTL: 50,
              denyTTL: 50,
              retryBackoff: 1,
              defaultAllow: true,
            },
          },
        ],
      ]),
    },
  });
  for (const name of ['limits', 'quota', 'events']) {
    const r = await host.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
    });
    expect(r.status, r.text).toBe(201);
  }
  const range = await host.request('POST', '/api/v1/namespaces/limits/limitranges', {
    body: {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'bounds' },
      spec: {
        limits: [
          {
            type: 'Container',
            defaultRequest: { cpu: '100m' },
            default: { cpu: '500m' },
            min: { cpu: '50m' },
            max: { cpu: '1' },
            maxLimitRequestRatio: { cpu: '10' },
          },
          { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
        ],
      },
    },
  });
  expect(range.status, range.text).toBe(201);
  for (const [name, hard] of [
    ['compute', { 'requests.cpu': '1', 'limits.cpu': '2' }],
    ['objects', { pods: '2', services: '1', 'count/deployments.apps': '0' }],
  ] as const) {
    const r = await host.request('POST', '/api/v1/namespaces/quota/resourcequotas', {
      body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard } },
    });
    expect(r.status, r.text).toBe(201);
  }
}, 30_000);

afterAll(async () => {
  await host.close();
  await new Promise((resolve) => backend.close(resolve));
});

async function quotaUsed(name: string): Promise<Record<string, string>> {
  const r = await host.request('GET', `/api/v1/namespaces/quota/resourcequotas/${name}`);
  return (r.body.status?.used ?? {}) as Record<string, string>;
}

/** Status settles once the write is in the cache (milliseconds): poll rather than time. */
async function eventuallyUsed(name: string, want: Record<string, string>): Promise<void> {
  let used: Record<string, string> = {};
  for (let i = 0; i < 100; i++) {
    used = await quotaUsed(name);
    if (Object.entries(want).every(([k, v]) => used[k] === v)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(used).toMatchObject(want);
}

const cases: Case[] = [
  // --- LimitRanger ---
  {
    name: 'LimitRanger fills the default request and limit and says so',
    path: podsIn('limits'),
    body: pod('defaulted'),
    status: 201,
    check: (r) => {
      expect(r.body.spec.containers[0].resources).toEqual({
        requests: { cpu: '100m' },
        limits: { cpu: '500m' },
      });
      expect(r.body.metadata.annotations['orch.io/limit-ranger']).toBe(
        'LimitRanger plugin set: cpu request for container app; cpu limit for container app',
      );
    },
  },
  {
    name: 'LimitRanger keeps what the container states',
    path: podsIn('limits'),
    body: pod('stated', cpu('200m', '1')),
    status: 201,
    check: (r) => {
      expect(r.body.spec.containers[0].resources).toEqual(cpu('200m', '1'));
      expect(r.body.metadata.annotations?.['orch.io/limit-ranger']).toBeUndefined();
    },
  },
  {
    name: 'LimitRanger refuses a request under the minimum (and the ratio the default limit then gives)',
    path: podsIn('limits'),
    body: pod('low', { requests: { cpu: '20m' } }),
    status: 403,
    reason: 'Forbidden',
    message:
      'pods "low" is forbidden: [minimum cpu usage per Container is 50m, but request is 20m, cpu max limit to request ratio per Container is 10, but provided ratio is 25.000000]',
  },
  {
    name: 'LimitRanger refuses a limit over the maximum',
    path: podsIn('limits'),
    body: pod('big', cpu('1', '2')),
    status: 403,
    message: 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
  },
  {
    name: 'LimitRanger admits a claim within the storage bounds',
    path: '/api/v1/namespaces/limits/persistentvolumeclaims',
    body: claim('fits', '5Gi'),
    status: 201,
  },
  {
    name: 'LimitRanger refuses a claim under the storage minimum',
    path: '/api/v1/namespaces/limits/persistentvolumeclaims',
    body: claim('small', '500Mi'),
    status: 403,
    message:
      'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
  },
  {
    name: 'LimitRanger refuses a claim over the storage maximum',
    path: '/api/v1/namespaces/limits/persistentvolumeclaims',
    body: claim('huge', '20Gi'),
    status: 403,
    message:
      'persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
  },
  // --- ResourceQuota ---
  {
    name: 'ResourceQuota admits a pod within every quota and records its usage',
    path: podsIn('quota'),
    body: pod('q1', cpu('400m', '800m')),
    status: 201,
    check: async () => {
      await eventuallyUsed('objects', { pods: '1', services: '0', 'count/deployments.apps': '0' });
      await eventuallyUsed('compute', { 'requests.cpu': '400m', 'limits.cpu': '800m' });
    },
  },
  {
    name: 'ResourceQuota refuses a container that leaves out a quota-tracked limit',
    path: podsIn('quota'),
    body: pod('q-missing', { requests: { cpu: '100m' } }),
    status: 403,
    message: 'pods "q-missing" is forbidden: failed quota: compute: must specify limits.cpu for: app',
  },
  {
    name: 'ResourceQuota admits the second pod',
    path: podsIn('quota'),
    body: pod('q2', cpu('400m', '800m')),
    status: 201,
  },
  {
    name: 'ResourceQuota refuses a dry run over the pod count too',
    path: `${podsIn('quota')}?dryRun=All`,
    body: pod('q3', cpu('100m', '100m')),
    status: 403,
    message:
      'pods "q3" is forbidden: exceeded quota: objects, requested: pods=1, used: pods=2, limited: pods=2',
  },
  {
    name: 'ResourceQuota refuses the third pod with the real wording',
    path: podsIn('quota'),
    body: pod('q3', cpu('100m', '100m')),
    status: 403,
    reason: 'Forbidden',
    message:
      'pods "q3" is forbidden: exceeded quota: objects, requested: pods=1, used: pods=2, limited: pods=2',
    check: async () => {
      expect(await quotaUsed('objects')).toMatchObject({ pods: '2' });
      expect(await quotaUsed('compute')).toMatchObject({ 'requests.cpu': '800m', 'limits.cpu': '1600m' });
    },
  },
  {
    name: 'deleting a pod frees its share of the quota',
    method: 'DELETE',
    path: `${podsIn('quota')}/q1?gracePeriodSeconds=0`,
    status: 200,
    check: async () => {
      await eventuallyUsed('objects', { pods: '1' });
      await eventuallyUsed('compute', { 'requests.cpu': '400m' });
    },
  },
  {
    name: 'ResourceQuota sums compute requests against the hard limit',
    path: podsIn('quota'),
    body: pod('q4', cpu('800m', '800m')),
    status: 403,
    message:
      'pods "q4" is forbidden: exceeded quota: compute, requested: requests.cpu=800m, used: requests.cpu=400m, limited: requests.cpu=1',
  },
  {
    name: 'ResourceQuota admits a pod in the freed room',
    path: podsIn('quota'),
    body: pod('q3', cpu('100m', '100m')),
    status: 201,
  },
  {
    name: 'ResourceQuota counts services',
    path: '/api/v1/namespaces/quota/services',
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's1' }, spec: { ports: [{ port: 80 }] } },
    status: 201,
  },
  {
    name: 'ResourceQuota refuses a service over the count',
    path: '/api/v1/namespaces/quota/services',
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's2' }, spec: { ports: [{ port: 80 }] } },
    status: 403,
    message:
      'services "s2" is forbidden: exceeded quota: objects, requested: services=1, used: services=1, limited: services=1',
  },
  {
    name: 'ResourceQuota counts any resource as count/<resource>.<group>',
    path: '/apis/apps/v1/namespaces/quota/deployments',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    },
    status: 403,
    message:
      'deployments.apps "d" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0',
  },
  {
    name: 'a new ResourceQuota gets its status: the hard limits and zero usage',
    path: '/api/v1/namespaces/limits/resourcequotas',
    body: {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'balancers' },
      spec: { hard: { 'services.loadbalancers': '1' } },
    },
    status: 201,
    check: async () => {
      let status: Record<string, unknown> = {};
      for (let i = 0; i < 100 && status.used === undefined; i++) {
        const r = await host.request('GET', '/api/v1/namespaces/limits/resourcequotas/balancers');
        status = (r.body.status ?? {}) as Record<string, unknown>;
        if (status.used === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toEqual({
        hard: { 'services.loadbalancers': '1' },
        used: { 'services.loadbalancers': '0' },
      });
    },
  },
  // --- EventRateLimit (burst 3 per namespace, refilling far slower than the test runs) ---
  ...[1, 2, 3].map((i): Case => ({
    name: `EventRateLimit admits event ${i} of the burst`,
    path: '/api/v1/namespaces/events/events',
    body: event(`e${i}`),
    status: 201,
  })),
  {
    name: 'EventRateLimit refuses the event past the burst with 429',
    path: '/api/v1/namespaces/events/events',
    body: event('e4'),
    status: 429,
    reason: 'TooManyRequests',
    message: 'Too many requests: limit reached on type Namespace for key events',
  },
  {
    name: 'EventRateLimit keeps a bucket per namespace',
    path: '/api/v1/namespaces/default/events',
    body: { ...event('elsewhere'), involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' } },
    status: 201,
  },
  // --- ImagePolicyWebhook (a real HTTPS backend on loopback) ---
  {
    name: 'ImagePolicyWebhook admits what the backend allows, sending the images, namespace and credentials',
    path: podsIn('default'),
    body: pod('allowed-image', undefined, 'registry.example/app:1'),
    status: 201,
    check: () => {
      const seen = reviews.find((r) => r.spec.containers.some((c) => c.image === 'registry.example/app:1'));
      expect(seen?.spec.namespace).toBe('default');
      expect(seen?.auth).toBe('Bearer image-token');
    },
  },
  {
    name: 'ImagePolicyWebhook refuses what the backend denies, with its reason',
    path: podsIn('default'),
    body: pod('evil-image', undefined, 'registry.example/evil:1'),
    status: 403,
    message:
      'pods "evil-image" is forbidden: image policy webhook backend denied one or more images: evil images are not allowed',
  },
  {
    name: 'ImagePolicyWebhook admits when the backend fails and defaultAllow is set',
    path: podsIn('default'),
    body: pod('broken-image', undefined, 'registry.example/broken:1'),
    status: 201,
    check: (r) =>
      expect(r.body.metadata.annotations).toMatchObject({ 'alpha.image-policy.orch.io/failed-open': 'true' }),
  },
];

describe('LimitRanger, ResourceQuota, EventRateLimit, ImagePolicyWebhook', () => {
  it.each(cases)('$name', async (c) => {
    const r = await host.request(c.method ?? 'POST', c.path, c.body !== undefined ? { body: c.body } : {});
    expect(r.status, r.text).toBe(c.status);
    if (c.message !== undefined) expect(r.body.message).toBe(c.message);
    if (c.reason !== undefined) expect(r.body.reason).toBe(c.reason);
    await c.check?.(r);
  });
});

describe('the workshop scenario "Limits and quota"', () => {
  it('creates its objects, and the pod gets the LimitRange default of 0.1 CPU, charged to the quota', async () => {
    const text = readFileSync(new URL('../public/scenarios/limits-and-quota.yaml', import.meta.url), 'utf8');
    const file = readWorkshopFile(text, 'limits-and-quota');
    if (file.kind !== 'scenario') throw new Error('expected a scenario');
    let last: TestResponse | undefined;
    for (const { object } of file.scenario.objects) {
      const ns = object.metadata?.namespace;
      const plural = `${(object.kind ?? '').toLowerCase()}s`;
      const path = ns === undefined ? `/api/v1/${plural}` : `/api/v1/namespaces/${ns}/${plural}`;
      last = await host.request('POST', path, { body: object });
      expect(last.status, last.text).toBe(201);
    }
    expect(last?.body.spec.containers[0].resources.requests).toEqual({ cpu: '100m' });
    let used: Record<string, string> = {};
    for (let i = 0; i < 100 && used['requests.cpu'] !== '100m'; i++) {
      const q = await host.request('GET', '/api/v1/namespaces/limited/resourcequotas/team-budget');
      used = (q.body.status?.used ?? {}) as Record<string, string>;
      if (used['requests.cpu'] !== '100m') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(used).toMatchObject({ pods: '1', 'requests.cpu': '100m', 'limits.cpu': '500m' });
  });
});
