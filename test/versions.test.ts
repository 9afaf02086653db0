/**
 * Resources served in several versions, over real HTTP: an object written
 * through one version reads back through every other without losing
 * information (HorizontalPodAutoscaler autoscaling/v1 ↔ v2, Event core ↔
 * events group, PriorityLevelConfiguration v1beta2 ↔ v1beta3), watches and
 * selectors see the served version, and requests to a deprecated version
 * get the Warning header and the deprecated-API gauge.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('HorizontalPodAutoscaler v1 ↔ v2', () => {
  it('v1 targetCPUUtilizationPercentage is the v2 CPU utilization metric', async () => {
    const c = await host.request('POST', v1, {
      body: {
        metadata: { name: 'h1' },
        spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
      },
    });
    expect(c.status).toBe(201);
    expect(c.body.apiVersion).toBe('autoscaling/v1');
    const r = await host.request('GET', `${v2}/h1`);
    expect(r.body.apiVersion).toBe('autoscaling/v2');
    expect(r.body.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
      },
    ]);
  });

  it('what v1 cannot express survives a round trip through v1 (kept in annotations there)', async () => {
    const metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
      },
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
      },
    ];
    const behavior = { scaleDown: { stabilizationWindowSeconds: 120 } };
    expect(
      (
        await host.request('POST', v2, {
          body: {
            metadata: { name: 'h2' },
            spec: { scaleTargetRef: target, maxReplicas: 9, metrics, behavior },
          },
        })
      ).status,
    ).toBe(201);
    const asV1 = await host.request('GET', `${v1}/h2`);
    expect(asV1.body.spec.targetCPUUtilizationPercentage).toBe(70);
    expect(asV1.body.spec.metrics).toBeUndefined();
    expect(JSON.parse(asV1.body.metadata.annotations['autoscaling.alpha.orch.io/metrics'])).toEqual([
      metrics[1],
    ]);
    // The autoscaling controller writes the status beside this test: a conflict is retried on the latest
    // version, as every client of optimistic concurrency must.
    let latest = asV1;
    let updated = await host.request('PUT', `${v1}/h2`, {
      body: { ...latest.body, spec: { ...latest.body.spec, maxReplicas: 12 } },
    });
    for (let attempt = 1; updated.status === 409 && attempt < 5; attempt++) {
      latest = await host.request('GET', `${v1}/h2`);
      updated = await host.request('PUT', `${v1}/h2`, {
        body: { ...latest.body, spec: { ...latest.body.spec, maxReplicas: 12 } },
      });
    }
    expect(updated.status, updated.text).toBe(200);
    const asV2 = await host.request('GET', `${v2}/h2`);
    expect(asV2.body.spec.maxReplicas).toBe(12);
    expect(asV2.body.spec.metrics).toEqual(metrics);
    // v2 defaulting completes a behavior that is present (scaleUp rules, policies), as the real server does.
    expect(asV2.body.spec.behavior).toMatchObject(behavior);
    expect(asV2.body.metadata.annotations).toBeUndefined();
  });

  it('lists and watches present the requested version', async () => {
    const list = await host.request('GET', v1);
    expect(list.body.kind).toBe('HorizontalPodAutoscalerList');
    expect(list.body.apiVersion).toBe('autoscaling/v1');
    const w = await openWatch(host.url, `${v1}?watch=1&fieldSelector=metadata.name%3Dh2`);
    const [first] = await w.waitFor(1);
    expect(first?.object.apiVersion).toBe('autoscaling/v1');
    expect(first?.object.spec.targetCPUUtilizationPercentage).toBe(70);
    w.abort();
  });
});

describe('Event core v1 ↔ events group v1', () => {
  it('involvedObject/message are regarding/note', async () => {
    const ev = {
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Started',
      message: 'started container',
      type: 'Normal',
      reportingComponent: 'kubelet',
    };
    expect((await host.request('POST', '/api/v1/namespaces/default/events', { body: ev })).status).toBe(201);
    const r = await host.request('GET', '/apis/events.orch.io/v1/namespaces/default/events/e1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      apiVersion: 'events.orch.io/v1',
      kind: 'Event',
      regarding: ev.involvedObject,
      note: 'started container',
      reportingController: 'kubelet',
      reason: 'Started',
    });
    expect(r.body.involvedObject).toBeUndefined();
    const back = await host.request('GET', '/api/v1/namespaces/default/events/e1');
    expect(back.body.message).toBe('started container');
  });
});

describe('flowcontrol v1beta2 (deprecated) ↔ v1beta3', () => {
  const beta2 = '/apis/flowcontrol.apiserver.orch.io/v1beta2/prioritylevelconfigurations';
  const beta3 = '/apis/flowcontrol.apiserver.orch.io/v1beta3/prioritylevelconfigurations';
  it('assuredConcurrencyShares is nominalConcurrencyShares, and v1beta2 requests are warned about', async () => {
    const c = await host.request('POST', beta2, {
      body: {
        metadata: { name: 'plc' },
        spec: {
          type: 'Limited',
          limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } },
        },
      },
    });
    expect(c.status).toBe(201);
    expect(c.headers.get('warning')).toBe(
      '299 - "flowcontrol.apiserver.orch.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.orch.io/v1beta3 PriorityLevelConfiguration"',
    );
    const r = await host.request('GET', `${beta3}/plc`);
    expect(r.body.spec.limited.nominalConcurrencyShares).toBe(7);
    expect(r.body.spec.limited.assuredConcurrencyShares).toBeUndefined();
    expect(r.headers.get('warning')).toBeNull();
    const m = await host.request('GET', '/metrics');
    expect(m.text).toContain(
      'apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.orch.io",removed_release="1.29",resource="prioritylevelconfigurations",subresource="",version="v1beta2"} 1',
    );
  });
});
