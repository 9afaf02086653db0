/**
 * "Wire it up": the webhook configuration that sends a resource's writes
 * to a backend — through the backend's service reference when it declares
 * one, else its reserved URL (`https://<name>.webhooks.sandbox.invalid/`).
 */

import type { KubeObject } from '../../api/meta';
import { backendUrl, type WebhookBackend } from './backend-api';

export interface WireOptions {
  kind: 'validating' | 'mutating';
  /** `group/version/resource`, the core group empty: `/v1/pods`. */
  group: string;
  version: string;
  resource: string;
  operations: string[];
  failurePolicy: 'Fail' | 'Ignore';
  timeoutSeconds: number;
}

export function configurationName(backend: string): string {
  return `backend-${backend}`;
}

export function configurationFor(
  backend: WebhookBackend,
  o: WireOptions,
  admissionGroup: string,
): KubeObject {
  const service =
    backend.service ??
    (backend.namespace !== undefined ? { name: backend.name, namespace: backend.namespace } : undefined);
  return {
    apiVersion: `${admissionGroup}/v1`,
    kind: o.kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name: configurationName(backend.name) },
    webhooks: [
      {
        name: `${backend.name}.webhooks.sandbox.invalid`,
        clientConfig: service !== undefined ? { service } : { url: backendUrl(backend.name) },
        rules: [
          {
            operations: o.operations,
            apiGroups: [o.group],
            apiVersions: [o.version],
            resources: [o.resource],
          },
        ],
        failurePolicy: o.failurePolicy,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: o.timeoutSeconds,
      },
    ],
  };
}
