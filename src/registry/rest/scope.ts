/**
 * The request scope: everything a storage operation and admission need to
 * know about the request that caused it, built once per request by the
 * HTTP layer and threaded through every store call — who is asking, the
 * request's uid, what it addressed (the resource and kind as requested and
 * as stored, the subresource), its options and dry run, where warnings go
 * and where the admission trace is recorded. Storages never look at the
 * HTTP request itself.
 */

import type { UserInfo } from '../../api/authn';
import type { GroupVersionKind, GroupVersionResource, JsonObject } from '../../api/meta';
import { newUid } from '../../machinery/ids';

export {
  AuditAnnotations,
  Warnings,
  auditLevelRank,
  type AdmissionTrace,
  type AuditLevel,
} from '../../machinery/admission/request-sinks';
import type { AdmissionTrace, AuditAnnotations } from '../../machinery/admission/request-sinks';
import { Warnings } from '../../machinery/admission/request-sinks';

export type RequestVerb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'connect';

export interface RequestScope {
  /** Who is asking (after authentication and impersonation). */
  user: UserInfo;
  /** This request's unique id: the audit id, and `request.uid` of an AdmissionReview. */
  uid: string;
  verb: RequestVerb;
  /** Namespace from the path ('' for cluster-scoped resources). */
  namespace: string;
  /** Name from the path ('' for collections and creates). */
  name: string;
  /** `status`, `scale`, `approval`, … or ''. */
  subresource: string;
  /** The resource and kind as the client addressed them (`deployments/scale` asks for a Scale). */
  requestResource: GroupVersionResource;
  requestKind: GroupVersionKind;
  /** Nothing is persisted; every other step runs. */
  dryRun: boolean;
  /** The write's options as sent (CreateOptions, UpdateOptions, PatchOptions or DeleteOptions), for admission. */
  options?: JsonObject;
  warnings: Warnings;
  /** Audit annotations admission adds (absent: not audited). */
  annotations?: AuditAnnotations;
  /** Where admission records what each plugin decided (absent: not traced). */
  trace?: AdmissionTrace;
  /** The request's clock reading; one per request. */
  now: Date;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** A scope for work the server does on its own behalf (bootstrap objects), as the given user. */
export function internalScope(
  user: UserInfo,
  target: Pick<
    RequestScope,
    'verb' | 'namespace' | 'name' | 'subresource' | 'requestResource' | 'requestKind'
  >,
  now: Date,
): RequestScope {
  return {
    user,
    uid: newUid(),
    dryRun: false,
    warnings: new Warnings(),
    now,
    signal: new AbortController().signal,
    ...target,
  };
}
