/**
 * Event recorders as the components write Events: the kubelet and the node
 * lifecycle controller through core/v1 (`source.component`, `count`,
 * `firstTimestamp`/`lastTimestamp`; an Event equal to an earlier one —
 * same object, type, reason and message — counts up instead of being
 * created again, as client-go's correlator does), the scheduler through
 * events/v1 (`reportingController`, `action`, `note`; a repeat becomes a
 * `series`). Names are the object's name and the time in nanoseconds in
 * hex. A failed write is dropped: Events are best effort, on a cluster too.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { Clock } from '../machinery/clock';

export interface InvolvedObject {
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

const rfc3339 = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;
const microTime = (d: Date) => `${d.toISOString().slice(0, 23)}000Z`;

let sequence = 0;

/**
 * `<name>.<hex of the time in nanoseconds>`, as client-go names Events; the sub-millisecond part counts up, so
 * Events of one millisecond keep their order (listed by name).
 */
function eventName(objectName: string, now: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(sequence);
  return `${objectName}.${nanos.toString(16)}`;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
}

/** Keeps the recent Events a recorder wrote, to count repeats up; bounded, oldest forgotten first. */
class RecentEvents {
  private readonly seen = new Map<string, Seen>();
  constructor(private readonly limit = 4096) {}
  get(key: string): Seen | undefined {
    return this.seen.get(key);
  }
  set(key: string, value: Seen): void {
    this.seen.delete(key);
    this.seen.set(key, value);
    if (this.seen.size > this.limit) this.seen.delete(this.seen.keys().next().value as string);
  }
  forgetObject(uid: string): void {
    for (const key of [...this.seen.keys()]) if (key.startsWith(`${uid}|`)) this.seen.delete(key);
  }
}

/** A core/v1 Event recorder for one component on one host (`kubelet` on `node-1`). */
export class CoreEventRecorder {
  private readonly recent = new RecentEvents();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly source: { component: string; host?: string },
  ) {}

  record(object: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const namespace =
      object.namespace !== undefined && object.namespace !== '' ? object.namespace : 'default';
    const key = `${object.uid ?? object.name}|${object.fieldPath ?? ''}|${type}|${reason}|${message}`;
    const now = this.clock.now();
    // Written one after another, so that a repeat finds the Event its first occurrence created.
    this.queue = this.queue
      .then(() => this.write(object, namespace, key, type, reason, message, now))
      .catch(() => undefined);
  }

  /** Forgets the repeats of an object that is gone. */
  forget(uid: string): void {
    this.recent.forgetObject(uid);
  }

  /** Resolves when the Events recorded so far were written (tests). */
  flushed(): Promise<void> {
    return this.queue;
  }

  private async write(
    object: InvolvedObject,
    namespace: string,
    key: string,
    type: string,
    reason: string,
    message: string,
    now: Date,
  ): Promise<void> {
    const ref = { group: '', version: 'v1', resource: 'events', namespace };
    const seen = this.recent.get(key);
    if (seen !== undefined) {
      try {
        await this.client.patch(
          { ...ref, name: seen.name },
          { count: seen.count + 1, lastTimestamp: rfc3339(now) },
          'application/strategic-merge-patch+json',
        );
        this.recent.set(key, { ...seen, count: seen.count + 1 });
        return;
      } catch {
        // Gone (deleted, or never written): a new Event below.
      }
    }
    const name = eventName(object.name, now);
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: object,
      reason,
      message,
      source: this.source,
      firstTimestamp: rfc3339(now),
      lastTimestamp: rfc3339(now),
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
    };
    await this.client.create(ref, event);
    this.recent.set(key, { name, namespace, count: 1, firstTimestamp: rfc3339(now) });
  }
}

/** An events/v1 recorder (the scheduler's): `regarding`, `note`, `action`, and a `series` for repeats. */
export class EventsV1Recorder {
  private readonly recent = new RecentEvents();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly group: string,
    private readonly controller: string,
    private readonly instance: string,
  ) {}

  record(
    regarding: InvolvedObject,
    type: 'Normal' | 'Warning',
    reason: string,
    action: string,
    note: string,
  ): void {
    const namespace =
      regarding.namespace !== undefined && regarding.namespace !== '' ? regarding.namespace : 'default';
    const key = `${regarding.uid ?? regarding.name}|${type}|${reason}|${action}|${note}`;
    const now = this.clock.now();
    this.queue = this.queue
      .then(() => this.write(regarding, namespace, key, type, reason, action, note, now))
      .catch(() => undefined);
  }

  forget(uid: string): void {
    this.recent.forgetObject(uid);
  }

  flushed(): Promise<void> {
    return this.queue;
  }

  private async write(
    regarding: InvolvedObject,
    namespace: string,
    key: string,
    type: string,
    reason: string,
    action: string,
    note: string,
    now: Date,
  ): Promise<void> {
    const ref = { group: this.group, version: 'v1', resource: 'events', namespace };
    const seen = this.recent.get(key);
    if (seen !== undefined) {
      try {
        await this.client.patch(
          { ...ref, name: seen.name },
          { series: { count: seen.count + 1, lastObservedTime: microTime(now) } },
          'application/merge-patch+json',
        );
        this.recent.set(key, { ...seen, count: seen.count + 1 });
        return;
      } catch {
        // Gone: a new Event below.
      }
    }
    const name = eventName(regarding.name, now);
    await this.client.create(ref, {
      apiVersion: `${this.group}/v1`,
      kind: 'Event',
      metadata: { name, namespace },
      eventTime: microTime(now),
      reportingController: this.controller,
      reportingInstance: this.instance,
      action,
      reason,
      regarding,
      note,
      type,
    });
    this.recent.set(key, { name, namespace, count: 1, firstTimestamp: rfc3339(now) });
  }
}
