/**
 * Per-kind Table rows: ages as short human durations, selectors and labels
 * in selector syntax, the pod status reasons kubectl users rely on, and
 * rows that always carry every column (wide ones included).
 */

import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { formatLabels, formatSelector, humanDuration, selectorString } from './format';
import { printerFor } from './index';

const profile = namingProfile('kubernetes');
const now = new Date('2024-06-01T12:00:00Z');
const ctx = { now, profile };
const created = (secondsAgo: number) =>
  new Date(now.getTime() - secondsAgo * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
const print = (group: string, kind: string, obj: Record<string, unknown>) => {
  const p = printerFor(profile, { group, kind, custom: false });
  if (p === undefined) throw new Error(`no printer for ${kind}`);
  const cells = p.cells(obj, ctx);
  expect(cells).toHaveLength(p.columns.length);
  return Object.fromEntries(p.columns.map((c, i) => [c.name, cells[i]]));
};

describe('durations and selectors', () => {
  it.each([
    [0, '0s'],
    [-1_500, '0s'],
    [-5_000, '<invalid>'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3600_000 + 60_000, '3h1m'],
    [8 * 3600_000, '8h'],
    [50 * 3600_000, '2d2h'],
    [10 * 86400_000, '10d'],
    [800 * 86400_000, '2y70d'],
    [3000 * 86400_000, '8y'],
  ])('%i ms is %s', (ms, text) => expect(humanDuration(ms)).toBe(text));

  it('formats labels and selectors sorted by key', () => {
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(formatLabels({})).toBe('<none>');
    const sel = {
      matchLabels: { tier: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'zz', operator: 'DoesNotExist' },
      ],
    };
    expect(selectorString(sel)).toBe('env in (dev,prod),tier=web,!zz');
    expect(formatSelector(undefined)).toBe('<none>');
  });
});

describe('printers', () => {
  it('pods: readiness, status reason, restarts with the last one', () => {
    const pod = {
      metadata: { name: 'p', creationTimestamp: created(300) },
      spec: {
        containers: [{ name: 'a' }, { name: 'b' }],
        nodeName: 'n1',
        readinessGates: [{ conditionType: 'x' }],
      },
      status: {
        phase: 'Running',
        podIPs: [{ ip: '10.0.0.1' }],
        conditions: [{ type: 'x', status: 'True' }],
        containerStatuses: [
          {
            name: 'a',
            ready: true,
            restartCount: 1,
            state: { running: {} },
            lastState: { terminated: { finishedAt: created(90) } },
          },
          { name: 'b', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    };
    expect(print('', 'Pod', pod)).toEqual({
      Name: 'p',
      Ready: '1/2',
      Status: 'CrashLoopBackOff',
      Restarts: '3 (90s ago)',
      Age: '5m',
      IP: '10.0.0.1',
      Node: 'n1',
      'Nominated Node': '<none>',
      'Readiness Gates': '1/1',
    });
    expect(
      print('', 'Pod', {
        metadata: { name: 'q', deletionTimestamp: created(1) },
        status: { phase: 'Running' },
      }).Status,
    ).toBe('Terminating');
    const init = {
      metadata: { name: 'i' },
      spec: { initContainers: [{}, {}] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [{ state: { terminated: { exitCode: 0 } } }, { state: { running: {} } }],
      },
    };
    expect(print('', 'Pod', init).Status).toBe('Init:1/2');
  });

  it('namespaces, config maps, secrets, services', () => {
    expect(
      print('', 'Namespace', {
        metadata: { name: 'ns', creationTimestamp: created(30) },
        status: { phase: 'Active' },
      }),
    ).toEqual({ Name: 'ns', Status: 'Active', Age: '30s' });
    expect(
      print('', 'ConfigMap', { metadata: { name: 'c' }, data: { a: '1' }, binaryData: { b: '' } }).Data,
    ).toBe(2);
    expect(
      print('', 'Secret', { metadata: { name: 's' }, type: 'Opaque', data: { a: 'eA==' } }),
    ).toMatchObject({ Type: 'Opaque', Data: 1, Age: '<unknown>' });
    const svc = {
      metadata: { name: 's' },
      spec: {
        type: 'LoadBalancer',
        clusterIPs: ['10.96.0.5'],
        ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
        selector: { app: 'x' },
      },
      status: {},
    };
    expect(print('', 'Service', svc)).toMatchObject({
      Type: 'LoadBalancer',
      'Cluster-IP': '10.96.0.5',
      'External-IP': '<pending>',
      'Port(s)': '80:30080/TCP',
      Selector: 'app=x',
    });
  });

  it('deployments, jobs, nodes and suffixed groups', () => {
    const dep = {
      metadata: { name: 'd' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'd' } },
        template: {
          spec: {
            containers: [
              { name: 'c', image: 'nginx' },
              { name: 'e', image: 'envoy' },
            ],
          },
        },
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(print('apps', 'Deployment', dep)).toMatchObject({
      Ready: '2/3',
      'Up-to-date': 3,
      Available: 2,
      Containers: 'c,e',
      Images: 'nginx,envoy',
      Selector: 'app=d',
    });
    const job = {
      metadata: { name: 'j' },
      spec: { parallelism: 3 },
      status: { succeeded: 1, startTime: created(3600), completionTime: created(3000) },
    };
    expect(print('batch', 'Job', job)).toMatchObject({ Completions: '1/1 of 3', Duration: '10m' });
    const node = {
      metadata: { name: 'n', labels: { [profile.subPrefixed('node-role', 'control-plane')]: '' } },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    };
    expect(print('', 'Node', node)).toMatchObject({
      Status: 'NotReady,SchedulingDisabled',
      Roles: 'control-plane',
      'OS-Image': '<unknown>',
    });
    expect(
      print(profile.suffixed('rbac.authorization'), 'RoleBinding', {
        metadata: { name: 'rb' },
        roleRef: { kind: 'Role', name: 'r' },
        subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }],
      }),
    ).toMatchObject({
      Role: 'Role/r',
      ServiceAccounts: 'ns:sa',
    });
    expect(
      print(profile.suffixed('coordination'), 'Lease', {
        metadata: { name: 'l' },
        spec: { holderIdentity: 'me' },
      }).Holder,
    ).toBe('me');
  });

  it('leaves kinds without a printer and custom resources to the default columns', () => {
    expect(
      printerFor(profile, { group: profile.suffixed('rbac.authorization'), kind: 'Role', custom: false }),
    ).toBeUndefined();
    expect(printerFor(profile, { group: '', kind: 'Pod', custom: true })).toBeUndefined();
    expect(
      printerFor(namingProfile('orch'), {
        group: namingProfile('orch').suffixed('coordination'),
        kind: 'Lease',
        custom: false,
      }),
    ).toBeDefined();
  });
});
