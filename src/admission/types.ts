/**
 * The admission interface: what a plugin sees of a write (operation, the
 * resource, the new and old object, the user, dry run, where warnings and
 * audit annotations go), the plugin contract (a mutating half, a validating
 * half, or both, as the real `admission.Interface`), and what the server
 * hands a plugin when it builds it (listers, the authorizer, its
 * configuration, the webhook transport).
 */

import type { GroupVersionResource, KubeObject } from '../api/meta';
import type { NamingProfile } from '../machinery/naming';
import type { Authorizer } from '../auth/authorizer';
import type { Lister } from '../machinery/lister';
import type { AuditLevel } from '../machinery/admission/request-sinks';
import type {
  AdmissionAttributes,
  AdmissionOperation,
  NamespaceLister,
} from '../machinery/admission/attributes';
import type { AdmissionMetrics } from './metrics';
import type { WebhookTransport } from './webhook-transport';

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
  /**
   * Resolves once the server's own serviceaccount controller has made its first pass (every active namespace
   * then has its `default` account), or at once when this server runs none. Absent: nothing to wait for.
   */
  defaultServiceAccounts?(): Promise<void>;
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
export type {
  AdmissionAttributes,
  AdmissionInterface,
  AdmissionOperation,
  NamespaceLister,
  ReinvocationContext,
} from '../machinery/admission/attributes';
