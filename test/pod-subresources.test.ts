/**
 * The subresources that reach beyond the stored objects, over HTTP against
 * the Node host: pod log, exec, attach, portforward and proxy, node and
 * service proxy (table-driven: path, method, expected status and message),
 * then eviction under PodDisruptionBudgets and binding as scenarios that
 * read back what the writes left behind; last, kubectl's view of logs and
 * exec (skipped, with the reason printed, when kubectl is not installed).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const ns = '/api/v1/namespaces/default';
const policy = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

function podBody(name: string, extra: Record<string, unknown> = {}, labels: Record<string, string> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...extra },
  };
}

let host: TestHost;

async function createPod(
  name: string,
  extra: Record<string, unknown> = {},
  labels: Record<string, string> = {},
) {
  const r = await host.request('POST', `${ns}/pods`, { body: podBody(name, extra, labels) });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** Replaces the pod's status (what a node agent would report). */
async function setStatus(name: string, status: Record<string, unknown>) {
  const current = (await host.request('GET', `${ns}/pods/${name}`)).body;
  const r = await host.request('PUT', `${ns}/pods/${name}/status`, { body: { ...current, status } });
  expect(r.status, r.text).toBe(200);
}

const running = (ready: boolean) => ({
  phase: 'Running',
  conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
});

beforeAll(async () => {
  // These scenarios write Endpoints and budget statuses themselves, playing the endpoint and disruption
  // controllers' part: those controllers are off here (`--controllers=*,-endpoint,-endpointslice,-disruption`).
  host = await startTestHost({ controllerSelection: ['*', '-endpoint', '-endpointslice', '-disruption'] });
  await createPod('idle');
  await createPod('multi', {
    initContainers: [{ name: 'init', image: 'busybox' }],
    containers: [
      { name: 'a', image: 'nginx' },
      { name: 'b', image: 'nginx' },
    ],
  });
  await createPod('placed', { nodeName: 'node-1' });
  await createPod('lost', { nodeName: 'no-such-node' });
  await createPod('unaddressed', { nodeName: 'node-bare' });
  await createPod('web', { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 8080 }] }] });
  await setStatus('web', { phase: 'Running', podIP: '10.1.2.3', podIPs: [{ ip: '10.1.2.3' }] });
  await createPod('local');
  await setStatus('local', { phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] });
  for (const [name, addresses] of [
    ['node-1', [{ type: 'InternalIP', address: '10.0.0.1' }]],
    ['node-bare', []],
    ['node-loop', [{ type: 'InternalIP', address: '127.0.0.1' }]],
  ] as const) {
    const r = await host.request('POST', '/api/v1/nodes', { body: { metadata: { name } } });
    expect(r.status, r.text).toBe(201);
    const s = await host.request('PUT', `/api/v1/nodes/${name}/status`, {
      body: { ...r.body, status: { addresses } },
    });
    expect(s.status, s.text).toBe(200);
  }
  for (const [name, selector] of [
    ['selecting', { app: 'web' }],
    ['headless', undefined],
  ] as const) {
    const r = await host.request('POST', `${ns}/services`, {
      body: { metadata: { name }, spec: { ...(selector ? { selector } : {}), ports: [{ port: 80 }] } },
    });
    expect(r.status, r.text).toBe(201);
  }
});

afterAll(() => host.close());

