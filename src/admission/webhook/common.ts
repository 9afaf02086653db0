/**
 * What both dispatchers share: the resources webhooks never intercept (their
 * own configurations and the admission policies, so a bad webhook cannot
 * lock itself in), the credentials for calls, the steps they add to the
 * request's admission trace, and the rejection metric's code rules.
 */

import type { AdmissionTraceStep } from '../../api/admission-trace';
import type { JsonValue } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';
import { credentialsResolver, type CredentialsResolver } from './credentials';
import type { WebhookEntry, WebhookKind } from './types';
import type { ReviewBodies } from './call';

const exemptResources = new Set([
  'mutatingwebhookconfigurations',
  'validatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
]);

export function isExempt(a: AdmissionAttributes, groupSuffix: string): boolean {
  return a.group === `admissionregistration.${groupSuffix}` && exemptResources.has(a.resource);
}

/** Credentials are read once, when the plugin is built: a bad kubeconfig stops the server, as it does the real one. */
export function credentialsFor(deps: AdmissionPluginDeps): CredentialsResolver {
  return credentialsResolver(deps.config, deps.loadFile);
}

/** Above 600 the real metric records 600. */
export function metricCode(code: number): number {
  return code > 600 ? 600 : code;
}

export function stepBase(
  entry: WebhookEntry,
  kind: WebhookKind,
  durationMs: number,
): Pick<
  AdmissionTraceStep,
  'name' | 'type' | 'phase' | 'durationMs' | 'configuration' | 'failurePolicy' | 'index'
> {
  return {
    name: `${entry.configuration}/${entry.spec.name}`,
    type: 'webhook',
    phase: kind,
    durationMs,
    configuration: entry.configuration,
    failurePolicy: entry.spec.failurePolicy ?? 'Fail',
    index: entry.index,
  };
}

export function reviewOf(bodies: ReviewBodies | undefined): Pick<AdmissionTraceStep, 'review'> {
  if (bodies === undefined) return {};
  return {
    review: {
      request: bodies.request,
      ...(bodies.response !== undefined ? { response: bodies.response } : {}),
      ...(bodies.responseText !== undefined ? { responseText: bodies.responseText } : {}),
    },
  };
}

/** Deep equality of two JSON documents, key order ignored (the real server's semantic equality). */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}
