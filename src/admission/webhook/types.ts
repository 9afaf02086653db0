/**
 * The webhook configuration objects as the dispatchers read them
 * (`admissionregistration/v1`, already defaulted when stored), and one
 * webhook as the dispatchers carry it: its configuration, its position
 * among all webhooks of its kind (the audit annotations' index) and what
 * is compiled from it once per configuration version.
 */

import type { KubeObject } from '../../api/meta';
import type { WebhookClientConfig } from '../webhook-transport';

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface WebhookSpec {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: 'Ignore' | 'Fail';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  matchConditions?: MatchCondition[];
}

export interface WebhookConfiguration extends KubeObject {
  webhooks?: WebhookSpec[];
}

/** One webhook of one configuration, in dispatch order. */
export interface WebhookEntry {
  configuration: string;
  spec: WebhookSpec;
  /** Position among all webhooks of its kind, configurations sorted by name (skipped ones counted). */
  index: number;
  /** Identifies the webhook across reinvocation rounds. */
  key: string;
}

export type WebhookKind = 'mutating' | 'validating';
