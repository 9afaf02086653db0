/**
 * Builds one request's audit events as the real audit filter does: the
 * policy decides the level from the authenticated user and the request's
 * attributes; RequestReceived is taken before the handler runs,
 * ResponseStarted when a long-running (watch) response begins, and
 * ResponseComplete with the status, the annotations admission and
 * authorization added, and — at Request and RequestResponse levels — the
 * request and response bodies. Each stage is taken when it happens (its
 * time, the annotations so far) and its place in the log taken then; the
 * event is built only when read (the log listed or subscribed), or after
 * the answer (machinery/after-answer.ts), in order, when the host attached
 * a sink that writes every event (the Node host's log file).
 */

import type { AuditEvent } from '../api/audit';
import type { UserInfo } from '../api/authn';
import type { JsonValue } from '../api/meta';
import type { AuditAnnotations } from '../registry/rest/scope';
import { auditLevelRank } from '../registry/rest/scope';
import {
  evaluatePolicy,
  type AuditAttributes,
  type AuditPolicy,
  type AuditStage,
  type PolicyDecision,
} from './policy';
import type { AuditLog, AuditSink } from './log';
import { afterAnswer } from '../machinery/after-answer';

export interface AuditRequest {
  auditId: string;
  received: Date;
  method: string;
  requestURI: string;
  userAgent?: string;
  sourceIPs?: string[];
  /** The authenticated user (before impersonation). */
  user: UserInfo;
  /** The user acted as, when the request impersonated. */
  impersonatedUser?: UserInfo;
  attributes: AuditAttributes;
  apiVersion?: string;
}

export interface AuditedResponse {
  code: number;
  /** The Status of a failed request. */
  status?: { status?: string; message?: string; reason?: string };
  body?: JsonValue;
}

function userOf(u: UserInfo): AuditEvent['user'] {
  return {
    username: u.username,
    ...(u.uid !== undefined && u.uid !== '' ? { uid: u.uid } : {}),
    ...(u.groups !== undefined && u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(u.extra !== undefined && Object.keys(u.extra).length > 0 ? { extra: { ...u.extra } } : {}),
  };
}

function withoutManagedFields(v: JsonValue | undefined): JsonValue | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const meta = v.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta) || !('managedFields' in meta)) {
    if (Array.isArray(v.items)) return { ...v, items: v.items.map((i) => withoutManagedFields(i) ?? null) };
    return v;
  }
  const { managedFields: _dropped, ...rest } = meta;
  return { ...v, metadata: rest };
}

export class AuditRecorder {
  private readonly decision: Readonly<PolicyDecision>;
  /** `requestReceivedTimestamp`, written once for every stage's event. */
  private receivedText: string | undefined;

  constructor(
    private readonly policy: AuditPolicy,
    /** The log behind the live audit view: it makes the event when read. */
    private readonly log: AuditLog,
    /** The host's sinks, written after the answer. */
    private readonly sinks: readonly AuditSink[],
    private readonly apiVersion: string,
    private readonly request: AuditRequest,
    private readonly now: () => Date,
  ) {
    // Matched with the authenticated user, never the one impersonated: the real server's audit filter runs
    // between authentication and impersonation, so impersonating a user a rule leaves out (a system user
    // filtered for volume) cannot hide a request from the log.
    this.decision = evaluatePolicy(policy, request.attributes, request.user);
  }

  get level(): PolicyDecision['level'] {
    return this.decision.level;
  }

  /** Whether the request body is recorded (so the pipeline reads a copy of it). */
  get wantsRequestBody(): boolean {
    return auditLevelRank(this.decision.level) >= auditLevelRank('Request');
  }

  get wantsResponseBody(): boolean {
    return this.decision.level === 'RequestResponse';
  }

