/**
 * HorizontalPodAutoscaler autoscaling/v1 ↔ autoscaling/v2 (the hub), as the
 * real server converts it: v1's targetCPUUtilizationPercentage is v2's CPU
 * utilization metric; what v1 cannot express (other metrics, behavior,
 * conditions, current metrics) travels in annotations so that a round trip
 * through v1 loses nothing. A v1 object without a target gets v2's default
 * metric (80% average CPU) on its way to the hub: the real server stores
 * it without metrics and applies the storage version's defaults when it
 * reads it back, so every reader — v1 and v2 alike — sees the 80%.
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import { deepClone } from '../../machinery/json';
import type { Spoke } from '../conversion';

type Obj = Record<string, unknown>;

/** `autoscaling.DefaultCPUUtilization`, the target of an HPA that names none. */
const defaultCPUUtilization = 80;

function isCpuUtilization(m: Obj): boolean {
  const r = m.resource as Obj | undefined;
  const t = r?.target as Obj | undefined;
  return m.type === 'Resource' && r?.name === 'cpu' && t?.type === 'Utilization';
}

function annotations(obj: KubeObject): Record<string, string> {
  const meta = obj.metadata ?? (obj.metadata = {});
  return (meta.annotations ??= {});
}

export function autoscalingV1Spoke(profile: NamingProfile): Spoke {
  const note = (name: string) => profile.subPrefixed('autoscaling.alpha', name);
  const keys = {
    metrics: note('metrics'),
    behavior: note('behavior'),
    conditions: note('conditions'),
    currentMetrics: note('current-metrics'),
  };
  return {
    apiVersion: 'autoscaling/v1',
    fromHub(hub) {
      const obj = deepClone(hub);
      const spec = (obj.spec ?? {}) as Obj;
      const status = obj.status as Obj | undefined;
      const metrics = (spec.metrics as Obj[] | undefined) ?? [];
      const cpu = metrics.find(isCpuUtilization);
      const others = metrics.filter((m) => m !== cpu);
      const v1spec: Obj = {
        scaleTargetRef: spec.scaleTargetRef,
        minReplicas: spec.minReplicas,
        maxReplicas: spec.maxReplicas,
      };
      const target = ((cpu?.resource as Obj | undefined)?.target as Obj | undefined)?.averageUtilization;
      if (typeof target === 'number') v1spec.targetCPUUtilizationPercentage = target;
      if (others.length > 0) annotations(obj)[keys.metrics] = JSON.stringify(others);
      if (spec.behavior !== undefined) annotations(obj)[keys.behavior] = JSON.stringify(spec.behavior);
      obj.spec = Object.fromEntries(Object.entries(v1spec).filter(([, v]) => v !== undefined));
      if (status !== undefined) {
        const current = (status.currentMetrics as Obj[] | undefined) ?? [];
        const cpuNow = current.find(
          (m) => m.type === 'Resource' && (m.resource as Obj | undefined)?.name === 'cpu',
        );
        const v1status: Obj = {
          observedGeneration: status.observedGeneration,
          lastScaleTime: status.lastScaleTime,
          // Plain int32s in v1's Go type (no omitempty): a v1 reader always sees them, zero included.
          currentReplicas: status.currentReplicas ?? 0,
          desiredReplicas: status.desiredReplicas ?? 0,
        };
        const util = ((cpuNow?.resource as Obj | undefined)?.current as Obj | undefined)?.averageUtilization;
        if (typeof util === 'number') v1status.currentCPUUtilizationPercentage = util;
        if (status.conditions !== undefined)
          annotations(obj)[keys.conditions] = JSON.stringify(status.conditions);
        if (current.length > 0) annotations(obj)[keys.currentMetrics] = JSON.stringify(current);
        obj.status = Object.fromEntries(Object.entries(v1status).filter(([, v]) => v !== undefined));
      }
      return obj;
    },
    toHub(v1) {
      const obj = deepClone(v1);
      const spec = (obj.spec ?? {}) as Obj;
      const notes = obj.metadata?.annotations ?? {};
      const take = (key: string): unknown => {
        const text = notes[key];
        delete notes[key];
        if (text === undefined) return undefined;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return undefined;
        }
      };
      const metrics: Obj[] = [];
      if (typeof spec.targetCPUUtilizationPercentage === 'number')
        metrics.push({
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
          },
        });
      const extra = take(keys.metrics);
      if (Array.isArray(extra)) metrics.push(...(extra as Obj[]));
      const v2spec: Obj = {
        scaleTargetRef: spec.scaleTargetRef,
        minReplicas: spec.minReplicas,
        maxReplicas: spec.maxReplicas,
      };
      if (metrics.length === 0)
        metrics.push({
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: defaultCPUUtilization },
          },
        });
      v2spec.metrics = metrics;
      const behavior = take(keys.behavior);
      if (behavior !== undefined) v2spec.behavior = behavior;
      obj.spec = Object.fromEntries(Object.entries(v2spec).filter(([, v]) => v !== undefined));
      const status = obj.status as Obj | undefined;
      const conditions = take(keys.conditions);
      const currentMetrics = take(keys.currentMetrics);
      if (status !== undefined) {
        const { currentCPUUtilizationPercentage, ...rest } = status;
        const v2status: Obj = { ...rest };
        if (Array.isArray(currentMetrics)) v2status.currentMetrics = currentMetrics;
        else if (typeof currentCPUUtilizationPercentage === 'number')
          v2status.currentMetrics = [
            {
              type: 'Resource',
              resource: { name: 'cpu', current: { averageUtilization: currentCPUUtilizationPercentage } },
            },
          ];
        if (conditions !== undefined) v2status.conditions = conditions;
        obj.status = v2status;
      }
      if (obj.metadata !== undefined && Object.keys(notes).length === 0) delete obj.metadata.annotations;
      return obj;
    },
  };
}
