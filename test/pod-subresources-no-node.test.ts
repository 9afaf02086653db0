/**
 * Pod log, exec, attach, portforward and proxy, and the service and node
 * proxies, when no node agent can serve them — the answers a real v1.27
 * server gives (table-driven over HTTP, kubernetes profile): what the
 * options, the pod, its containers and its node decide before anything
 * would be dialled; which verb each method is authorized as; and kubectl's
 * view of `logs`, `exec` and `port-forward` (skipped, with the reason
 * printed, when kubectl is not installed).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { kubectl, kubectlSkipReason } from './support/kubectl';

const ns = '/api/v1/namespaces/default';
let host: TestHost;

async function must(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await host.request(method, path, { body });
  expect(r.status, r.text).toBeLessThan(300);
  return r.body as Record<string, unknown>;
}

async function pod(name: string, spec: Record<string, unknown>, status?: Record<string, unknown>) {
  const created = await must('POST', `${ns}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec,
  });
  if (status !== undefined) await must('PUT', `${ns}/pods/${name}/status`, { ...created, status });
}

async function node(name: string, addresses: { type: string; address: string }[]) {
  const created = await must('POST', '/api/v1/nodes', { metadata: { name } });
  await must('PUT', `/api/v1/nodes/${name}/status`, { ...created, status: { addresses } });
}

const one = { containers: [{ name: 'app', image: 'nginx' }] };

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
  await pod('p', one);
  await pod('two', {
    initContainers: [{ name: 'setup', image: 'busybox' }],
    containers: [
      { name: 'a', image: 'nginx' },
      { name: 'b', image: 'nginx' },
    ],
  });
  await pod('running', one, { phase: 'Running' });
  await pod(
    'ip',
    { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] },
    {
      phase: 'Running',
      podIP: '10.244.0.7',
      podIPs: [{ ip: '10.244.0.7' }],
    },
  );
  await pod('ip-zero-net', one, { podIP: '0.1.2.3', podIPs: [{ ip: '0.1.2.3' }] });
  await pod('ip-link-local', one, { podIP: '169.254.1.1', podIPs: [{ ip: '169.254.1.1' }] });
  await pod('ip-multicast', one, { podIP: '224.0.0.1', podIPs: [{ ip: '224.0.0.1' }] });
  await pod('on-bare', { ...one, nodeName: 'bare' });
  await node('bare', []);
  await node('known', [
    { type: 'InternalIP', address: '10.0.0.5' },
    { type: 'ExternalIP', address: '203.0.113.5' },
  ]);
  await node('link-local', [{ type: 'InternalIP', address: '169.254.0.9' }]);
  await must('POST', `${ns}/services`, {
    metadata: { name: 'x' },
    spec: { selector: { app: 'x' }, ports: [{ port: 80 }] },
  });
  // alice may only read pods/exec and pods/log: a POST exec is a `create`, a GET exec a `get`.
  await must('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
    metadata: { name: 'exec-reader' },
    rules: [{ apiGroups: [''], resources: ['pods/exec', 'pods/log', 'pods/portforward'], verbs: ['get'] }],
  });
  await must('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
    metadata: { name: 'exec-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'exec-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
  });
});

afterAll(() => host.close());

type Row = [name: string, method: string, path: string, status: number, message: string | undefined];

describe('without a node agent', () => {
  const rows: Row[] = [
    // log: nothing to show until a node runs the pod
    ['log of a pod with no node', 'GET', `${ns}/pods/p/log`, 204, undefined],
    ['previous log of a pod with no node', 'GET', `${ns}/pods/p/log?previous=true`, 204, undefined],
    [
      'followed log of a pod with no node',
      'GET',
      `${ns}/pods/p/log?follow=true&tailLines=10`,
      204,
      undefined,
    ],
    ['log of a named container', 'GET', `${ns}/pods/two/log?container=b`, 204, undefined],
    [
      'log of a container the pod lacks',
      'GET',
      `${ns}/pods/p/log?container=nope`,
      400,
      'container nope is not valid for pod p',
    ],
    ['log of a missing pod', 'GET', `${ns}/pods/gone/log`, 404, 'pods "gone" not found'],
    [
      'log of a multi-container pod without container',
      'GET',
      `${ns}/pods/two/log`,
      400,
      'a container name must be specified for pod two, choose one of: [setup a b]',
    ],
    [
      'log with negative tailLines',
      'GET',
      `${ns}/pods/p/log?tailLines=-3`,
      422,
      'PodLogOptions "p" is invalid: tailLines: Invalid value: -3: must be greater than or equal to 0',
    ],
    [
      'log with limitBytes 0',
      'GET',
      `${ns}/pods/p/log?limitBytes=0`,
      422,
      'PodLogOptions "p" is invalid: limitBytes: Invalid value: 0: must be greater than 0',
    ],
    [
      'log with negative sinceSeconds',
      'GET',
      `${ns}/pods/p/log?sinceSeconds=-1`,
      422,
      'PodLogOptions "p" is invalid: sinceSeconds: Invalid value: -1: must be greater than 0',
    ],
    [
      'log with limitBytes that is no number',
      'GET',
      `${ns}/pods/p/log?limitBytes=lots`,
      400,
      'strconv.ParseInt: parsing "lots": invalid syntax',
    ],
    ['log answers GET only', 'POST', `${ns}/pods/p/log`, 405, undefined],
    // exec, attach, portforward: the container is checked, then the host
    [
      'exec (POST)',
      'POST',
      `${ns}/pods/p/exec?command=ls&stdout=true`,
      400,
      'pod p does not have a host assigned',
    ],
    [
      'exec (GET)',
      'GET',
      `${ns}/pods/p/exec?command=ls&stdout=true`,
      400,
      'pod p does not have a host assigned',
    ],
    [
      'exec in a multi-container pod without container',
      'POST',
      `${ns}/pods/two/exec?command=ls&stdout=true`,
      400,
      'a container name must be specified for pod two, choose one of: [setup a b]',
    ],
    [
      'exec in a missing container',
      'POST',
      `${ns}/pods/p/exec?command=ls&container=c`,
      400,
      'container c is not valid for pod p',
    ],
    ['exec on a missing pod', 'POST', `${ns}/pods/gone/exec?command=ls`, 404, 'pods "gone" not found'],
    ['attach (POST)', 'POST', `${ns}/pods/p/attach?stdout=true`, 400, 'pod p does not have a host assigned'],
    ['attach (GET)', 'GET', `${ns}/pods/p/attach?stdout=true`, 400, 'pod p does not have a host assigned'],
    [
      'portforward (POST)',
      'POST',
      `${ns}/pods/p/portforward?ports=8080`,
      400,
      'pod p does not have a host assigned',
    ],
    ['portforward (GET)', 'GET', `${ns}/pods/two/portforward`, 400, 'pod two does not have a host assigned'],
    // the node of a scheduled pod: found, but with no address to dial (the real server's 500)
    [
      'exec on a node without addresses',
      'POST',
      `${ns}/pods/on-bare/exec?command=ls`,
      500,
      'no preferred addresses found; known addresses: []',
    ],
    // pod proxy: an address must be global unicast
    ['proxy to a pod without IP', 'GET', `${ns}/pods/p/proxy/`, 400, 'address not allowed'],
    ['proxy to a link-local pod IP', 'GET', `${ns}/pods/ip-link-local/proxy`, 400, 'address not allowed'],
    ['proxy to a multicast pod IP', 'GET', `${ns}/pods/ip-multicast/proxy`, 400, 'address not allowed'],
    [
      'proxy to a pod IP in 0/8 (global unicast to Go)',
      'GET',
      `${ns}/pods/ip-zero-net/proxy`,
      503,
      'error trying to reach service: dial tcp 0.1.2.3: the sandbox has no network to its objects',
    ],
    [
      'proxy to a pod with an IP it cannot reach',
      'GET',
      `${ns}/pods/ip/proxy/index.html`,
      503,
      'error trying to reach service: dial tcp 10.244.0.7:80: the sandbox has no network to its objects',
    ],
    ['proxy to a missing pod', 'GET', `${ns}/pods/gone/proxy`, 404, 'pods "gone" not found'],
    // service proxy
    [
      'proxy to a service with no endpoints',
      'GET',
      `${ns}/services/x/proxy/`,
      503,
      'no endpoints available for service "x"',
    ],
    [
      'proxy to a named service port with no endpoints',
      'GET',
      `${ns}/services/http:x:80/proxy`,
      503,
      'no endpoints available for service "x"',
    ],
    ['proxy to a missing service', 'GET', `${ns}/services/gone/proxy`, 404, 'endpoints "gone" not found'],
    // node proxy
    [
      'proxy to a node without addresses',
      'GET',
      '/api/v1/nodes/bare/proxy/',
      500,
      'no preferred addresses found; known addresses: []',
    ],
    ['proxy to a link-local node', 'GET', '/api/v1/nodes/link-local/proxy', 400, 'address not allowed'],
    [
      'proxy to a node at its kubelet port',
      'GET',
      '/api/v1/nodes/known/proxy/pods',
      503,
      'error trying to reach service: dial tcp 10.0.0.5:10250: the sandbox has no network to its objects',
    ],
    [
      'proxy to another port of a node',
      'GET',
      '/api/v1/nodes/https:known:9100/proxy/metrics',
      503,
      'error trying to reach service: dial tcp 10.0.0.5:9100: the sandbox has no network to its objects',
    ],
    ['proxy to a missing node', 'GET', '/api/v1/nodes/gone/proxy', 404, 'nodes "gone" not found'],
  ];

  it.each(rows)('%s: %s %s → %i', async (_name, method, path, status, message) => {
    const r = await host.request(method, path);
    expect(r.status, r.text).toBe(status);
    if (status === 204) {
      expect(r.text).toBe('');
      return;
    }
    expect(r.body?.kind, r.text).toBe('Status');
    if (message !== undefined) expect(r.body.message).toBe(message);
    // A plain error is a 500 with no reason, as the real server reports it.
    if (status === 500) expect(r.body.reason).toBeUndefined();
  });
});

describe('authorization of the connect verbs', () => {
  const rows: Row[] = [
    [
      'GET exec is a get',
      'GET',
      `${ns}/pods/p/exec?command=ls&stdout=1`,
      400,
      'pod p does not have a host assigned',
    ],
    [
      'POST exec is a create',
      'POST',
      `${ns}/pods/p/exec?command=ls&stdout=1`,
      403,
      'pods "p" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"',
    ],
    [
      'POST portforward is a create',
      'POST',
      `${ns}/pods/p/portforward?ports=80`,
      403,
      'pods "p" is forbidden: User "alice" cannot create resource "pods/portforward" in API group "" in the namespace "default"',
    ],
    [
      'attach is not granted at all',
      'GET',
      `${ns}/pods/p/attach?stdout=1`,
      403,
      'pods "p" is forbidden: User "alice" cannot get resource "pods/attach" in API group "" in the namespace "default"',
    ],
    ['log is a get', 'GET', `${ns}/pods/p/log`, 204, undefined],
  ];

  it.each(rows)('%s: %s %s → %i', async (_name, method, path, status, message) => {
    const r = await host.request(method, path, { as: 'alice' });
    expect(r.status, r.text).toBe(status);
    if (message !== undefined) expect(r.body.message).toBe(message);
  });
});

const skip = kubectlSkipReason();
if (skip !== undefined) console.log(`SKIP kubectl part of pod-subresources-no-node: ${skip}`);
describe.skipIf(skip !== undefined)('kubectl', () => {
  it('logs of a pod with no node print nothing and succeed', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'logs', 'p']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('logs of a multi-container pod: kubectl picks the first container itself, and prints nothing', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'logs', 'two']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Defaulted container "a" out of: a, b, setup (init)');
  });

  it('exec prints the real error, not JSON', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'exec', 'p', '--', 'ls']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('pod p does not have a host assigned');
    expect(r.stderr).not.toContain('"kind"');
  });

  it('port-forward to a pod that is not running stops before asking the server', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'port-forward', 'pod/p', '0:80']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('unable to forward port because pod is not running. Current status=Pending');
  });

  it('port-forward to a running pod with no node prints the real error', async () => {
    const r = await kubectl(host.kubeconfigPath, ['-n', 'default', 'port-forward', 'pod/running', '0:80']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('pod running does not have a host assigned');
    expect(r.stderr).not.toContain('"kind"');
  });
});
