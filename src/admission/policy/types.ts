/**
 * The ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding objects
 * (`admissionregistration/v1alpha1`, as v1.27 stores them: defaulted) as the
 * policy dispatcher reads them from the informer cache.
 */

import type { KubeObject } from '../../api/meta';
import type { LabelSelector, MatchCondition, RuleWithOperations } from '../webhook/types';

export type { LabelSelector, MatchCondition, RuleWithOperations };

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: 'Exact' | 'Equivalent';
}

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
}

export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface PolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  failurePolicy?: 'Ignore' | 'Fail';
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
}

export interface ValidatingAdmissionPolicy extends KubeObject {
  spec?: PolicySpec;
}

export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

export interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: ValidationAction[];
}

export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  spec?: BindingSpec;
}
