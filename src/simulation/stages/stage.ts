/**
 * Declarative lifecycle stages, after kwok's Stage: a stage names which
 * objects it applies to (a selector over the object's view: every
 * requirement must hold), how long they stay before it applies (a delay,
 * optionally counted from a time in the view, optionally scaled by the
 * simulation's speed), and what it makes of them (the next state, the
 * waiting reason a container shows, the Events a node agent writes, and a
 * named action for the runtime). The lifecycles themselves are data
 * (`pod-stages.ts`, `node-stages.ts`); this module selects, times and
 * renders them.
 */

export type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface Requirement {
  /** A dotted path into the view (`state`, `pod.deleting`). */
  key: string;
  operator: Operator;
  values?: readonly (string | number | boolean)[];
}

export interface Delay {
  /** A fixed delay. */
  ms?: number;
  /** A delay read from the view (a back-off the view computed), in milliseconds. */
  msFrom?: string;
  /** Up to this much more, at random. */
  jitterMs?: number;
  /** Counted from this time in the view (ms since the epoch) instead of from when the stage was first matched. */
  since?: string;
  /** A simulated duration (an image pull, a container's creation): divided by the simulation's speed. */
  simulated?: boolean;
}

export interface EventTemplate {
  type: 'Normal' | 'Warning';
  reason: string;
  /** `{{ key }}` is replaced by the view's value at that path. */
  message: string;
}

export interface Next<A extends string> {
  /** The object's next state (what the `state` key of its view says). */
  state?: string;
  /** A container's waiting reason and message while in the next state (templates). */
  waiting?: { reason: string; message?: string };
  events?: readonly EventTemplate[];
  action?: A;
}

export interface Stage<A extends string = string> {
  name: string;
  /** The kind of object the stage applies to (Pod, Container, Node). */
  resource: string;
  selector: readonly Requirement[];
  delay?: Delay;
  next: Next<A>;
}

/** The value at a dotted path of the view. */
export function lookup(view: unknown, path: string): unknown {
  let v: unknown = view;
  for (const part of path.split('.')) {
    if (part === '') continue;
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

export function matches(stage: Stage, view: unknown): boolean {
  return stage.selector.every((r) => {
    const v = lookup(view, r.key);
    const present = v !== undefined && v !== null;
    switch (r.operator) {
      case 'Exists':
        return present;
      case 'DoesNotExist':
        return !present;
      case 'In':
        return present && (r.values ?? []).some((x) => String(x) === String(v));
      case 'NotIn':
        return !present || !(r.values ?? []).some((x) => String(x) === String(v));
    }
  });
}

/** The first stage (in order) whose selector holds for the view. */
export function selectStage<A extends string>(
  stages: readonly Stage<A>[],
  view: unknown,
): Stage<A> | undefined {
  return stages.find((s) => matches(s, view));
}

/**
 * When the stage applies, in ms on the server's clock: its delay after `matchedAt` (or after the view's
 * `since` time), simulated delays divided by `speed` (`Infinity`: at once).
 */
export function dueAt(
  stage: Stage,
  view: unknown,
  matchedAt: number,
  speed: number,
  random: () => number,
): number {
  const d = stage.delay;
  if (d === undefined) return matchedAt;
  let ms = d.ms ?? 0;
  if (d.msFrom !== undefined) {
    const v = lookup(view, d.msFrom);
    ms += typeof v === 'number' && Number.isFinite(v) ? v : 0;
  }
  if (d.jitterMs !== undefined) ms += Math.floor(random() * d.jitterMs);
  if (d.simulated === true) ms = speed === Infinity ? 0 : ms / Math.max(speed, 0.01);
  const since = d.since !== undefined ? lookup(view, d.since) : undefined;
  const from = typeof since === 'number' && Number.isFinite(since) ? since : matchedAt;
  return from + ms;
}

/** A template rendered against the view: `{{ key }}` becomes the value at that path ('' when absent). */
export function render(template: string, view: unknown): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, key: string) => {
    const v = lookup(view, key);
    return v === undefined || v === null ? '' : String(v);
  });
}

/** What applying a stage yields, rendered against the view. */
export interface Applied<A extends string> {
  stage: string;
  state?: string;
  waiting?: { reason: string; message?: string };
  events: { type: 'Normal' | 'Warning'; reason: string; message: string }[];
  action?: A;
}

export function apply<A extends string>(stage: Stage<A>, view: unknown): Applied<A> {
  const n = stage.next;
  return {
    stage: stage.name,
    ...(n.state !== undefined ? { state: n.state } : {}),
    ...(n.waiting !== undefined
      ? {
          waiting: {
            reason: render(n.waiting.reason, view),
            ...(n.waiting.message !== undefined ? { message: render(n.waiting.message, view) } : {}),
          },
        }
      : {}),
    events: (n.events ?? []).map((e) => ({
      type: e.type,
      reason: e.reason,
      message: render(e.message, view),
    })),
    ...(n.action !== undefined ? { action: n.action } : {}),
  };
}
