/**
 * The admission interface: what a plugin sees of a write (operation, the
 * resource, the new and old object, the user, dry run) and the two kinds of
 * plugins, mutating (may change the object) and validating (may only
 * reject). Built-in plugins and, later, webhooks and policies implement it.
 */

import type { GroupVersionKind, GroupVersionResource, JsonObject, KubeObject } from '../api/meta';
import type { UserInfo } from '../api/authn';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  group: string;
  version: string;
  kind: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The new object (absent for DELETE). */
  object?: KubeObject;
  /** The stored object (absent for CREATE). */
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /** The request's uid (an AdmissionReview's `request.uid`). */
  uid?: string;
  /** The resource and kind as the client addressed them, when they differ from the stored ones (`deployments/scale` is a Scale). */
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  /** The write's options as sent (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions). */
  options?: JsonObject;
}

export interface MutatingAdmissionPlugin {
  readonly name: string;
  /** Returns the (possibly changed) object; throws a StatusError to reject. */
  admit(attributes: AdmissionAttributes): Promise<KubeObject | undefined>;
}

export interface ValidatingAdmissionPlugin {
  readonly name: string;
  /** Throws a StatusError to reject. */
  validate(attributes: AdmissionAttributes): Promise<void>;
}

/** Read access to namespaces for plugins (a lister handed in, never storage). */
export interface NamespaceLister {
  get(name: string): Promise<KubeObject | undefined>;
}
