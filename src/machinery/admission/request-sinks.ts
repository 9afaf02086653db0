/**
 * Where one request's side findings go while storage and admission work on
 * it: the `Warning` header's warnings, the audit event's annotations (each
 * with the lowest audit level that records it) and the admission trace.
 * They sit below both the registry and the admission plugins because both
 * write to them, as the real server's `admission.Attributes` carries its
 * warning and annotation recorders in a package beneath either.
 */

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
  // Made at the first annotation: most requests carry two (authorization's), and a GET's context is made for each.
  private kept: Map<string, Annotation> | undefined;
  private attempt: Map<string, Annotation> | undefined;

  /** The first value set for a key wins, as on the real server (a second, different value is dropped). */
  add(key: string, value: string, level: AuditLevel = 'Metadata'): void {
    if (this.kept?.has(key) === true || this.attempt?.has(key) === true) return;
    (this.attempt ??= new Map()).set(key, { value, level });
  }

  keep(): void {
    const attempt = this.attempt;
    if (attempt === undefined) return;
    this.attempt = undefined;
    if (this.kept === undefined) this.kept = attempt;
    else for (const [k, v] of attempt) this.kept.set(k, v);
  }

  beginAttempt(): void {
    this.attempt = undefined;
  }

  /** How many annotations are set: a mark for `addedSince` (annotations are only added between attempts). */
  mark(): number {
    return (this.kept?.size ?? 0) + (this.attempt?.size ?? 0);
  }

  /** The annotations added after `mark()` returned `mark`, in the order added (any level). */
  addedSince(mark: number): Record<string, string> {
    const out: Record<string, string> = {};
    let i = 0;
    for (const map of [this.kept, this.attempt])
      if (map !== undefined) for (const [k, v] of map) if (i++ >= mark) out[k] = v.value;
    return out;
  }

  /** The annotations an event at `level` carries. */
  at(level: AuditLevel): Record<string, string> {
    const rank = auditLevelRank(level);
    const out: Record<string, string> = {};
    for (const map of [this.kept, this.attempt])
      if (map !== undefined) for (const [k, v] of map) if (auditLevelRank(v.level) <= rank) out[k] = v.value;
    return out;
  }
}

interface Annotation {
  value: string;
  level: AuditLevel;
}

const auditLevels: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

export function auditLevelRank(level: AuditLevel): number {
  return auditLevels.indexOf(level);
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
  /** `all()` as of the last change (admission reads the length around every plugin). */
  private distinct: readonly string[] | undefined;

  add(text: string): void {
    this.attempt.push(text);
    this.distinct = undefined;
  }

  push(...texts: string[]): void {
    this.attempt.push(...texts);
    this.distinct = undefined;
  }

  /** Warnings added so far survive every later attempt (decoding, deprecation). */
  keep(): void {
    // Most requests have none to keep (a GET: every one).
    if (this.attempt.length === 0) return;
    this.kept.push(...this.attempt);
    this.attempt = [];
    this.distinct = undefined;
  }

  /** A write attempt begins: warnings of a previous, abandoned attempt are dropped. */
  beginAttempt(): void {
    this.attempt = [];
    this.distinct = undefined;
  }

  /** Every warning once, in the order first added. */
  all(): string[] {
    return [...this.unique()];
  }

  [Symbol.iterator](): Iterator<string> {
    return this.all()[Symbol.iterator]();
  }

  get length(): number {
    return this.unique().length;
  }

  private unique(): readonly string[] {
    // Most requests have none: every answer's headers ask (no set and copies made for nothing).
    this.distinct ??=
      this.kept.length === 0 && this.attempt.length === 0
        ? noWarnings
        : [...new Set([...this.kept, ...this.attempt])];
    return this.distinct;
  }
}

const noWarnings: readonly string[] = Object.freeze([]);
