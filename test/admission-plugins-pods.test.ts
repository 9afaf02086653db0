/**
 * The built-in pod, node, namespace and service admission plugins over
 * HTTP against the Node host, table-driven: each plugin with at least one
 * request it admits (or the change it makes) and one it refuses, with the
 * real code and message. Two hosts: the default plugin set (Priority,
 * DefaultTolerationSeconds, TaintNodesByCondition, RuntimeClass) with the
 * namespace plugins swapped in, and the default-off pod plugins enabled
 * together with their configuration. AlwaysDeny is covered beside its file:
 * a host with it cannot start, since the server's own bootstrap writes go
 * through admission.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost, type TestResponse } from './support/host';

type HostName = 'defaults' | 'pods';

interface Case {
  name: string;
  host: HostName;
  method?: string;
  path: string;
  body?: unknown;
  status: number;
  /** Substring of the Status message (rejections). */
  message?: string;
  reason?: string;
  /** Further checks on the answer (what a mutation left). */
  check?: (r: TestResponse) => void;
}

const pods = (ns = 'default') => `/api/v1/namespaces/${ns}/pods`;

function pod(name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...meta },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
}

function service(name: string, externalIPs?: string[]) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { ports: [{ port: 80 }], ...(externalIPs !== undefined ? { externalIPs } : {}) },
  };
}

const ns = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, annotations },
});

const hosts = {} as Record<HostName, TestHost>;

beforeAll(async () => {
  const [defaults, podsHost] = await Promise.all([
    startTestHost({
      admission: {
        enablePlugins: ['NamespaceAutoProvision', 'NamespaceExists'],
        disablePlugins: ['NamespaceLifecycle'],
      },
    }),
    startTestHost({
      admission: {
        enablePlugins: [
          'AlwaysAdmit',
          'AlwaysPullImages',
          'SecurityContextDeny',
          'LimitPodHardAntiAffinityTopology',
          'PodNodeSelector',
          'PodTolerationRestriction',
          'ExtendedResourceToleration',
          'DenyServiceExternalIPs',
        ],
        pluginConfigurations: new Map<string, unknown>([
          [
            'PodNodeSelector',
            {
              podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'tier=general', fenced: 'env=prod' },
            },
          ],
        ]),
      },
    }),
  ]);
  hosts.defaults = defaults;
  hosts.pods = podsHost;
  const p = hosts.pods;
  for (const body of [
    ns('selected', { 'scheduler.alpha.orch.io/node-selector': 'disk=ssd' }),
    ns('unselected', { 'scheduler.alpha.orch.io/node-selector': '' }),
    ns('fenced', { 'scheduler.alpha.orch.io/node-selector': '' }),
    ns('broken', { 'scheduler.alpha.orch.io/node-selector': 'disk' }),
    ns('tolerant', {
      'scheduler.alpha.orch.io/defaultTolerations': JSON.stringify([
        { key: 'dedicated', operator: 'Equal', value: 'team-a', effect: 'NoSchedule' },
      ]),
      'scheduler.alpha.orch.io/tolerationsWhitelist': JSON.stringify([
        { key: 'dedicated', operator: 'Exists' },
        { operator: 'Exists', effect: 'NoExecute' },
      ]),
    }),
  ]) {
    const r = await p.request('POST', '/api/v1/namespaces', { body });
    expect(r.status, r.text).toBe(201);
  }
  const plain = await p.request('POST', '/api/v1/namespaces/default/services', { body: service('plain') });
  expect(plain.status, plain.text).toBe(201);
  const fixture = await hosts.defaults.request('POST', pods(), { body: pod('keeper') });
  expect(fixture.status, fixture.text).toBe(201);
  const imagePod = await p.request('POST', pods('unselected'), { body: pod('imaged') });
  expect(imagePod.status, imagePod.text).toBe(201);
}, 30_000);

afterAll(async () => {
  await Promise.all(Object.values(hosts).map((h) => h.close()));
});

