/**
 * A ValidatingAdmissionPolicyBinding's rules: the policy it names, its
 * param reference, its matchResources and its validation actions. Loaded
 * with the first write of an admission configuration
 * (`../admission-configuration-validation.lazy.ts`).
 */

import type { KubeObject } from '../../../../api/meta';
import { fieldError, GoValueText, type FieldError } from '../../../../machinery/field-errors';
import { strings } from '../rule-validation';
import { validateMatchResources } from '../validatingadmissionpolicy/match-resources';

const actions = ['Audit', 'Deny', 'Warn'];

export function validateBinding(obj: KubeObject): FieldError[] {
  const spec = ((obj as { spec?: unknown }).spec ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (typeof spec.policyName !== 'string' || spec.policyName === '')
    errors.push(fieldError.required('spec.policyName', ''));
  if (spec.paramRef !== undefined && spec.paramRef !== null) {
    const name = (spec.paramRef as { name?: unknown }).name;
    if (typeof name !== 'string' || name === '') errors.push(fieldError.required('spec.paramRef.name', ''));
  }
  if (spec.matchResources !== undefined && spec.matchResources !== null)
    errors.push(...validateMatchResources(spec.matchResources, 'spec.matchResources', false));
  const list = strings(spec.validationActions);
  const seen = new Set<string>();
  list.forEach((a, i) => {
    if (!actions.includes(a))
      errors.push(fieldError.notSupported(`spec.validationActions[${i}]`, a, actions));
    if (seen.has(a)) errors.push(fieldError.duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errors.push(
      fieldError.invalid(
        'spec.validationActions',
        new GoValueText(
          `[]admissionregistration.ValidationAction{${list.map((a) => JSON.stringify(a)).join(', ')}}`,
        ),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (seen.size === 0)
    errors.push(fieldError.required('spec.validationActions', 'at least one validation action is required'));
  return errors;
}
