/**
 * The HorizontalPodAutoscaler controller over simulated metrics. The
 * sandbox runs no metrics server: a pod's CPU usage is the quantity in its
 * `sandbox.orch.io/cpu-usage` annotation (the simulation writes it; a
 * learner may too, `kubectl annotate pod … sandbox.orch.io/cpu-usage=900m`),
 * compared with the CPU its containers request. Every 15 s of the server's
 * clock each HPA reads its target's scale and pods (a new or changed HPA
 * too waits for that period, as upstream's queue adds every key a resync
 * period late and keeps the earlier of two waits: an HPA deleted within
 * 15 s of its creation is never synced and records no Event), computes the replicas the CPU metric asks for (`ceil(current ×
 * usage / target)`, unchanged within the 10% tolerance), keeps the highest
 * recommendation of the last five minutes when scaling down, bounds it by
 * min and max, and writes the scale — with the real events
 * (`SuccessfulRescale`) and conditions (`AbleToScale`, `ScalingActive`,
 * `ScalingLimited`) and their reasons. Metrics other than CPU and memory
 * resource metrics are reported as not available in the sandbox.
 */

import type { KubeObject } from '../api/meta';
import { usageAnnotation } from '../api/pod';
import { parseLabelSelector, matchesLabels } from '../machinery/selectors/labels';
import { deepEqual } from '../machinery/json';
import { eventRecorder, type InvolvedKind } from './events';
import { objectKey } from './informer';
import type { SharedInformers } from './shared-informers';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';
import { setCondition, timestamp } from './workload/conditions';
import { message, podsRef } from './workload/pod-control';
import { isPodReady, isTerminating } from './workload/pods';
import { quantityValue } from '../machinery/quantity';
import type { Condition, Pod } from './workload/types';

const hpaRef = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' } as const;
const hpaKind: InvolvedKind = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' };
const syncPeriodMs = 15_000;
const tolerance = 0.1;
const downscaleWindowMs = 5 * 60_000;

interface MetricSpec {
  type: string;
  resource?: { name: string; target: { type: string; averageUtilization?: number; averageValue?: string } };
}

interface HPA extends KubeObject {
  spec?: {
    scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: MetricSpec[];
  };
  status?: {
    conditions?: Condition[];
    lastScaleTime?: string;
    currentReplicas?: number;
    desiredReplicas?: number;
  };
}

const targets: Record<string, { group: string; version: string; resource: string }> = {
  Deployment: { group: 'apps', version: 'v1', resource: 'deployments' },
  ReplicaSet: { group: 'apps', version: 'v1', resource: 'replicasets' },
  StatefulSet: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  ReplicationController: { group: '', version: 'v1', resource: 'replicationcontrollers' },
};