const spec = (r: TestResponse) => r.body.spec as Record<string, unknown>;

const cases: Case[] = [
  // --- default-on plugins ---
  {
    name: 'DefaultTolerationSeconds adds the not-ready and unreachable tolerations (300 s)',
    host: 'defaults',
    path: pods(),
    body: pod('tolerated'),
    status: 201,
    check: (r) =>
      expect(spec(r).tolerations).toEqual([
        { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ]),
  },
  {
    name: 'DefaultTolerationSeconds leaves a pod that tolerates every taint alone',
    host: 'defaults',
    path: pods(),
    body: pod('tolerates-all', { tolerations: [{ operator: 'Exists' }] }),
    status: 201,
    check: (r) => expect(spec(r).tolerations).toEqual([{ operator: 'Exists' }]),
  },
  {
    name: 'Priority fills priority 0 and PreemptLowerPriority without a default class',
    host: 'defaults',
    path: pods(),
    body: pod('plain-priority'),
    status: 201,
    check: (r) => {
      expect(spec(r).priority).toBe(0);
      expect(spec(r).preemptionPolicy).toBe('PreemptLowerPriority');
      expect(spec(r).priorityClassName).toBeUndefined();
    },
  },
  {
    name: 'Priority resolves the system class system-node-critical',
    host: 'defaults',
    path: pods(),
    body: pod('critical', { priorityClassName: 'system-node-critical' }),
    status: 201,
    check: (r) => {
      expect(spec(r).priority).toBe(2000001000);
      expect(spec(r).preemptionPolicy).toBe('PreemptLowerPriority');
    },
  },
  {
    name: 'Priority resolves system-cluster-critical',
    host: 'defaults',
    path: pods(),
    body: pod('cluster-critical', { priorityClassName: 'system-cluster-critical' }),
    status: 201,
    check: (r) => expect(spec(r).priority).toBe(2000000000),
  },
  {
    name: 'Priority refuses a class that does not exist',
    host: 'defaults',
    path: pods(),
    body: pod('unknown-class', { priorityClassName: 'gold' }),
    status: 403,
    reason: 'Forbidden',
    message: 'pods "unknown-class" is forbidden: no PriorityClass with name gold was found',
  },
  {
    name: 'Priority refuses a pod that states another priority',
    host: 'defaults',
    path: pods(),
    body: pod('self-prioritised', { priority: 5 }),
    status: 403,
    message:
      'pods "self-prioritised" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
  },
  {
    name: 'Priority refuses a pod that states another preemption policy',
    host: 'defaults',
    path: pods(),
    body: pod('never-preempts', { preemptionPolicy: 'Never' }),
    status: 403,
    message:
      'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
  },
  {
    name: 'Priority names a generated pod by its generateName',
    host: 'defaults',
    path: pods(),
    body: {
      ...pod(''),
      metadata: { generateName: 'gen-' },
      spec: { ...pod('').spec, priorityClassName: 'x' },
    },
    status: 403,
    message: 'pods "gen-" is forbidden: no PriorityClass with name x was found',
  },
  {
    name: 'TaintNodesByCondition taints a new node not-ready:NoSchedule',
    host: 'defaults',
    path: '/api/v1/nodes',
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'fresh' } },
    status: 201,
    check: (r) => expect(spec(r).taints).toEqual([{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]),
  },
  {
    name: 'TaintNodesByCondition keeps a node that already has the taint as it is',
    host: 'defaults',
    path: '/api/v1/nodes',
    body: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'pretainted' },
      spec: { taints: [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule', value: 'x' }] },
    },
    status: 201,
    check: (r) => expect(spec(r).taints).toHaveLength(1),
  },
  {
    name: 'RuntimeClass refuses a pod naming a class that does not exist',
    host: 'defaults',
    path: pods(),
    body: pod('sandboxed', { runtimeClassName: 'gvisor' }),
    status: 403,
    message: 'pods "sandboxed" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
  },
  {
    name: 'RuntimeClass refuses an overhead without a class defining one',
    host: 'defaults',
    path: pods(),
    body: pod('overhead', { overhead: { cpu: '100m' } }),
    status: 403,
    message:
      'pods "overhead" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
  },
  // --- namespace plugins ---
  {
    name: 'NamespaceAutoProvision creates the missing namespace of a create',
    host: 'defaults',
    path: '/api/v1/namespaces/provisioned/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    status: 201,
  },
  {
    name: 'NamespaceExists refuses a dry-run create in a missing namespace (nothing provisioned)',
    host: 'defaults',
    path: '/api/v1/namespaces/ghost/configmaps?dryRun=All',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    status: 404,
    reason: 'NotFound',
    message: 'namespaces "ghost" not found',
  },
  // --- AlwaysAdmit, AlwaysDeny ---
  {
    name: 'AlwaysAdmit admits',
    host: 'pods',
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'admitted' } },
    status: 201,
  },
  // --- AlwaysPullImages ---
  {
    name: 'AlwaysPullImages sets imagePullPolicy Always on every container',
    host: 'pods',
    path: pods('unselected'),
    body: pod('pulled', {
      initContainers: [{ name: 'init', image: 'busybox', imagePullPolicy: 'Never' }],
      containers: [{ name: 'app', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent' }],
    }),
    status: 201,
    check: (r) => {
      const s = spec(r) as {
        containers: { imagePullPolicy: string }[];
        initContainers: { imagePullPolicy: string }[];
      };
      expect(s.containers[0]?.imagePullPolicy).toBe('Always');
      expect(s.initContainers[0]?.imagePullPolicy).toBe('Always');
    },
  },
  // --- SecurityContextDeny ---
  {
    name: 'SecurityContextDeny admits a pod without the forbidden fields',
    host: 'pods',
    path: pods('unselected'),
    body: pod('unprivileged', { securityContext: { runAsNonRoot: true } }),
    status: 201,
  },
  {
    name: 'SecurityContextDeny refuses pod runAsUser',
    host: 'pods',
    path: pods('unselected'),
    body: pod('root', { securityContext: { runAsUser: 0 } }),
    status: 403,
    message: 'pods "root" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden',
  },
  {
    name: 'SecurityContextDeny refuses container seLinuxOptions',
    host: 'pods',
    path: pods('unselected'),
    body: pod('labelled', {
      containers: [{ name: 'app', image: 'nginx', securityContext: { seLinuxOptions: { level: 's0' } } }],
    }),
    status: 403,
    message: 'pods "labelled" is forbidden: SecurityContext.SELinuxOptions is forbidden',
  },
  // --- LimitPodHardAntiAffinityTopology ---
  {
    name: 'LimitPodHardAntiAffinityTopology admits the hostname topology key',
    host: 'pods',
    path: pods('unselected'),
    body: pod('spread', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'orch.io/hostname', labelSelector: { matchLabels: { app: 'x' } } },
          ],
        },
      },
    }),
    status: 201,
  },
  {
    name: 'LimitPodHardAntiAffinityTopology refuses a zone topology key',
    host: 'pods',
    path: pods('unselected'),
    body: pod('zoned', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'topology.orch.io/zone', labelSelector: { matchLabels: { app: 'x' } } },
          ],
        },
      },
    }),
    status: 403,
    message:
      'pods "zoned" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.orch.io/zone but only key orch.io/hostname is allowed',
  },
  // --- PodNodeSelector ---
  {
    name: 'PodNodeSelector merges the namespace selector',
    host: 'pods',
    path: pods('selected'),
    body: pod('on-ssd', { nodeSelector: { gpu: 'yes' } }),
    status: 201,
    check: (r) => expect(spec(r).nodeSelector).toEqual({ disk: 'ssd', gpu: 'yes' }),
  },
  {
    name: 'PodNodeSelector applies clusterDefaultNodeSelector to a namespace without the annotation',
    host: 'pods',
    path: pods(),
    body: pod('general'),
    status: 201,
    check: (r) => expect(spec(r).nodeSelector).toEqual({ tier: 'general' }),
  },
  {
    name: 'PodNodeSelector refuses a pod selector that conflicts with the namespace one',
    host: 'pods',
    path: pods('selected'),
    body: pod('on-hdd', { nodeSelector: { disk: 'hdd' } }),
    status: 403,
    message:
      'pods "on-hdd" is forbidden: pod node label selector conflicts with its namespace node label selector',
  },
  {
    name: 'PodNodeSelector admits a pod inside the namespace whitelist',
    host: 'pods',
    path: pods('fenced'),
    body: pod('prod', { nodeSelector: { env: 'prod' } }),
    status: 201,
  },
  {
    name: 'PodNodeSelector refuses a pod outside the namespace whitelist',
    host: 'pods',
    path: pods('fenced'),
    body: pod('dev', { nodeSelector: { env: 'dev' } }),
    status: 403,
    message: 'pods "dev" is forbidden: pod node label selector labels conflict with its namespace whitelist',
  },
  {
    name: 'PodNodeSelector answers 500 for a malformed namespace selector',
    host: 'pods',
    path: pods('broken'),
    body: pod('anything'),
    status: 500,
    message: 'invalid selector: [disk]',
  },
  // --- PodTolerationRestriction ---
  {
    name: 'PodTolerationRestriction merges the namespace default tolerations',
    host: 'pods',
    path: pods('tolerant'),
    body: pod('dedicated'),
    status: 201,
    check: (r) =>
      expect(spec(r).tolerations).toContainEqual({
        key: 'dedicated',
        operator: 'Equal',
        value: 'team-a',
        effect: 'NoSchedule',
      }),
  },
  {
    name: 'PodTolerationRestriction adds memory-pressure to a pod that is not BestEffort',
    host: 'pods',
    path: pods('unselected'),
    body: pod('burstable', {
      containers: [{ name: 'app', image: 'nginx', resources: { requests: { memory: '64Mi' } } }],
    }),
    status: 201,
    check: (r) =>
      expect(spec(r).tolerations).toContainEqual({
        key: 'node.orch.io/memory-pressure',
        operator: 'Exists',
        effect: 'NoSchedule',
      }),
  },
  {
    name: 'PodTolerationRestriction refuses a toleration outside the namespace whitelist (500, as the real plugin)',
    host: 'pods',
    path: pods('tolerant'),
    body: pod('escapee', { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] }),
    status: 500,
    message:
      'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
  },
  // --- ExtendedResourceToleration ---
  {
    name: 'ExtendedResourceToleration tolerates the taint named after a requested extended resource',
    host: 'pods',
    path: pods('unselected'),
    body: pod('gpu-user', {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } },
        },
      ],
    }),
    status: 201,
    check: (r) =>
      expect(spec(r).tolerations).toContainEqual({
        key: 'example.com/gpu',
        operator: 'Exists',
        effect: 'NoSchedule',
      }),
  },
  {
    name: 'ExtendedResourceToleration ignores native resources',
    host: 'pods',
    path: pods('unselected'),
    body: pod('cpu-user', {
      containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '0' } } }],
    }),
    status: 201,
    check: (r) =>
      expect(spec(r).tolerations ?? []).toEqual([
        { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ]),
  },
  // --- DenyServiceExternalIPs ---
  {
    name: 'DenyServiceExternalIPs admits a Service without externalIPs',
    host: 'pods',
    path: '/api/v1/namespaces/default/services',
    body: service('internal'),
    status: 201,
  },
  {
    name: 'DenyServiceExternalIPs refuses a Service with externalIPs',
    host: 'pods',
    path: '/api/v1/namespaces/default/services',
    body: service('exposed', ['192.0.2.1']),
    status: 403,
    message: 'services "exposed" is forbidden: Use of external IPs is denied by admission control',
  },
];

