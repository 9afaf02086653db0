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
import type { AdmissionTracePass, AdmissionTraceStep } from '../../api/admission-trace';

/** Where admission records each step it ran for one request (`admission/trace.ts` keeps them per audit id). */
export interface AdmissionTrace {
  /** A pass through admission begins; a retried attempt on the same object replaces the previous pass. */
  begin(pass: Omit<AdmissionTracePass, 'steps'>): void;
  record(step: AdmissionTraceStep): void;
}

/** Audit levels, lowest first (`audit.orch.io/v1`). */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/**
 * Annotations admission adds to the request's audit event (PodSecurity's
 * `pod-security.orch.io/*`, the webhooks' `mutation.webhook…` and
 * `patch.webhook…`), each with the lowest audit level that records it.
 * Like warnings, a retried write attempt starts clean.
 */
export class AuditAnnotations {
  private kept = new Map<string, { value: string; level: AuditLevel }>();
  private attempt = new Map<string, { value: string; level: AuditLevel }>();

  /** The first value set for a key wins, as on the real server (a second, different value is dropped). */
  add(key: string, value: string, level: AuditLevel = 'Metadata'): void {
    if (this.kept.has(key) || this.attempt.has(key)) return;
    this.attempt.set(key, { value, level });
  }

  keep(): void {
    for (const [k, v] of this.attempt) this.kept.set(k, v);
    this.attempt = new Map();
  }

  beginAttempt(): void {
    this.attempt = new Map();
  }

  /** The annotations an event at `level` carries. */
  at(level: AuditLevel): Record<string, string> {
    const rank = auditLevelRank(level);
    const out: Record<string, string> = {};
    for (const map of [this.kept, this.attempt])
      for (const [k, v] of map) if (auditLevelRank(v.level) <= rank) out[k] = v.value;
    return out;
  }
}

export function auditLevelRank(level: AuditLevel): number {
  return ['None', 'Metadata', 'Request', 'RequestResponse'].indexOf(level);
}

/**
 * Warnings for the response's `Warning` header. An optimistic write may run
 * its steps several times; each attempt starts clean so a retried attempt
 * reports only its own findings, and warnings from outside the attempts
 * (deprecation, decoding) are kept.
 */
export class Warnings {
  private readonly kept: string[] = [];
  private attempt: string[] = [];

  add(text: string): void {
    this.attempt.push(text);
  }

  push(...texts: string[]): void {
    this.attempt.push(...texts);
  }

  /** Warnings added so far survive every later attempt (decoding, deprecation). */
  keep(): void {
    this.kept.push(...this.attempt);
    this.attempt = [];
  }

  /** A write attempt begins: warnings of a previous, abandoned attempt are dropped. */
  beginAttempt(): void {
    this.attempt = [];
  }

  /** Every warning once, in the order first added. */
  all(): string[] {
    return [...new Set([...this.kept, ...this.attempt])];
  }

  [Symbol.iterator](): Iterator<string> {
    return this.all()[Symbol.iterator]();
  }

  get length(): number {
    return this.all().length;
  }
}

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
