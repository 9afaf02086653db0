/**
 * An event recorder, as client-go's `record` package gives controllers:
 * core/v1 Events named `<object>.<hex time>` in the object's namespace
 * (`default` for cluster-scoped objects), with `source.component` and
 * `reportingComponent` naming the controller. As its correlator does, an
 * event that repeats one already written (same object, type, reason and
 * message) increments that Event's `count` and `lastTimestamp` instead of
 * creating another, and a per-object token bucket (burst 25, one more every
 * five minutes) drops the excess, so a controller failing in a loop cannot
 * flood the store. Writing is fire-and-forget: a failed write is dropped,
 * never retried in a loop, and never fails the controller's work.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import { isNotFound } from './api-errors';

export type EventType = 'Normal' | 'Warning';

/** The kind of the object an event is about (list items carry no apiVersion or kind). */
export interface InvolvedKind {
  apiVersion: string;
  kind: string;
}

export interface EventRecorder {
  event(kind: InvolvedKind, obj: KubeObject, type: EventType, reason: string, message: string): void;
  /** Resolves when every write started so far has finished (tests). */
  flush(): Promise<void>;
}

const burst = 25;
const refillMs = 5 * 60_000;
const cacheSize = 4096;

interface Written {
  name: string;
  count: number;
}

export function eventRecorder(client: ApiClient, component: string, now: () => Date): EventRecorder {
  const written = new Map<string, Written>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  const pending = new Set<Promise<void>>();
  const chains = new Map<string, Promise<void>>();
  let sequence = 0;

  const allow = (uid: string): boolean => {
    const t = now().getTime();
    let b = buckets.get(uid);
    if (b === undefined) {
      if (buckets.size >= cacheSize) buckets.delete(buckets.keys().next().value ?? '');
      buckets.set(uid, (b = { tokens: burst, at: t }));
    }
    const refill = Math.floor((t - b.at) / refillMs);
    if (refill > 0) {
      b.tokens = Math.min(burst, b.tokens + refill);
      b.at += refill * refillMs;
    }
    if (b.tokens <= 0) return false;
    b.tokens--;
    return true;
  };

  const write = async (key: string, event: KubeObject, namespace: string): Promise<void> => {
    const ref = { group: '', version: 'v1', resource: 'events', namespace };
    const seen = written.get(key);
    const stamp = String(event['lastTimestamp']);
    if (seen !== undefined) {
      seen.count++;
      try {
        await client.patch(
          { ...ref, name: seen.name },
          { count: seen.count, lastTimestamp: stamp },
          'application/merge-patch+json',
        );
        return;
      } catch (e) {
        // Gone (expired, deleted): written anew below.
        if (!isNotFound(e)) return;
        written.delete(key);
      }
    }
    try {
      await client.create(ref, event);
      if (written.size >= cacheSize) written.delete(written.keys().next().value ?? '');
      written.set(key, { name: event.metadata?.name ?? '', count: 1 });
    } catch {
      // An event is advisory: a namespace being deleted or a refused write loses it, as on a real cluster.
    }
  };

  return {
    event(kind, obj, type, reason, message) {
      const m = obj.metadata ?? {};
      const uid = m.uid ?? '';
      if (!allow(uid)) return;
      const namespace = m.namespace !== undefined && m.namespace !== '' ? m.namespace : 'default';
      const at = now();
      const stamp = `${at.toISOString().slice(0, 19)}Z`;
      // UnixNano in hex, made unique within this process: events of one millisecond keep distinct names.
      const nanos = BigInt(at.getTime()) * 1_000_000n + BigInt(sequence++ % 1_000_000);
      const event: KubeObject = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${m.name ?? ''}.${nanos.toString(16)}`, namespace },
        involvedObject: {
          kind: kind.kind,
          namespace: m.namespace,
          name: m.name,
          uid,
          apiVersion: kind.apiVersion,
          resourceVersion: m.resourceVersion,
        },
        reason,
        message,
        source: { component },
        firstTimestamp: stamp,
        lastTimestamp: stamp,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: component,
        reportingInstance: '',
      };
      const key = `${uid}\u0000${type}\u0000${reason}\u0000${message}`;
      // Writes of one key go one after another, so a repeat patches the Event its first write created.
      const p: Promise<void> = (chains.get(key) ?? Promise.resolve())
        .then(() => write(key, event, namespace))
        .finally(() => {
          pending.delete(p);
          if (chains.get(key) === p) chains.delete(key);
        });
      chains.set(key, p);
      pending.add(p);
    },
    async flush() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