describe('built-in pod, node, namespace and service admission plugins', () => {
  it.each(cases)('$name', async (c) => {
    const r = await hosts[c.host].request(
      c.method ?? 'POST',
      c.path,
      c.body !== undefined ? { body: c.body } : {},
    );
    expect(r.status, r.text).toBe(c.status);
    if (c.message !== undefined) expect(r.body.message).toContain(c.message);
    if (c.reason !== undefined) expect(r.body.reason).toBe(c.reason);
    c.check?.(r);
  });

  it('NamespaceAutoProvision left the namespace behind', async () => {
    const r = await hosts.defaults.request('GET', '/api/v1/namespaces/provisioned');
    expect(r.status).toBe(200);
    const ghost = await hosts.defaults.request('GET', '/api/v1/namespaces/ghost');
    expect(ghost.status).toBe(404);
  });

  it('Priority keeps the stored priority on an update that omits it', async () => {
    const h = hosts.defaults;
    const current = (await h.request('GET', `${pods()}/keeper`)).body;
    delete current.spec.priority;
    delete current.spec.preemptionPolicy;
    current.metadata.labels = { touched: 'yes' };
    const r = await h.request('PUT', `${pods()}/keeper`, { body: current });
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.priority).toBe(0);
    expect(r.body.spec.preemptionPolicy).toBe('PreemptLowerPriority');
  });

  it('AlwaysPullImages leaves an update without new images alone and forces Always on a new image', async () => {
    const h = hosts.pods;
    const path = `${pods('unselected')}/imaged`;
    const current = (await h.request('GET', path)).body;
    expect(current.spec.containers[0].imagePullPolicy).toBe('Always');
    current.spec.containers[0].image = 'nginx:1.26';
    const r = await h.request('PUT', path, { body: current });
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.containers[0].imagePullPolicy).toBe('Always');
  });

  it('DenyServiceExternalIPs refuses adding externalIPs on update and admits removing none', async () => {
    const h = hosts.pods;
    const path = '/api/v1/namespaces/default/services/plain';
    const current = (await h.request('GET', path)).body;
    const added = await h.request('PUT', path, {
      body: { ...current, spec: { ...current.spec, externalIPs: ['192.0.2.7'] } },
    });
    expect(added.status).toBe(403);
    expect(added.body.message).toBe(
      'services "plain" is forbidden: Use of external IPs is denied by admission control',
    );
    const same = await h.request('PUT', path, {
      body: { ...current, metadata: { ...current.metadata, labels: { a: 'b' } } },
    });
    expect(same.status, same.text).toBe(200);
  });
});

