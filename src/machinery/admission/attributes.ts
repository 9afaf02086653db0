/**
 * The admission interface the storage layer calls, below both the registry
 * and the plugins (the real server keeps `admission.Attributes` and
 * `admission.Interface` in `k8s.io/apiserver/pkg/admission`, beneath the
 * registry and the plugin packages): what a plugin sees of a write, and the
 * chain's two entry points. The registry calls these; admission/ implements them.
 */

import type { UserInfo } from '../../api/authn';
import type { GroupVersionKind, GroupVersionResource, JsonObject, KubeObject } from '../../api/meta';
import type { AdmissionTrace, AuditAnnotations, Warnings } from './request-sinks';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * State shared by one write's mutating passes: the real reinvocation
 * handler runs every mutating plugin a second time when a webhook with
 * `reinvocationPolicy: IfNeeded` asks for it (an object changed after it ran).
 */
export interface ReinvocationContext {
  /** True during the second pass. */
  isReinvoke: boolean;
  /** Set by a plugin during the first pass to request the second. */
  shouldReinvoke: boolean;
  /** Per-plugin state kept between the passes (keyed by plugin name). */
  values: Map<string, unknown>;
}

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The resource as stored (`kind`/`resource` of an AdmissionReview). */
  group: string;
  version: string;
  kind: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The new object (absent for DELETE). Plugins never change it in place: a mutating plugin returns a changed copy. */
  object?: KubeObject;
  /** The stored object (absent for CREATE). */
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /** The request's uid (an AdmissionReview's `request.uid`, the Audit-Id). */
  uid?: string;
  /** The resource and kind as the client addressed them, when they differ from the stored ones (`deployments/scale` is a Scale). */
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  /** The write's options as sent (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions). */
  options?: JsonObject;
  /** Where `Warning` headers go (absent: dropped). */
  warnings?: Warnings;
  /** Where audit annotations go (absent: dropped). */
  annotations?: AuditAnnotations;
  /** Webhooks and policies record their own steps here (the chain records plugin steps). */
  trace?: AdmissionTrace;
  /** Set by the chain for the mutating phase. */
  reinvocation?: ReinvocationContext;
}

/**
 * What storage calls on every write: the mutating phase (a changed copy of the
 * object, or undefined when nothing changed), then the validating phase. The
 * admission chain (admission/chain.ts) is the server's implementation.
 */
export interface AdmissionInterface {
  mutate(attributes: AdmissionAttributes): Promise<KubeObject | undefined>;
  validate(attributes: AdmissionAttributes): Promise<void>;
}

/** Read access to namespaces for plugins (a lister handed in, never storage). */
export interface NamespaceLister {
  get(name: string): Promise<KubeObject | undefined>;
}
