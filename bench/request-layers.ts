/**
 * Where a create's time goes in the Node host: 16 creates in flight over
 * HTTPS against the memory store (and etcd where installed), with the V8
 * sampling profiler on, each sample's self time charged to the layer whose
 * source it sits in (TLS and the HTTP server: Node's own internals; then
 * authentication, authorization, admission, audit, field management,
 * validation, storage, the rest of the core). Printed per create in µs,
 * beside the floor: the host's trivial handler (`x-bench-floor: 1`) over the
 * same TLS and HTTP server, profiled the same way, so the TLS and HTTP rows
 * of the two read side by side. The client (undici, in this process) is
 * charged to its own row and left out of the totals. `LAYERS_TOP=n` prints
 * the n functions with the most self time; `LAYERS_CPUPROFILE=dir` writes
 * each run's profile there, for a look at whole stacks (whose code a row's
 * Node-internal time is spent for).
 */

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Agent } from 'undici';
import { startNodeHost, type NodeHostOptions } from '../src/hosts/node/host';
import { etcdSkipReason, startEtcd } from '../test/support/etcd';
import type { Figure } from './report';
import type { KubeObject } from '../src/api/meta';
import type { AuthorizationAttributes } from '../src/auth/authorizer';
import { authorizerIndexes, createAuthorizer } from '../src/auth/authz/index';
import { memoryLister } from '../src/auth/authz/memory-lister';
import { bootstrapPolicy } from '../src/auth/policy/index';
import { namingProfile } from '../src/machinery/naming';

