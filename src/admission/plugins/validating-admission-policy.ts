/**
 * ValidatingAdmissionPolicy (gate `ValidatingAdmissionPolicy`, alpha and off
 * by default in v1.27; its API `admissionregistration.<groupSuffix>/v1alpha1`
 * must also be enabled with `--runtime-config`): CEL policies and their
 * bindings, evaluated in the validating phase (see `../policy/`). The
 * policy objects themselves are never subject to policies. Records one
 * trace step per policy and binding.
 */

import type { AdmissionPluginFactory } from '../types';
import { dispatchPolicies } from '../policy/dispatch';
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
      await dispatchPolicies(a, source, deps);
    },
  };
};
