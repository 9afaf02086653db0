/**
 * DaemonSet: the real validation of its selector and template (a selector
 * that matches the template's labels, cannot be empty and cannot change;
 * pods that restart `Always`), and its template generation: the
 * `deprecated.daemonset.template.generation` annotation, 1 at creation and
 * one more at each change of the template (apps/v1 carries the internal
 * `templateGeneration` there; the server owns it).
 */

import type { KubeObject } from '../../../../api/meta';
import { deepEqual } from '../../../../machinery/json';
import type { KindHooks } from '../../../rest/strategy';
import { withWorkloadChecks } from '../../../validation/workload-checks';
import type { KindRegistration } from '../../types';

const rules = { kindWord: 'daemonset', kindName: 'DaemonSet' };

const generationKey = 'deprecated.daemonset.template.generation';

function setGeneration(obj: KubeObject, generation: number): void {
  const m = (obj.metadata ??= {});
  m.annotations = { ...m.annotations, [generationKey]: String(generation) };
}

const hooks: KindHooks = {
  prepareForCreate: (obj) => setGeneration(obj, 1),
  prepareForUpdate(obj, old) {
    const before = Number(old.metadata?.annotations?.[generationKey] ?? '1');
    const template = (o: KubeObject) => (o.spec as { template?: unknown } | undefined)?.template;
    const base = Number.isInteger(before) && before > 0 ? before : 1;
    setGeneration(obj, deepEqual(template(obj), template(old)) ? base : base + 1);
  },
  validateAsync: withWorkloadChecks((checks, obj, old) =>
    old === undefined
      ? checks.selectorAndTemplateErrors(obj, rules)
      : [...checks.selectorAndTemplateErrors(obj, rules), ...checks.immutableSelectorErrors(obj, old)],
  ),
};

export const daemonSet: KindRegistration = { hooks };
