/**
 * Keeps the admission traces of recent requests, by Audit-Id, for
 * `GET /sandbox/v1/traces/<Audit-Id>`. A request gets a record only when it
 * reaches admission (reads never do), and only the newest ones are kept: a
 * trace is for looking at what just happened, not an audit log.
 */

import type { AdmissionTracePass, AdmissionTraceRecord, AdmissionTraceStep } from '../api/admission-trace';
import type { AdmissionTrace } from '../machinery/admission/request-sinks';

export interface TraceRequest {
  auditId: string;
  received: Date;
  method: string;
  path: string;
  user: string;
}

/** Passes kept per request (a deletecollection of thousands keeps the first ones and counts the rest). */
const maxPasses = 50;

export class TraceStore {
  private readonly records = new Map<string, AdmissionTraceRecord>();
  private readonly listeners = new Set<(record: AdmissionTraceRecord) => void>();

  constructor(private readonly capacity = 500) {}

  /** The sink one request's admission writes to; the record exists once a pass begins. */
  open(request: TraceRequest): AdmissionTrace {
    let record: AdmissionTraceRecord | undefined;
    let pass: AdmissionTracePass | undefined;
    return {
      begin: (p) => {
        if (record === undefined) {
          record = {
            auditId: request.auditId,
            received: request.received.toISOString(),
            method: request.method,
            path: request.path,
            user: request.user,
            steps: [],
            passes: [],
          };
          this.add(record);
        }
        const last = record.passes[record.passes.length - 1];
        // A retried attempt on the same object replaces its abandoned pass (its steps are the last ones).
        if (
          last !== undefined &&
          last.namespace === p.namespace &&
          last.name === p.name &&
          last.operation === p.operation
        ) {
          record.passes.pop();
          record.steps.length -= last.steps.length;
        }
        // A collection delete passes admission once per object: the first passes tell the story, the rest are counted.
        if (record.passes.length >= maxPasses) {
          record.omittedPasses = (record.omittedPasses ?? 0) + 1;
          pass = undefined;
          return;
        }
        pass = { ...p, steps: [] };
        record.passes.push(pass);
      },
      record: (step: AdmissionTraceStep) => {
        if (record === undefined || pass === undefined) return;
        pass.steps.push(step);
        record.steps.push(step);
      },
    };
  }

  /** The response was sent: its status completes the record (if the request reached admission). */
  finish(auditId: string, code: number): void {
    const record = this.records.get(auditId);
    if (record === undefined) return;
    record.code = code;
    for (const listener of this.listeners) listener(record);
  }

  get(auditId: string): AdmissionTraceRecord | undefined {
    return this.records.get(auditId);
  }

  /** The kept records, newest last. */
  list(): AdmissionTraceRecord[] {
    return [...this.records.values()];
  }

  /** Hears each completed record; returns the unsubscribe. */
  subscribe(listener: (record: AdmissionTraceRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private add(record: AdmissionTraceRecord): void {
    this.records.set(record.auditId, record);
    if (this.records.size > this.capacity) {
      const oldest = this.records.keys().next().value;
      if (oldest !== undefined) this.records.delete(oldest);
    }
  }
}
