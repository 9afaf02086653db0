/**
 * The admission trace as the sandbox API serves it (`GET
 * /sandbox/v1/traces/<Audit-Id>`) and the UI draws it: for one request,
 * every admission step in the order it ran — built-in plugins, webhooks
 * (with round and index) and policies — with its decision, duration, the
 * JSON patch it applied, the warnings and audit annotations it added, and
 * for a webhook the AdmissionReview bodies. A wire contract: the server
 * writes it, the UI and tests read it.
 */

import type { JsonObject, JsonValue } from './meta';

export type AdmissionStepType = 'plugin' | 'webhook' | 'policy';
export type AdmissionPhase = 'mutating' | 'validating';
/**
 * allowed: consulted, no change; patched: changed the object; denied: refused the request;
 * skipped: not consulted (see `reason`); error: failed, and its failure policy let the request go on.
 */
export type AdmissionDecision = 'allowed' | 'patched' | 'denied' | 'skipped' | 'error';

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: JsonValue;
  from?: string;
}

export interface AdmissionTraceStep {
  /** Plugin name, `<configuration>/<webhook>` or `<policy>` (`<binding>` in `binding`). */
  name: string;
  type: AdmissionStepType;
  phase: AdmissionPhase;
  decision: AdmissionDecision;
  /** Why it was skipped (no rule matched, selector, match condition false, dry run with side effects, …) or how it failed. */
  reason?: string;
  /** The denial's (or error's) Status message and code. */
  message?: string;
  code?: number;
  durationMs: number;
  /** Mutating webhooks: the reinvocation round (0, 1) and the webhook's index among all mutating webhooks. Plugins: the round they ran in. */
  round?: number;
  index?: number;
  /** Webhooks and policies: the configuration or policy object, and the binding. */
  configuration?: string;
  binding?: string;
  /** The rule that matched or fired (a webhook rule, a policy's expression, a PodSecurity check). */
  rule?: string;
  failurePolicy?: 'Ignore' | 'Fail';
  /** What the step changed, as the patch that turns `before` into `after`. */
  patch?: JsonPatchOperation[];
  before?: JsonObject;
  after?: JsonObject;
  warnings?: string[];
  annotations?: Record<string, string>;
  /** Webhooks: the AdmissionReview sent and the one received (or the raw text when it was not JSON). */
  review?: { request: JsonValue; response?: JsonValue; responseText?: string };
}

/** One pass through admission: a write attempt on one object (a retried attempt replaces the previous one). */
export interface AdmissionTracePass {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  dryRun: boolean;
  steps: AdmissionTraceStep[];
}

export interface AdmissionTraceRecord {
  auditId: string;
  /** When the request arrived (RFC 3339 with milliseconds). */
  received: string;
  method: string;
  path: string;
  user: string;
  /** The HTTP status of the response, once sent. */
  code?: number;
  /** Steps of every pass, in order (the `passes` flattened: the common case is one pass). */
  steps: AdmissionTraceStep[];
  passes: AdmissionTracePass[];
  /** Passes not kept (a collection delete keeps its first 50). */
  omittedPasses?: number;
}
