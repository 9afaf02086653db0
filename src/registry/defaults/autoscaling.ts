/**
 * autoscaling defaults: an HPA keeps at least one replica; in v2 it targets
 * 80% average CPU when it names no metric, and a behavior that is present
 * is completed with the controller's rules (scale up by 4 pods or 100%
 * every 15 s, at once; scale down by 100% every 15 s, the stabilization
 * window left to the controller's flag).
 */

import { child, empty, maybe, ptr, type Defaulter, type Obj } from './helpers';

const defaultCPUUtilization = 80;

function completeRules(rules: Obj | undefined, defaults: Obj): Obj {
  if (rules === undefined) return defaults;
  const out: Obj = { ...defaults };
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies'])
    if (rules[key] !== undefined && rules[key] !== null) out[key] = rules[key];
  return out;
}

const hpaV2: Defaulter = (obj) => {
  const spec = child(obj, 'spec');
  ptr(spec, 'minReplicas', 1);
  if (empty(spec.metrics)) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } },
      },
    ];
  }
  const behavior = maybe(spec, 'behavior');
  if (behavior === undefined) return;
  behavior.scaleUp = completeRules(maybe(behavior, 'scaleUp'), {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  });
  behavior.scaleDown = completeRules(maybe(behavior, 'scaleDown'), {
    selectPolicy: 'Max',
    policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
  });
};

export const autoscalingDefaults: Record<string, Defaulter> = {
  'api.autoscaling.v1.HorizontalPodAutoscaler': (obj) => ptr(child(obj, 'spec'), 'minReplicas', 1),
  'api.autoscaling.v2.HorizontalPodAutoscaler': hpaV2,
};
