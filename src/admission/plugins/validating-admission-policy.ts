/**
 * ValidatingAdmissionPolicy (gate `ValidatingAdmissionPolicy`, alpha and off
 * by default in v1.27; its API `admissionregistration.<groupSuffix>/v1alpha1`
 * must also be enabled with `--runtime-config`): CEL policies and their
 * bindings, evaluated in the validating phase (see `../policy/`). The
 * policy objects themselves are never subject to policies. Records one
 * trace step per policy and binding. The dispatch is loaded with the first
 * policy there is to evaluate; without one there is nothing to record.
 */

import type { AdmissionPluginFactory } from '../types';
import { policyDispatch } from '../policy/library';
import { policySource } from '../policy/source';

const POLICY_RESOURCES = ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'];

export const validatingAdmissionPolicy: AdmissionPluginFactory = (deps) => {
  const source = policySource(deps);
  const policyGroup = `admissionregistration.${deps.profile.groupSuffix}`;
  return {
    name: 'ValidatingAdmissionPolicy',
    operations: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'],
    recordsOwnSteps: true,
    async validate(a) {
      if (deps.featureGates.ValidatingAdmissionPolicy !== true) return;
      if (a.group === policyGroup && POLICY_RESOURCES.includes(a.resource)) return;
      const hooks = await source.hooks();
      if (hooks.length === 0) return;
      const { dispatchPolicies } = await policyDispatch.load();
      await dispatchPolicies(a, { hooks: () => Promise.resolve(hooks) }, deps);
    },
  };
};
