/**
 * Priority: resolves a new pod's `priorityClassName` into `spec.priority`
 * and `spec.preemptionPolicy` (the global default class when the pod names
 * none, priority 0 and PreemptLowerPriority when there is no default),
 * refusing a class that does not exist or a pod that states a different
 * priority or policy itself; on update it carries the stored values over.
 * Its validating half keeps a second PriorityClass from becoming the
 * global default. The two system classes resolve even before the server has
 * stored them, as the real server always has them (it creates them at start).
 */

import type { KubeObject } from '../../api/meta';
import type { Lister } from '../../machinery/lister';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { clonePod, isNotPod, podSpecOf } from './support/pod-shape';

interface PriorityClassShape extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

/** The classes the real server creates at start (`SystemPriorityClasses`). */
const systemClasses: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

const preemptLowerPriority = 'PreemptLowerPriority';

interface Resolved {
  name: string;
  value: number;
  preemptionPolicy: string | undefined;
}

/** The global default class; of several (a race), the lowest value, as the real plugin picks. */
function defaultClass(lister: Lister): PriorityClassShape | undefined {
  let found: PriorityClassShape | undefined;
  for (const pc of lister.list() as PriorityClassShape[]) {
    if (pc.globalDefault !== true) continue;
    if (found === undefined || (found.value ?? 0) > (pc.value ?? 0)) found = pc;
  }
  return found;
}

function resolveNamed(lister: Lister, name: string): Resolved | undefined {
  const pc = lister.get('', name) as PriorityClassShape | undefined;
  if (pc !== undefined) return { name, value: pc.value ?? 0, preemptionPolicy: pc.preemptionPolicy };
  const system = systemClasses[name];
  if (system !== undefined) return { name, value: system, preemptionPolicy: preemptLowerPriority };
  return undefined;
}

export const priority: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('scheduling');
  const lister = deps.lister(group, 'priorityclasses');

  function resolve(a: AdmissionAttributes, className: string): Resolved {
    if (className === '') {
      const dpc = defaultClass(lister);
      if (dpc !== undefined)
        return {
          name: dpc.metadata?.name ?? '',
          value: dpc.value ?? 0,
          preemptionPolicy: dpc.preemptionPolicy,
        };
      return { name: '', value: 0, preemptionPolicy: preemptLowerPriority };
    }
    const found = resolveNamed(lister, className);
    if (found === undefined) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
    return found;
  }

  async function admitPod(a: AdmissionAttributes): Promise<KubeObject | undefined> {
    if (a.object === undefined) return undefined;
    const spec = podSpecOf(a.object);
    if (a.operation === 'UPDATE') {
      // Validation forbids changing these; an update that omits them keeps the stored ones.
      const old = podSpecOf(a.oldObject);
      const keepPriority = spec.priority === undefined && old.priority !== undefined;
      const keepPolicy = spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined;
      if (!keepPriority && !keepPolicy) return undefined;
      const pod = clonePod(a.object);
      if (keepPriority) pod.spec.priority = old.priority;
      if (keepPolicy) pod.spec.preemptionPolicy = old.preemptionPolicy;
      return pod;
    }
    await deps.listersSynced();
    const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
    const resolved = resolve(a, className);
    if (typeof spec.priority === 'number' && spec.priority !== resolved.value) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`,
      );
    }
    const policy = resolved.preemptionPolicy;
    if (
      policy !== undefined &&
      typeof spec.preemptionPolicy === 'string' &&
      spec.preemptionPolicy !== policy
    ) {
      throw admissionForbidden(
        a,
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    const setsClass = className === '' && resolved.name !== '';
    const setsPolicy = policy !== undefined && spec.preemptionPolicy !== policy;
    if (!setsClass && !setsPolicy && spec.priority === resolved.value) return undefined;
    const pod = clonePod(a.object);
    if (setsClass) pod.spec.priorityClassName = resolved.name;
    pod.spec.priority = resolved.value;
    if (policy !== undefined) pod.spec.preemptionPolicy = policy;
    return pod;
  }

  return {
    name: 'Priority',
    operations: ['CREATE', 'UPDATE'],
    admit(a) {
      if (isNotPod(a)) return Promise.resolve(undefined);
      return admitPod(a);
    },
    async validate(a) {
      if (a.group !== group || a.resource !== 'priorityclasses' || a.subresource !== '') return;
      const pc = a.object as PriorityClassShape | undefined;
      if (pc?.globalDefault !== true) return;
      await deps.listersSynced();
      const dpc = defaultClass(lister);
      if (dpc === undefined) return;
      const dpcName = dpc.metadata?.name ?? '';
      if (a.operation === 'CREATE' || dpcName !== (pc.metadata?.name ?? '')) {
        throw admissionForbidden(
          a,
          `PriorityClass ${dpcName} is already marked as default. Only one default can exist`,
        );
      }
    },
  };
};
