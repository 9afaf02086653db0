/**
 * The admission interface: what a plugin sees of a write (operation, the
 * resource, the new and old object, the user, dry run, where warnings and
 * audit annotations go), the plugin contract (a mutating half, a validating
 * half, or both, as the real `admission.Interface`), and what the server
 * hands a plugin when it builds it (listers, the authorizer, its
 * configuration, the webhook transport).
 */

import type { GroupVersionKind, GroupVersionResource, JsonObject, KubeObject } from '../api/meta';
import type { UserInfo } from '../api/authn';
import type { NamingProfile } from '../machinery/naming';
import type { Authorizer } from '../auth/authorizer';
import type { Lister } from '../registry/cache/types';
import type { AdmissionTrace, AuditAnnotations, AuditLevel, Warnings } from '../registry/rest/scope';
import type { AdmissionMetrics } from './metrics';
import type { WebhookTransport } from './webhook-transport';

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
 * One admission plugin. `admit` is its mutating half: it returns a changed
 * copy of `attributes.object`, or undefined when it changed nothing (never
 * mutate the object it was given: the chain diffs the two for the trace).
 * `validate` is its validating half. Either throws a StatusError to reject.
 */
export interface AdmissionPlugin {
  readonly name: string;
  /** The operations it looks at (the real `Handles`); absent: every one. */
  readonly operations?: readonly AdmissionOperation[];
  admit?(attributes: AdmissionAttributes): Promise<KubeObject | undefined>;
  validate?(attributes: AdmissionAttributes): Promise<void>;
  /** Webhook and policy dispatchers record a step per webhook or policy; the chain records none for them. */
  readonly recordsOwnSteps?: boolean;
}

/** Read access to namespaces for plugins (a lister handed in, never storage). */
export interface NamespaceLister {
  get(name: string): Promise<KubeObject | undefined>;
}

/**
 * Writes a plugin makes as the server (NamespaceAutoProvision's namespace,
 * ResourceQuota's `status.used`), through the resource's storage so
 * validation and watches see them. Objects are in the preferred version.
 */
export interface AdmissionClient {
  get(group: string, resource: string, namespace: string, name: string): Promise<KubeObject | undefined>;
  create(group: string, resource: string, object: KubeObject): Promise<KubeObject>;
  /** A full update (with `metadata.resourceVersion` as precondition); `subresource` e.g. `status`. */
  update(group: string, resource: string, object: KubeObject, subresource?: string): Promise<KubeObject>;
}

/** What the server hands every plugin factory. */
export interface AdmissionPluginDeps {
  profile: NamingProfile;
  featureGates: Readonly<Record<string, boolean>>;
  now(): Date;
  /** The plugin's own configuration from `--admission-control-config-file` (already parsed), if one was given. */
  config?: unknown;
  /** Cached, synchronous reads of one resource (objects in their storage version, frozen). */
  lister(group: string, resource: string): Lister;
  /** Resolves once every lister handed out so far has synced (call before trusting a lister's "absent"). */
  listersSynced(): Promise<void>;
  namespaces: NamespaceLister;
  authorizer: Authorizer;
  client: AdmissionClient;
  /** How webhooks (admission, image policy) are called: sandbox backends and, on the Node host, real HTTPS. */
  transport: WebhookTransport;
  metrics: AdmissionMetrics;
  /** Start-up flags plugins read (`--default-not-ready-toleration-seconds`, …). */
  flags: AdmissionFlags;
  /** The served resources, for webhook and policy matching. */
  resources: AdmissionResources;
  /**
   * Reads a file a plugin's configuration names (ImagePolicyWebhook's and the
   * webhooks' client kubeconfig), relative paths resolved against the
   * admission configuration file. The host supplies it; it throws when absent.
   */
  loadFile(path: string): string;
}

/** What matching needs of the served API (the real server's RESTMapper and converter). */
export interface AdmissionResources {
  /** A served resource's kind and scope; undefined when not served. */
  lookup(group: string, version: string, resource: string): { kind: string; namespaced: boolean } | undefined;
  /** Every served group/version/resource that shares this one's storage (matchPolicy Equivalent), this one included. */
  equivalents(group: string, version: string, resource: string): GroupVersionResource[];
  /** The object converted to another served version of its kind (`group/version` or `v1`); undefined when not served. */
  convert(object: KubeObject, toApiVersion: string): KubeObject | undefined;
}

export interface AdmissionFlags {
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
}

export type AdmissionPluginFactory = (deps: AdmissionPluginDeps) => AdmissionPlugin;

export type { AuditLevel };