describe('plugins that read stored classes', () => {
  it('Priority takes the value of a stored PriorityClass, and a global default for pods naming none', async () => {
    const h = hosts.defaults;
    const classes = '/apis/scheduling.orch.io/v1/priorityclasses';
    const gold = {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'gold' },
      value: 1000,
    };
    expect((await h.request('POST', classes, { body: gold })).status).toBe(201);
    const named = await h.request('POST', pods(), { body: pod('gold-pod', { priorityClassName: 'gold' }) });
    expect(named.status, named.text).toBe(201);
    expect(named.body.spec.priority).toBe(1000);
    const fallback = {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'everyone' },
      value: 7,
      globalDefault: true,
    };
    expect((await h.request('POST', classes, { body: fallback })).status).toBe(201);
    const unnamed = await h.request('POST', pods(), { body: pod('default-class-pod') });
    expect(unnamed.status, unnamed.text).toBe(201);
    expect(unnamed.body.spec).toMatchObject({ priorityClassName: 'everyone', priority: 7 });
    await h.request('DELETE', `${classes}/everyone`);
  });

  it('RuntimeClass sets the overhead its class defines', async () => {
    const h = hosts.defaults;
    const runtime = {
      apiVersion: 'node.orch.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'kata' },
      handler: 'kata',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    };
    expect((await h.request('POST', '/apis/node.orch.io/v1/runtimeclasses', { body: runtime })).status).toBe(
      201,
    );
    const r = await h.request('POST', pods(), { body: pod('kata-pod', { runtimeClassName: 'kata' }) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
  });
});