export function horizontalPodAutoscaler(ctx: ControllerContext, informers: SharedInformers): Controller {
  const hpas = informers.informer(hpaRef);
  const pods = informers.informer(podsRef);
  const recorder = eventRecorder(ctx.client, 'horizontal-pod-autoscaler', ctx.now);
  const recommendations = new Map<string, { at: number; replicas: number }[]>();

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([hpas.synced, pods.synced]);
    const [namespace = '', name = ''] = key.split('/');
    const hpa = hpas.get(namespace, name) as HPA | undefined;
    if (hpa === undefined) {
      recommendations.delete(key);
      return;
    }
    const now = ctx.now();
    const stamp = timestamp(now);
    let conditions = hpa.status?.conditions;
    const cond = (type: string, status: Condition['status'], reason: string, msg: string): void => {
      conditions = setCondition(conditions, {
        type,
        status,
        lastTransitionTime: stamp,
        reason,
        message: msg,
      });
    };
    const writeStatus = async (extra: Record<string, unknown>): Promise<void> => {
      const status = { ...extra, conditions };
      if (!deepEqual(status, hpa.status ?? {}))
        await ctx.client.update({ ...hpaRef, namespace, name, subresource: 'status' }, { ...hpa, status });
    };
    const ref = hpa.spec?.scaleTargetRef ?? {};
    const target = targets[ref.kind ?? ''];
    let scale: KubeObject;
    try {
      if (target === undefined)
        throw new Error(`the server could not find the requested resource (kind ${ref.kind ?? ''})`);
      scale = await ctx.client.get({ ...target, namespace, name: ref.name ?? '', subresource: 'scale' });
    } catch (e) {
      const msg = `the HPA controller was unable to get the target's current scale: ${message(e)}`;
      recorder.event(hpaKind, hpa, 'Warning', 'FailedGetScale', message(e));
      cond('AbleToScale', 'False', 'FailedGetScale', msg);
      await writeStatus({
        currentReplicas: hpa.status?.currentReplicas ?? 0,
        desiredReplicas: hpa.status?.desiredReplicas ?? 0,
      });
      return { requeueAfterMs: syncPeriodMs };
    }
    const current = (scale.spec as { replicas?: number } | undefined)?.replicas ?? 0;
    const selectorText = (scale.status as { selector?: string } | undefined)?.selector ?? '';
    const min = hpa.spec?.minReplicas ?? 1;
    const max = hpa.spec?.maxReplicas ?? min;
    const base = { currentReplicas: current, desiredReplicas: hpa.status?.desiredReplicas ?? 0 };
    if (current === 0 && min > 0) {
      cond(
        'ScalingActive',
        'False',
        'ScalingDisabled',
        'scaling is disabled since the replica count of the target is zero',
      );
      await writeStatus({ ...base, desiredReplicas: 0 });
      return { requeueAfterMs: syncPeriodMs };
    }
    const reqs = selectorText !== '' ? parseLabelSelector(selectorText) : [];
    const selected = (pods.inNamespace(namespace) as Pod[]).filter(
      (p) =>
        reqs.length > 0 &&
        matchesLabels(reqs, p.metadata?.labels) &&
        !isTerminating(p) &&
        p.status?.phase !== 'Failed',
    );

    // One proposal per metric; the largest wins, as upstream.
    let proposal = 0;
    const currentMetrics: unknown[] = [];
    let failure: { reason: string; msg: string } | undefined;
    for (const metric of hpa.spec?.metrics ?? []) {
      if (metric.type !== 'Resource' || metric.resource === undefined) {
        failure = {
          reason: 'FailedGetObjectMetric',
          msg: `unable to get metric of type ${metric.type}: the sandbox simulates resource metrics (cpu, memory) only`,
        };
        continue;
      }
      const resource = metric.resource.name;
      const ready = selected.filter((p) => p.status?.phase === 'Running' && isPodReady(p));
      let usage = 0;
      let request = 0;
      let counted = 0;
      let missingRequest: string | undefined;
      for (const p of ready) {
        const u = p.metadata?.annotations?.[usageAnnotation(resource)];
        if (u === undefined) continue;
        counted++;
        usage += quantityValue(u);
        for (const c of p.spec?.containers ?? []) {
          const r = c.resources?.requests?.[resource];
          if (r === undefined)
            missingRequest ??= `missing request for ${resource} in container ${c.name} of Pod ${p.metadata?.name ?? ''}`;
          request += quantityValue(r);
        }
      }
      if (counted === 0) {
        failure = {
          reason: 'FailedGetResourceMetric',
          msg: `failed to get ${resource} utilization: unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`,
        };
        continue;
      }
      const t = metric.resource.target;
      let ratio: number;
      if (t.type === 'Utilization') {
        if (missingRequest !== undefined) {
          failure = {
            reason: 'FailedGetResourceMetric',
            msg: `failed to get ${resource} utilization: ${missingRequest}`,
          };
          continue;
        }
        const utilization = Math.round((usage / request) * 100);
        ratio = utilization / (t.averageUtilization ?? 80);
        currentMetrics.push({
          type: 'Resource',
          resource: {
            name: resource,
            current: {
              averageUtilization: utilization,
              averageValue: formatAverage(resource, usage / counted),
            },
          },
        });
      } else {
        const average = usage / counted;
        ratio = average / quantityValue(t.averageValue);
        currentMetrics.push({
          type: 'Resource',
          resource: { name: resource, current: { averageValue: formatAverage(resource, average) } },
        });
      }
      const replicas = Math.abs(ratio - 1) <= tolerance ? current : Math.ceil(ratio * counted);
      proposal = Math.max(proposal, replicas);
    }
    if (proposal === 0) {
      const f = failure ?? { reason: 'FailedGetResourceMetric', msg: 'no metrics to scale on' };
      recorder.event(hpaKind, hpa, 'Warning', f.reason, f.msg);
      cond(
        'AbleToScale',
        'True',
        'SucceededGetScale',
        "the HPA controller was able to get the target's current scale",
      );
      cond('ScalingActive', 'False', f.reason, `the HPA was unable to compute the replica count: ${f.msg}`);
      await writeStatus({ ...base, ...(currentMetrics.length > 0 ? { currentMetrics } : {}) });
      return { requeueAfterMs: syncPeriodMs };
    }
    // Scale-down stabilization: the highest recommendation of the window.
    const history = (recommendations.get(key) ?? []).filter((r) => r.at > now.getTime() - downscaleWindowMs);
    history.push({ at: now.getTime(), replicas: proposal });
    recommendations.set(key, history);
    let desired =
      proposal < current ? Math.min(current, Math.max(...history.map((r) => r.replicas))) : proposal;
    // Scale-up is limited to max(4 pods, double) per period, as the default behavior.
    desired = Math.min(desired, Math.max(current + 4, current * 2));
    let limited: [string, string] | undefined;
    if (desired < min) {
      desired = min;
      limited = ['TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    } else if (desired > max) {
      desired = max;
      limited = ['TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    }
    cond(
      'ScalingActive',
      'True',
      'ValidMetricFound',
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    );
    if (limited !== undefined) cond('ScalingLimited', 'True', limited[0], limited[1]);
    else
      cond(
        'ScalingLimited',
        'False',
        'DesiredWithinRange',
        'the desired count is within the acceptable range',
      );
    let lastScaleTime = hpa.status?.lastScaleTime;
    if (desired !== current) {
      try {
        await ctx.client.update(
          { ...target, namespace, name: ref.name ?? '', subresource: 'scale' } as never,
          {
            ...scale,
            spec: { replicas: desired },
          },
        );
      } catch (e) {
        recorder.event(
          hpaKind,
          hpa,
          'Warning',
          'FailedRescale',
          `New size: ${desired}; error: ${message(e)}`,
        );
        cond(
          'AbleToScale',
          'False',
          'FailedUpdateScale',
          `the HPA controller was unable to update the target scale: ${message(e)}`,
        );
        await writeStatus({ ...base, currentMetrics });
        throw e;
      }
      const reason =
        desired > current
          ? `${hpa.spec?.metrics?.[0]?.resource?.name ?? 'cpu'} resource utilization (percentage of request) above target`
          : 'All metrics below target';
      recorder.event(hpaKind, hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      cond(
        'AbleToScale',
        'True',
        'SucceededRescale',
        `the HPA controller was able to update the target scale to ${desired}`,
      );
      lastScaleTime = stamp;
    } else cond('AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    await writeStatus({
      ...(lastScaleTime !== undefined ? { lastScaleTime } : {}),
      currentReplicas: current,
      desiredReplicas: desired,
      currentMetrics,
    });
    return { requeueAfterMs: syncPeriodMs };
  };
  const queue = new WorkQueue(reconcile, { clock: ctx.clock });
  hpas.addHandlers({
    add: (h) => queue.addAfter(objectKey(h), syncPeriodMs),
    update: (old, h) => {
      // Our own status writes do not trigger a sync: the period does. A changed spec is seen at the next
      // period's sync (a wait already under way is kept, being the earlier).
      if (!deepEqual(old.spec, h.spec)) queue.addAfter(objectKey(h), syncPeriodMs);
    },
  });

  return {
    name: 'horizontalpodautoscaling',
    start: () => undefined,
    stop: () => queue.stop(),
    idle: async () => {
      await queue.idle();
      await recorder.flush();
    },
  };
}

/** An average usage as the metrics API writes it: CPU in millicores (`250m`), memory in bytes. */
function formatAverage(resource: string, value: number): string {
  return resource === 'cpu' ? `${Math.round(value * 1000)}m` : String(Math.round(value));
}