describe('connect subresources', () => {
  const cases: [string, string, string, number, string | undefined][] = [
    // log
    ['log of a pod with no node', 'GET', `${ns}/pods/idle/log`, 204, undefined],
    [
      'log with a container the pod lacks',
      'GET',
      `${ns}/pods/idle/log?container=nope`,
      400,
      'container nope is not valid for pod idle',
    ],
    ['log of a missing pod', 'GET', `${ns}/pods/missing/log`, 404, 'pods "missing" not found'],
    [
      'log with negative tailLines',
      'GET',
      `${ns}/pods/idle/log?tailLines=-1`,
      422,
      'PodLogOptions "idle" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      'log with limitBytes 0',
      'GET',
      `${ns}/pods/idle/log?limitBytes=0`,
      422,
      'PodLogOptions "idle" is invalid: limitBytes: Invalid value: 0: must be greater than 0',
    ],
    [
      'log with sinceSeconds 0',
      'GET',
      `${ns}/pods/idle/log?sinceSeconds=0`,
      422,
      'PodLogOptions "idle" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0',
    ],
    [
      'log with sinceSeconds and sinceTime',
      'GET',
      `${ns}/pods/idle/log?sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z`,
      422,
      'PodLogOptions "idle" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    ],
    [
      'log with tailLines that is no number',
      'GET',
      `${ns}/pods/idle/log?tailLines=abc`,
      400,
      'strconv.ParseInt: parsing "abc": invalid syntax',
    ],
    [
      'log of a multi-container pod without container',
      'GET',
      `${ns}/pods/multi/log`,
      400,
      'a container name must be specified for pod multi, choose one of: [init a b]',
    ],
    ['log of an init container', 'GET', `${ns}/pods/multi/log?container=init`, 204, undefined],
    [
      'log of a pod on a node with no agent',
      'GET',
      `${ns}/pods/placed/log`,
      400,
      'container "app" in pod "placed" is not available',
    ],
    ['log of a pod on a missing node', 'GET', `${ns}/pods/lost/log`, 404, 'nodes "no-such-node" not found'],
    [
      'log of a pod on a node without addresses',
      'GET',
      `${ns}/pods/unaddressed/log`,
      500,
      'no preferred addresses found; known addresses: []',
    ],
    // exec, attach, portforward
    [
      'exec on a pod with no node',
      'POST',
      `${ns}/pods/idle/exec?command=ls&stdout=true`,
      400,
      'pod idle does not have a host assigned',
    ],
    ['exec without command', 'GET', `${ns}/pods/idle/exec`, 400, 'pod idle does not have a host assigned'],
    ['exec on a missing pod', 'POST', `${ns}/pods/missing/exec?command=ls`, 404, 'pods "missing" not found'],
    [
      'exec in a container the pod lacks',
      'POST',
      `${ns}/pods/idle/exec?command=ls&container=nope`,
      400,
      'container nope is not valid for pod idle',
    ],
    [
      'exec on a pod on a node with no agent',
      'POST',
      `${ns}/pods/placed/exec?command=ls&stdout=1`,
      400,
      'container not found ("app")',
    ],
    [
      'exec with no stream on a placed pod',
      'POST',
      `${ns}/pods/placed/exec?command=ls`,
      400,
      'you must specify at least 1 of stdin, stdout, stderr',
    ],
    [
      'attach on a pod with no node',
      'POST',
      `${ns}/pods/idle/attach?stdout=1`,
      400,
      'pod idle does not have a host assigned',
    ],
    [
      'portforward on a pod with no node',
      'POST',
      `${ns}/pods/idle/portforward?ports=80`,
      400,
      'pod idle does not have a host assigned',
    ],
    [
      'portforward with a bad port',
      'GET',
      `${ns}/pods/idle/portforward?ports=80,abc`,
      400,
      'cannot convert to []int32: strconv.ParseUint: parsing "abc": invalid syntax',
    ],
    [
      'portforward on a placed pod',
      'POST',
      `${ns}/pods/placed/portforward?ports=80`,
      400,
      'pod not found ("placed_default")',
    ],
    ['exec is not served on PUT', 'PUT', `${ns}/pods/idle/exec`, 405, undefined],
    // pod proxy
    ['proxy to a pod without IP', 'GET', `${ns}/pods/idle/proxy`, 400, 'address not allowed'],
    [
      'proxy with a path to a pod without IP',
      'PUT',
      `${ns}/pods/idle/proxy/some/path`,
      400,
      'address not allowed',
    ],
    ['proxy DELETE to a pod without IP', 'DELETE', `${ns}/pods/idle/proxy`, 400, 'address not allowed'],
    ['proxy PATCH to a pod without IP', 'PATCH', `${ns}/pods/idle/proxy`, 400, 'address not allowed'],
    ['proxy to a loopback pod IP', 'GET', `${ns}/pods/local/proxy`, 400, 'address not allowed'],
    ['proxy to a missing pod', 'GET', `${ns}/pods/missing/proxy`, 404, 'pods "missing" not found'],
    ['proxy with a malformed name', 'GET', `${ns}/pods/a:b:c:d/proxy`, 400, 'invalid pod request "a:b:c:d"'],
    [
      'proxy to a pod with an IP',
      'GET',
      `${ns}/pods/web/proxy/healthz`,
      503,
      'error trying to reach service: dial tcp 10.1.2.3:8080: the sandbox has no network to its objects',
    ],
    [
      'proxy to a named port of a pod',
      'GET',
      `${ns}/pods/https:web:443/proxy`,
      503,
      'error trying to reach service: dial tcp 10.1.2.3:443: the sandbox has no network to its objects',
    ],
    // node proxy
    [
      'proxy to a node',
      'GET',
      '/api/v1/nodes/node-1/proxy/healthz',
      503,
      'error trying to reach service: dial tcp 10.0.0.1:10250: the sandbox has no network to its objects',
    ],
    ['proxy to a missing node', 'GET', '/api/v1/nodes/nope/proxy', 404, 'nodes "nope" not found'],
    [
      'proxy to a node without addresses',
      'GET',
      '/api/v1/nodes/node-bare/proxy',
      500,
      'no preferred addresses found; known addresses: []',
    ],
    ['proxy to a loopback node', 'POST', '/api/v1/nodes/node-loop/proxy', 400, 'address not allowed'],
    // service proxy
    [
      'proxy to a service without endpoints',
      'GET',
      `${ns}/services/selecting/proxy/`,
      503,
      'no endpoints available for service "selecting"',
    ],
    [
      'proxy to an undeclared service port',
      'GET',
      `${ns}/services/selecting:81/proxy`,
      503,
      'no service port 81 found for service "selecting"',
    ],
    [
      'proxy to a service without selector or endpoints',
      'GET',
      `${ns}/services/headless/proxy`,
      404,
      'endpoints "headless" not found',
    ],
    ['proxy to a missing service', 'GET', `${ns}/services/nope/proxy`, 404, 'endpoints "nope" not found'],
    [
      'proxy to a malformed service name',
      'GET',
      `${ns}/services/ftp:x:1/proxy`,
      400,
      'invalid service request "ftp:x:1"',
    ],
  ];

  it.each(cases)('%s: %s %s → %i', async (_name, method, path, status, message) => {
    const r = await host.request(method, path);
    expect(r.status, r.text).toBe(status);
    if (status === 204) expect(r.text).toBe('');
    if (message !== undefined) {
      expect(r.body?.kind, r.text).toBe('Status');
      expect(r.body.message).toBe(message);
    }
  });

  it('a service proxy reaches a valid endpoint no further than the sandbox network', async () => {
    const eps = await host.request('POST', `${ns}/endpoints`, {
      body: {
        metadata: { name: 'selecting' },
        subsets: [
          {
            addresses: [{ ip: '10.1.2.3', targetRef: { kind: 'Pod', namespace: 'default', name: 'web' } }],
            ports: [{ port: 8080 }],
          },
        ],
      },
    });
    expect(eps.status, eps.text).toBe(201);
    const r = await host.request('GET', `${ns}/services/selecting/proxy`);
    expect(r.status).toBe(503);
    expect(r.body.message).toBe(
      'error trying to reach service: dial tcp 10.1.2.3:8080: the sandbox has no network to its objects',
    );
    await host.request('DELETE', `${ns}/endpoints/selecting`);
  });
});

describe('eviction', () => {
  const evict = (pod: string, extra: Record<string, unknown> = {}, query = '') =>
    host.request('POST', `${ns}/pods/${pod}/eviction${query}`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod }, ...extra },
    });
  const pdb = async (name: string, selector: unknown, status?: Record<string, unknown>) => {
    const r = await host.request('POST', policy, {
      body: {
        metadata: { name },
        spec: { minAvailable: 1, ...(selector !== undefined ? { selector } : {}) },
      },
    });
    expect(r.status, r.text).toBe(201);
    if (status === undefined) return r.body;
    const s = await host.request('PUT', `${policy}/${name}/status`, { body: { ...r.body, status } });
    expect(s.status, s.text).toBe(200);
    return s.body;
  };
  const gone = async (pod: string) => (await host.request('GET', `${ns}/pods/${pod}`)).status === 404;

  it('deletes a Pending pod whatever its budget says', async () => {
    await createPod('pending-1', {}, { app: 'pend' });
    await pdb('pend-budget', { matchLabels: { app: 'pend' } });
    const r = await evict('pending-1');
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 });
    expect(await gone('pending-1')).toBe(true);
  });

  it('refuses while the disruption controller has not processed the budget (429, DisruptionBudget cause)', async () => {
    await createPod('guarded', {}, { app: 'guard' });
    await setStatus('guarded', running(true));
    await pdb('guard-budget', { matchLabels: { app: 'guard' } });
    const r = await evict('guarded');
    expect(r.status, r.text).toBe(429);
    expect(r.body.reason).toBe('TooManyRequests');
    expect(r.body.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(r.body.details.causes).toEqual([
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget guard-budget is still being processed by the server.',
      },
    ]);
    expect(r.headers.get('retry-after')).toBe('10');
    expect(await gone('guarded')).toBe(false);
  });

  it('refuses when the budget allows no disruption', async () => {
    await createPod('tight', {}, { app: 'tight' });
    await setStatus('tight', running(true));
    await pdb(
      'tight-budget',
      { matchLabels: { app: 'tight' } },
      {
        observedGeneration: 1,
        disruptionsAllowed: 0,
        currentHealthy: 1,
        desiredHealthy: 1,
        expectedPods: 1,
      },
    );
    const r = await evict('tight');
    expect(r.status, r.text).toBe(429);
    expect(r.body.details.causes).toEqual([
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget tight-budget needs 1 healthy pods and has 1 currently',
      },
    ]);
    expect(r.headers.get('retry-after')).toBeNull();
  });

  it('spends a disruption, records the pod, then deletes it; dry run changes nothing', async () => {
    await createPod('loose', {}, { app: 'loose' });
    await setStatus('loose', running(true));
    await pdb(
      'loose-budget',
      { matchLabels: { app: 'loose' } },
      {
        observedGeneration: 1,
        disruptionsAllowed: 1,
        currentHealthy: 2,
        desiredHealthy: 1,
        expectedPods: 2,
      },
    );
    const dry = await evict('loose', {}, '?dryRun=All');
    expect(dry.status, dry.text).toBe(201);
    expect(await gone('loose')).toBe(false);
    expect((await host.request('GET', `${policy}/loose-budget`)).body.status.disruptionsAllowed).toBe(1);
    const bodyDry = await evict('loose', { deleteOptions: { dryRun: ['All'] } });
    expect(bodyDry.status, bodyDry.text).toBe(201);
    expect(await gone('loose')).toBe(false);

    const r = await evict('loose');
    expect(r.status, r.text).toBe(201);
    expect(await gone('loose')).toBe(true);
    const budget = (await host.request('GET', `${policy}/loose-budget`)).body;
    expect(budget.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(budget.status.disruptedPods)).toEqual(['loose']);
    expect(budget.status.conditions).toMatchObject([
      { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', observedGeneration: 1 },
    ]);
  });

  it('lets an unready pod go while the budget keeps its healthy pods', async () => {
    await createPod('sick', {}, { app: 'sick' });
    await setStatus('sick', running(false));
    await pdb(
      'sick-budget',
      { matchLabels: { app: 'sick' } },
      {
        observedGeneration: 1,
        disruptionsAllowed: 0,
        currentHealthy: 2,
        desiredHealthy: 2,
        expectedPods: 3,
      },
    );
    const r = await evict('sick');
    expect(r.status, r.text).toBe(201);
    expect(await gone('sick')).toBe(true);
    expect((await host.request('GET', `${policy}/sick-budget`)).body.status.disruptionsAllowed).toBe(0);
  });

  it('marks a pod that stays terminating as a disruption target', async () => {
    await createPod('slow', { nodeName: 'node-1' }, { app: 'free' });
    await setStatus('slow', running(true));
    const r = await evict('slow');
    expect(r.status, r.text).toBe(201);
    const pod = (await host.request('GET', `${ns}/pods/slow`)).body;
    expect(pod.metadata.deletionTimestamp).toBeDefined();
    expect(pod.status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      }),
    );
  });

  it('refuses a pod that two budgets select; an empty selector selects all, a missing one nothing', async () => {
    await createPod('twice', {}, { team: 'x' });
    await setStatus('twice', running(true));
    await pdb('all-budget', {});
    await pdb('x-budget', { matchLabels: { team: 'x' } });
    await pdb('none-budget', undefined);
    const r = await evict('twice');
    expect(r.status, r.text).toBe(500);
    expect(r.body.message).toBe(
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
    for (const name of ['all-budget', 'x-budget', 'none-budget'])
      await host.request('DELETE', `${policy}/${name}`);
  });

  it('checks the name and the pod', async () => {
    const mismatch = await host.request('POST', `${ns}/pods/idle/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe('name in URL does not match name in Eviction object');
    const missing = await evict('missing');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('pods "missing" not found');
  });
});

describe('binding', () => {
  const bindBody = (pod: string, target: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: pod, ...extra },
    target,
  });

  it('assigns a node once, with the annotations and the PodScheduled condition', async () => {
    await createPod('to-bind');
    const dry = await host.request('POST', `${ns}/pods/to-bind/binding?dryRun=All`, {
      body: bindBody('to-bind', { name: 'node-1' }),
    });
    expect(dry.status, dry.text).toBe(201);
    expect((await host.request('GET', `${ns}/pods/to-bind`)).body.spec.nodeName).toBeUndefined();

    const r = await host.request('POST', `${ns}/pods/to-bind/binding`, {
      body: bindBody('to-bind', { kind: 'Node', name: 'node-1' }, { annotations: { scheduler: 'me' } }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    const pod = (await host.request('GET', `${ns}/pods/to-bind`)).body;
    expect(pod.spec.nodeName).toBe('node-1');
    expect(pod.metadata.annotations).toEqual({ scheduler: 'me' });
    expect(pod.status.conditions).toContainEqual(
      expect.objectContaining({ type: 'PodScheduled', status: 'True' }),
    );

    const again = await host.request('POST', `${ns}/pods/to-bind/binding`, {
      body: bindBody('to-bind', { name: 'node-2' }),
    });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('Conflict');
    expect(again.body.message).toBe(
      'Operation cannot be fulfilled on pods/binding "to-bind": pod to-bind is already assigned to node "node-1"',
    );
  });

  it('binds through the top-level bindings resource too', async () => {
    await createPod('legacy');
    const r = await host.request('POST', `${ns}/bindings`, { body: bindBody('legacy', { name: 'node-1' }) });
    expect(r.status, r.text).toBe(201);
    expect((await host.request('GET', `${ns}/pods/legacy`)).body.spec.nodeName).toBe('node-1');
  });

  const refusals: [string, string, unknown, number, string][] = [
    [
      'a target that is no node',
      'idle',
      bindBody('idle', { kind: 'Pod', name: 'x' }),
      // the real server answers 500; bad input is a 400 here (docs/decisions/0013)
      400,
      'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
    ],
    ['a target without name', 'idle', bindBody('idle', {}), 400, 'target.name: Required value'],
    [
      'a body naming another pod',
      'idle',
      bindBody('other', { name: 'node-1' }),
      400,
      'name in URL does not match name in Binding object',
    ],
    ['a missing pod', 'missing', bindBody('missing', { name: 'node-1' }), 404, 'pods "missing" not found'],
    [
      'a stale uid',
      'idle',
      bindBody('idle', { name: 'node-1' }, { uid: 'not-the-uid' }),
      409,
      'Precondition failed: UID in precondition: not-the-uid',
    ],
  ];
  it.each(refusals)('refuses %s', async (_name, pod, body, status, message) => {
    const r = await host.request('POST', `${ns}/pods/${pod}/binding`, { body });
    expect(r.status, r.text).toBe(status);
    expect(r.body.message).toContain(message);
  });

  it('refuses a gated pod', async () => {
    await createPod('gated', { schedulingGates: [{ name: 'wait' }] });
    const r = await host.request('POST', `${ns}/pods/gated/binding`, {
      body: bindBody('gated', { name: 'node-1' }),
    });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates',
    );
  });
});

const skip = kubectlSkipReason();
describe.skipIf(skip !== undefined)('kubectl', () => {
  it('logs of a pod with no node print nothing and succeed', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'logs', 'idle']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('exec fails with the real message', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'exec', 'idle', '--', 'ls']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('pod idle does not have a host assigned');
  });
});
