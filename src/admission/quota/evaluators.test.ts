/** Quota evaluators: what objects use, the per-container constraint text, scopes, and the recount. */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import { quotaEvaluators } from './evaluators';
import { toWire } from '../../machinery/quantity';
import { recount } from './usage';

const now = new Date('2026-01-01T00:00:00Z');

function pod(containers: unknown[], extra: Record<string, unknown> = {}, status?: unknown): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: 'ns' },
    spec: { containers, ...extra },
    ...(status !== undefined ? { status } : {}),
  };
}

const evaluators = quotaEvaluators({ groupSuffix: 'orch.io', labelDomain: 'orch.io' });
const { evaluatorFor } = evaluators;
const podEval = evaluatorFor('', 'pods');

describe('pod evaluator', () => {
  it('charges requests and limits, init containers as a maximum, and the overhead', () => {
    const p = pod(
      [
        { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } } },
        { name: 'b', resources: { requests: { cpu: '100m' } } },
      ],
      { initContainers: [{ name: 'i', resources: { requests: { cpu: '500m' } } }], overhead: { cpu: '10m' } },
    );
    expect(toWire(podEval.usage(p, now))).toEqual({
      'count/pods': '1',
      cpu: '510m',
      'limits.cpu': '210m',
      memory: '64Mi',
      pods: '1',
      'requests.cpu': '510m',
      'requests.memory': '64Mi',
    });
  });

  it('stops charging compute once the pod has finished', () => {
    const p = pod([{ name: 'a', resources: { requests: { cpu: '1' } } }], {}, { phase: 'Succeeded' });
    expect(toWire(podEval.usage(p, now))).toEqual({ 'count/pods': '1' });
  });

  it('names each missing resource with its containers', () => {
    const p = pod([{ name: 'b', resources: { requests: { cpu: '1' } } }, { name: 'a' }]);
    expect(podEval.constraints(['limits.cpu', 'requests.cpu', 'pods'], p)).toBe(
      'must specify limits.cpu for: a,b; requests.cpu for: a',
    );
    expect(podEval.constraints(['pods', 'requests.storage'], p)).toBeUndefined();
  });

  it.each([
    ['BestEffort', pod([{ name: 'a' }]), true],
    ['BestEffort', pod([{ name: 'a', resources: { limits: { memory: '1Gi' } } }]), false],
    ['NotBestEffort', pod([{ name: 'a', resources: { limits: { memory: '1Gi' } } }]), true],
    ['Terminating', pod([{ name: 'a' }], { activeDeadlineSeconds: 60 }), true],
    ['NotTerminating', pod([{ name: 'a' }], { activeDeadlineSeconds: 60 }), false],
  ])('scope %s', (scopeName, p, want) => {
    expect(podEval.matchesScope({ scopeName, operator: 'Exists' }, p)).toBe(want);
  });

  it('matches a PriorityClass scope selector', () => {
    const p = pod([{ name: 'a' }], { priorityClassName: 'high' });
    expect(podEval.matchesScope({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }, p)).toBe(
      true,
    );
    expect(podEval.matchesScope({ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }, p)).toBe(
      false,
    );
  });
});

describe('other evaluators', () => {
  it('counts node ports and load balancers of services', () => {
    const svc: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] },
    };
    expect(toWire(evaluatorFor('', 'services').usage(svc, now))).toMatchObject({
      services: '1',
      'services.loadbalancers': '1',
      'services.nodeports': '2',
    });
  });

  it('counts any resource by count/<resource>.<group> and never matches a scope', () => {
    const e = evaluatorFor('apps', 'deployments');
    expect(e.matchingResources(['count/deployments.apps', 'pods'])).toEqual(['count/deployments.apps']);
    expect(
      e.matchesScope(
        { scopeName: 'BestEffort', operator: 'Exists' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ),
    ).toBe(false);
  });
});

describe('profile names', () => {
  it('charges claims per storage class under the profile suffix, and extended resources outside its domain', () => {
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } },
    };
    expect(toWire(evaluatorFor('', 'persistentvolumeclaims').usage(claim, now))).toMatchObject({
      'gold.storageclass.storage.orch.io/persistentvolumeclaims': '1',
      'gold.storageclass.storage.orch.io/requests.storage': '1Gi',
      'requests.storage': '1Gi',
    });
    const p = pod([
      { name: 'a', resources: { requests: { 'example.com/gpu': '2', 'orch.io/native': '1' } } },
    ]);
    const used = toWire(podEval.usage(p, now));
    expect(used['requests.example.com/gpu']).toBe('2');
    expect(used['requests.orch.io/native']).toBeUndefined();
    expect(podEval.matchingResources(['requests.example.com/gpu', 'requests.orch.io/x'])).toEqual([
      'requests.example.com/gpu',
    ]);
  });
});

describe('recount', () => {
  it('charges only objects in every scope of the quota, zero for unused names', () => {
    const quota: KubeObject = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      spec: { hard: { pods: '5', 'count/configmaps': '2' }, scopes: ['BestEffort'] },
    };
    const pods = [pod([{ name: 'c' }]), pod([{ name: 'c', resources: { requests: { cpu: '1' } } }])];
    const used = recount(
      evaluators,
      quota,
      'ns',
      (group, resource) => (resource === 'pods' ? pods : []),
      now,
    );
    expect(toWire(used)).toEqual({ 'count/configmaps': '0', pods: '1' });
  });
});