const creates = 1500;
const width = 16;
const path = '/api/v1/namespaces/default/configmaps';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The layer a source URL belongs to; the order matters (first match wins). */
const layers: [string, RegExp][] = [
  ['client (undici, bench)', /node_modules\/undici|\/bench\/|internal\/deps\/undici/],
  ['authentication', /\/src\/auth\/authn\//],
  ['authorization', /\/src\/auth\/(authz|rbac)|\/src\/auth\/authorizer/],
  ['admission', /\/src\/admission\//],
  ['audit', /\/src\/audit\//],
  ['field management', /\/src\/fieldmanager\//],
  ['validation', /\/src\/registry\/validation\/|\/src\/registry\/kinds\/|\/src\/machinery\/field-errors/],
  ['storage', /\/src\/storage\/|\/src\/registry\/watch-cache\/|\/src\/hosts\/node\/etcd\//],
  ['registry (rest of)', /\/src\/registry\//],
  ['HTTP handlers (src/http, server)', /\/src\/http\/|\/src\/server\//],
  ['host adapter (src/hosts/node)', /\/src\/hosts\/node\//],
  ['machinery, api', /\/src\/(machinery|api|cel|auth)\//],
  ['other libraries', /node_modules/],
  ['TLS, sockets, HTTP server (Node)', /^node:|internal\//],
  ['GC, V8, idle-less native', /.*/],
];

function layerOf(url: string, fn: string): string {
  if (url === '' && (fn === '(idle)' || fn === '(program)')) return fn;
  if (url === '' && fn === '(garbage collector)') return 'GC, V8, idle-less native';
  for (const [name, re] of layers) if (re.test(url)) return name;
  return 'GC, V8, idle-less native';
}

/** Self time per layer, µs, from one profile. */
function attribute(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const layer = layerOf(node.callFrame.url, node.callFrame.functionName);
    out.set(layer, (out.get(layer) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}

/**
 * `LAYERS_TOP=n`: per layer (most time first), the n functions with the most self time in it, µs per create,
 * to stderr (for finding what to cut: the Node profile is quiet enough to read function by function).
 */
function printTop(profile: Profile, n: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, { layer: string; us: number }>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}`;
    const entry = self.get(key) ?? { layer: layerOf(frame.url, frame.functionName), us: 0 };
    entry.us += profile.timeDeltas[i] ?? 0;
    self.set(key, entry);
  });
  const byLayer = new Map<string, [string, number][]>();
  for (const [key, { layer, us }] of self) byLayer.set(layer, [...(byLayer.get(layer) ?? []), [key, us]]);
  const total = (rows: [string, number][]) => rows.reduce((sum, [, us]) => sum + us, 0);
  for (const [layer, rows] of [...byLayer].sort((a, b) => total(b[1]) - total(a[1]))) {
    process.stderr.write(`${(total(rows) / creates).toFixed(1).padStart(8)} µs  ${layer}\n`);
    for (const [key, us] of rows.sort((a, b) => b[1] - a[1]).slice(0, n))
      process.stderr.write(`${(us / creates).toFixed(1).padStart(14)} µs  ${key}\n`);
  }
}

export async function profileCreates(
  options: NodeHostOptions,
  headers: Record<string, string>,
): Promise<{ perCreate: Map<string, number>; rate: number }> {
  const host = await startNodeHost({ port: 0, benchFloor: true, ...options });
  const agent = new Agent({ connect: host.caPEM !== undefined ? { ca: host.caPEM } : {} });
  const dispatcher = agent as unknown as RequestInit['dispatcher'];
  const run = async (offset: number, count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < count) {
          const name = `l-${offset + next++}`;
          const response = await fetch(`${host.url}${path}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${host.token}`,
              'content-type': 'application/json',
              ...headers,
            },
            dispatcher,
            body: JSON.stringify({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name, labels: { app: 'bench' } },
              data: { key: name, other: 'x'.repeat(64) },
            }),
          });
          if (response.status !== 201) throw new Error(`create answered ${response.status}`);
          await response.arrayBuffer();
        }
      }),
    );
  };
  const session = new Session();
  try {
    await run(0, 300); // warm-up: JIT, TLS sessions, caches
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const start = performance.now();
    await run(300, creates);
    const rate = (creates / (performance.now() - start)) * 1000;
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    const perCreate = new Map([...attribute(profile)].map(([k, v]) => [k, v / creates]));
    if (process.env['LAYERS_TOP'] !== undefined) printTop(profile, Number(process.env['LAYERS_TOP']) || 40);
    const keep = process.env['LAYERS_CPUPROFILE'];
    if (keep !== undefined) {
      // Self time alone cannot say whose work a Node-internal frame does; the stacks in the file can.
      const file = `${keep}/layers-${options.storage ?? 'memory'}${headers['x-bench-floor'] ? '-floor' : ''}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      process.stderr.write(`profile written to ${file}\n`);
    }
    return { perCreate, rate };
  } finally {
    session.disconnect();
    await agent.close();
    await host.close();
  }
}

function figuresOf(
  section: string,
  figure: { perCreate: Map<string, number>; rate: number },
  floor: { perCreate: Map<string, number>; rate: number },
): Figure[] {
  const names = [...new Set([...figure.perCreate.keys(), ...floor.perCreate.keys()])].sort(
    (a, b) => (figure.perCreate.get(b) ?? 0) - (figure.perCreate.get(a) ?? 0),
  );
  const server = (m: Map<string, number>) =>
    [...m].filter(([k]) => !k.startsWith('client') && k !== '(idle)').reduce((s, [, v]) => s + v, 0);
  return [
    {
      section,
      name: 'creates/s 16 in flight (profiled)',
      value: figure.rate,
      unit: '/s',
      floor: floor.rate,
      floorName: 'trivial handler, same path',
      higherIsBetter: true,
    },
    {
      section,
      name: 'server CPU per create',
      value: server(figure.perCreate),
      unit: 'µs',
      floor: server(floor.perCreate),
      floorName: 'trivial handler, same path',
    },
    ...names.map((name) => ({
      section,
      name: `  ${name}`,
      value: figure.perCreate.get(name) ?? 0,
      unit: 'µs',
      floor: floor.perCreate.get(name) ?? 0,
      floorName: 'trivial handler, same path',
    })),
  ];
}

/**
 * One authorization through Node+RBAC over the bootstrap policy plus 200
 * namespaces' worth of bindings, for a service account bound in its
 * namespace (the walk a controller's or a workload's request takes):
 * evaluated every time, and remembered (rbac.ts) while RBAC is unchanged.
 */
async function rbacDecisionCost(): Promise<Figure[]> {
  const profile = namingProfile('kubernetes');
  const policy = bootstrapPolicy(profile);
  const bindings: KubeObject[] = [...policy.roleBindings.map((r) => r.roleBinding)];
  for (let i = 0; i < 200; i++)
    bindings.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `app-writer-${i}`, namespace: `ns-${i}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'app-writer' },
      subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: `ns-${i}` }],
    } as KubeObject);
  const rbac = {
    roles: memoryLister(policy.roles.map((r) => r.role)),
    clusterRoles: memoryLister([
      ...policy.clusterRoles,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'app-writer' },
        rules: [
          { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: ['*'] },
          { apiGroups: [''], resources: ['pods', 'services', 'secrets'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
        ],
      } as KubeObject,
    ]),
    roleBindings: memoryLister(bindings, authorizerIndexes.rolebindings),
    clusterRoleBindings: memoryLister(policy.clusterRoleBindings, authorizerIndexes.clusterrolebindings),
  };
  const node = { pods: memoryLister([], authorizerIndexes.pods), nodeRules: [] };
  const attributes: AuthorizationAttributes = {
    user: {
      username: 'system:serviceaccount:ns-7:app',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns-7', 'system:authenticated'],
    },
    verb: 'create',
    resourceRequest: true,
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'configmaps',
    subresource: '',
    namespace: 'ns-7',
    name: '',
    path: '/api/v1/namespaces/ns-7/configmaps',
  };
  const time = async (remember: boolean): Promise<number> => {
    const authorizer = createAuthorizer(['Node', 'RBAC'], {
      profile,
      rbac,
      node,
      ...(remember ? { rbacGeneration: () => 0 } : {}),
    });
    const n = 20_000;
    for (let i = 0; i < 2000; i++) await authorizer.authorize(attributes);
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      const r = await authorizer.authorize(attributes);
      if (r.decision !== 'Allow') throw new Error(`expected Allow, got ${r.decision}`);
    }
    return ((performance.now() - start) * 1000) / n;
  };
  const evaluated = await time(false);
  const remembered = await time(true);
  return [
    {
      section: 'authorization per request (service account, 200 namespaces bound)',
      name: 'RBAC decision, remembered',
      value: remembered,
      unit: 'µs',
      floor: evaluated,
      floorName: 'RBAC walk on every request',
    },
  ];
}

export async function runRequestLayersBench(): Promise<Figure[]> {
  const floor = await profileCreates({ storage: 'memory' }, { 'x-bench-floor': '1' });
  const memory = await profileCreates({ storage: 'memory' }, {});
  const figures = [...(await rbacDecisionCost())];
  figures.push(
    ...figuresOf('request path per layer (memory store, 16 in flight, CPU µs per create)', memory, floor),
  );
  const skip = etcdSkipReason();
  if (skip !== undefined) {
    process.stderr.write(`request layers on etcd skipped: ${skip}\n`);
    return figures;
  }
  const etcd = await startEtcd();
  try {
    const onEtcd = await profileCreates({ storage: 'etcd', etcd: { servers: [etcd.url] } }, {});
    figures.push(
      ...figuresOf('request path per layer (etcd store, 16 in flight, CPU µs per create)', onEtcd, floor),
    );
  } finally {
    await etcd.stop();
  }
  return figures;
}
