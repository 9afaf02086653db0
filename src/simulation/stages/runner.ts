/**
 * Runs stages over objects on the server's clock: for each object (by a
 * key) the first stage its view matches is due after its delay; a stage
 * still matched keeps its timer across later syncs (its delay counts from
 * when it was first matched, as kwok's does), another stage replaces it.
 * When a stage is due the owner is asked to apply it — and to check first
 * that the object still matches, since it may have changed meanwhile.
 */

import type { Clock } from '../../machinery/clock';
import { dueAt, selectStage, type Stage } from './stage';

interface Pending<A extends string> {
  stage: Stage<A>;
  matchedAt: number;
  cancel: () => void;
}

export interface StageRunnerOptions {
  clock: Clock;
  /** The simulation's speed for simulated durations (1 real time, Infinity at once). */
  speed: () => number;
  random?: () => number;
}

export class StageRunner<A extends string> {
  private readonly pending = new Map<string, Pending<A>>();
  private stopped = false;
  /** Stages applied at once, one inside another's apply: a lifecycle whose stages never settle is a bug. */
  private depth = 0;

  constructor(
    private readonly stages: readonly Stage<A>[],
    private readonly options: StageRunnerOptions,
    /** Called when a stage is due for the object `key`. */
    private readonly due: (key: string, stage: Stage<A>) => void,
  ) {}

  /** Chooses the stage for the object's current view; a stage due now is applied before this returns. */
  sync(key: string, view: unknown): void {
    if (this.stopped) return;
    const stage = selectStage(this.stages, view);
    const current = this.pending.get(key);
    if (current !== undefined && current.stage === stage) {
      // Delays counted from a time in the view move with it (a container that exited again).
      if (stage.delay?.since === undefined) return;
    }
    current?.cancel();
    this.pending.delete(key);
    if (stage === undefined) return;
    const now = this.options.clock.now().getTime();
    const matchedAt = current !== undefined && current.stage === stage ? current.matchedAt : now;
    const at = dueAt(stage, view, matchedAt, this.options.speed(), this.options.random ?? Math.random);
    if (at <= now) {
      if (++this.depth > 64) throw new Error(`stage ${stage.name} applies over and over to ${key}`);
      try {
        this.due(key, stage);
      } finally {
        this.depth--;
      }
      return;
    }
    const entry: Pending<A> = {
      stage,
      matchedAt,
      cancel: this.options.clock.setTimer(at - now, () => {
        if (this.pending.get(key) !== entry) return;
        this.pending.delete(key);
        this.due(key, stage);
      }),
    };
    this.pending.set(key, entry);
  }

  /** The stage waiting for the object, if any (for tests and status). */
  waiting(key: string): string | undefined {
    return this.pending.get(key)?.stage.name;
  }

  forget(key: string): void {
    this.pending.get(key)?.cancel();
    this.pending.delete(key);
  }

  /** Forgets every object whose key starts with `prefix` (a pod's containers). */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.pending.keys()]) if (key.startsWith(prefix)) this.forget(key);
  }

  /** Forgets every pending stage; later syncs schedule again. */
  reset(): void {
    for (const p of this.pending.values()) p.cancel();
    this.pending.clear();
  }

  /** Forgets every pending stage for good. */
  stop(): void {
    this.stopped = true;
    this.reset();
  }
}
