/**
 * admissionregistration/v1 defaults: a webhook fails closed, matches
 * equivalent requests, selects every namespace and object, times out after
 * 10 s and (mutating) is never reinvoked; its rules cover every scope; a
 * service it calls listens on 443.
 */

import { ptr, type Defaulter } from './helpers';

const webhook: Defaulter = (w) => {
  ptr(w, 'failurePolicy', 'Fail');
  ptr(w, 'matchPolicy', 'Equivalent');
  ptr(w, 'namespaceSelector', {});
  ptr(w, 'objectSelector', {});
  ptr(w, 'timeoutSeconds', 10);
};

export const admissionDefaults: Record<string, Defaulter> = {
  'api.admissionregistration.v1.ValidatingWebhook': webhook,
  'api.admissionregistration.v1.MutatingWebhook': (w, ctx) => {
    webhook(w, ctx);
    ptr(w, 'reinvocationPolicy', 'Never');
  },
  'api.admissionregistration.v1.RuleWithOperations': (rule) => ptr(rule, 'scope', '*'),
  'api.admissionregistration.v1.ServiceReference': (ref) => ptr(ref, 'port', 443),
  // v1alpha1 ValidatingAdmissionPolicy: fails closed, matches equivalent requests, selects everything.
  'api.admissionregistration.v1alpha1.ValidatingAdmissionPolicySpec': (s) => ptr(s, 'failurePolicy', 'Fail'),
  'api.admissionregistration.v1alpha1.MatchResources': (m) => {
    ptr(m, 'matchPolicy', 'Equivalent');
    ptr(m, 'namespaceSelector', {});
    ptr(m, 'objectSelector', {});
  },
  'api.admissionregistration.v1alpha1.NamedRuleWithOperations': (rule) => ptr(rule, 'scope', '*'),
};