  /** The stage's event; `notes` and `at` are taken when the stage happened (the event is built after the answer). */
  private event(
    stage: AuditStage,
    level: AuditEvent['level'],
    notes: Record<string, string>,
    at: Date,
  ): AuditEvent {
    const r = this.request;
    const a = r.attributes;
    // Built field by field in the order the event is written (JSON keeps insertion order), the optional ones
    // set only when present: two events per request, and spreads of conditional literals cost more.
    const head: Omit<AuditEvent, 'requestReceivedTimestamp' | 'stageTimestamp'> = {
      kind: 'Event',
      apiVersion: this.apiVersion,
      level,
      auditID: r.auditId,
      stage,
      requestURI: r.requestURI,
      verb: a.verb,
      user: userOf(r.user),
    };
    if (r.impersonatedUser !== undefined) head.impersonatedUser = userOf(r.impersonatedUser);
    if (r.sourceIPs !== undefined) head.sourceIPs = r.sourceIPs;
    if (r.userAgent !== undefined) head.userAgent = r.userAgent;
    if (a.resourceRequest) {
      const ref: NonNullable<AuditEvent['objectRef']> = { resource: a.resource };
      if (a.namespace !== '') ref.namespace = a.namespace;
      if (a.name !== '') ref.name = a.name;
      ref.apiGroup = a.apiGroup;
      if (r.apiVersion !== undefined) ref.apiVersion = r.apiVersion;
      if (a.subresource !== '') ref.subresource = a.subresource;
      head.objectRef = ref;
    }
    const event: AuditEvent = Object.assign(head, {
      requestReceivedTimestamp: (this.receivedText ??= micro(r.received)),
      stageTimestamp: micro(at),
    });
    if (Object.keys(notes).length > 0) event.annotations = notes;
    return event;
  }

  received(): void {
    this.later('RequestReceived', undefined, () => undefined);
  }

  /** A long-running response (watch) has begun streaming. */
  started(code: number, annotations: AuditAnnotations | undefined): void {
    this.later('ResponseStarted', annotations, (e) => {
      e.responseStatus = { metadata: {}, code };
    });
  }

  completed(
    response: AuditedResponse,
    annotations: AuditAnnotations | undefined,
    requestBody?: JsonValue,
  ): void {
    this.later('ResponseComplete', annotations, (e) => {
      e.responseStatus = {
        metadata: {},
        code: response.code,
        ...(response.status?.status !== undefined ? { status: response.status.status } : {}),
        ...(response.status?.message !== undefined ? { message: response.status.message } : {}),
        ...(response.status?.reason !== undefined ? { reason: response.status.reason } : {}),
      };
      const strip = this.decision.omitManagedFields ? withoutManagedFields : (v: JsonValue | undefined) => v;
      if (this.wantsRequestBody && requestBody !== undefined) e.requestObject = strip(requestBody) ?? null;
      if (this.wantsResponseBody && response.body !== undefined)
        e.responseObject = strip(response.body) ?? null;
    });
  }

  /**
   * A stage's event, recorded as of now (its time, the annotations so far, its place in the log) and built when
   * read, or after the answer for the host's sinks (machinery/after-answer.ts: in order with every other stage
   * and request, before any reader of the log). The same event object goes to the log and the sinks.
   */
  private later(
    stage: AuditStage,
    annotations: AuditAnnotations | undefined,
    complete: (event: AuditEvent) => void,
  ): void {
    const level = this.decision.level;
    if (level === 'None' || this.decision.omitStages.includes(stage)) return;
    const at = this.now();
    const notes = annotations?.at(level) ?? {};
    let made: AuditEvent | undefined;
    const make = (): AuditEvent => {
      if (made === undefined) {
        made = this.event(stage, level, notes, at);
        complete(made);
      }
      return made;
    };
    this.log.defer(make);
    const sinks = this.sinks;
    if (sinks.length > 0)
      afterAnswer(() => {
        const e = make();
        for (const sink of sinks) sink.write(e);
      });
  }
}

/** RFC 3339 with microseconds, as audit timestamps are written. */
function micro(d: Date): string {
  // toISOString always ends in `.sssZ`: three more digits before the Z, without a regular expression (every request).
  return `${d.toISOString().slice(0, -1)}000Z`;
}
