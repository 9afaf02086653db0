/**
 * One lesson as a learner follows it: its steps' states, kept live. Steps
 * are done in order — the first step not yet done is checked, and when all
 * its checks hold it is recorded as done and the next one is checked at
 * once, so a learner who ran ahead sees every step they did turn done. A
 * check is re-evaluated when what it reads changes (a watch event on the
 * objects it names, a completed request, an inspector event), never on a
 * timer. "Start lesson", "Reset lesson" and "Show me" live in start.ts and
 * show-me.ts; this module ties them to the live state.
 */

import {
  celLibrary,
  compileDynamicExpression,
  evaluateDynamic,
  isCompileError,
  type CompiledExpression,
} from '../cel/index';
import type { ApiClient } from '../client/index';
import { variablesOf, type LessonCheck, type LessonDocument, type LessonStep } from './format';
import type { LessonHost } from './host';
import { localize } from './localize';
import { lessonDone, type LessonProgress } from './progress';
import {
  accessResult,
  collectionOf,
  CollectionCache,
  eventsResult,
  httpResult,
  lastWrite,
  listResult,
  objectResult,
  requestsResult,
  traceResult,
  type ReadResult,
} from './reads';
import { planStart, resetLesson, runStart, type StartPlan } from './start';
import { showMe, type ShowMeResult } from './show-me';

export type CheckState = 'pass' | 'fail' | 'waiting' | 'error';

export interface CheckView {
  description: string;
  state: CheckState;
  /** Why it does not hold or could not be evaluated: a read's problem, or the evaluation's error. */
  detail?: string;
}

export interface StepView {
  id: string;
  done: boolean;
  /** The step being checked now (the first not done, once the lesson is started). */
  current: boolean;
  checks: CheckView[];
}

export interface RunState {
  started: boolean;
  done: boolean;
  steps: StepView[];
}

interface CompiledCheck {
  check: LessonCheck;
  expression: CompiledExpression;
}

/** The identity a step acts as: its own, else the lesson's starting one, else the administrator. */
export function stepIdentity(lesson: LessonDocument, step: LessonStep): string {
  return step.identity ?? lesson.start?.identity ?? 'admin';
}

export class LessonRun {
  readonly lesson: LessonDocument;
  private compiled = new Map<string, CompiledCheck[]>();
  private progress: LessonProgress | undefined;
  private checkViews = new Map<string, CheckView[]>();
  private readonly listeners = new Set<() => void>();
  private caches = new Map<string, CollectionCache>();
  private unsubscribe: (() => void)[] = [];
  private active = false;
  private evaluating: Promise<void> | undefined;
  private again = false;
  private snap: RunState | undefined;
  private observer: ApiClient | undefined;

  constructor(
    lesson: LessonDocument,
    private readonly host: LessonHost,
  ) {
    this.lesson = localize(lesson, host.profile);
  }

  /** Loads the CEL library, compiles the checks and reads the saved progress. */
  async load(): Promise<void> {
    await celLibrary.load();
    for (const step of this.lesson.steps) {
      this.compiled.set(
        step.id,
        step.checks.map((check) => {
          const expression = compileDynamicExpression(variablesOf(check.read), check.expect, 'bool');
          if (isCompileError(expression))
            throw new Error(
              `step ${step.id}: the check "${check.description}" does not compile: ${expression.message}`,
            );
          return { check, expression };
        }),
      );
    }
    this.progress = (await this.host.progress.all())[this.lesson.id];
    this.observer = await this.host.clientFor('admin', false);
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An immutable view, new after every change (React's useSyncExternalStore). */
  state(): RunState {
    if (this.snap !== undefined) return this.snap;
    const started = this.progress?.startedAt !== undefined;
    const current = started
      ? this.lesson.steps.find((s) => this.progress?.steps[s.id] === undefined)
      : undefined;
    this.snap = {
      started,
      done: lessonDone(
        this.progress,
        this.lesson.steps.map((s) => s.id),
      ),
      steps: this.lesson.steps.map((step) => ({
        id: step.id,
        done: this.progress?.steps[step.id] !== undefined,
        current: step === current,
        checks:
          this.checkViews.get(step.id) ??
          step.checks.map((c) => ({ description: c.description, state: 'waiting' as const })),
      })),
    };
    return this.snap;
  }

  private changed(): void {
    this.snap = undefined;
    for (const listener of this.listeners) listener();
  }

  /** Starts checking live (when the lesson is shown); `stop` ends it. */
  activate(): void {
    if (this.active) return;
    this.active = true;
    const poke = () => {
      for (const cache of this.caches.values()) cache.retry();
      this.schedule();
    };
    this.unsubscribe = [
      this.host.requests.subscribe(poke),
      this.host.inspector.subscribe(() => this.schedule()),
    ];
    this.schedule();
  }

  stop(): void {
    this.active = false;
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
  }

  /** What "Start lesson" would create, and what it would have to replace (which the learner confirms). */
  plan(): Promise<StartPlan> {
    return planStart(this.lesson, this.client());
  }

  /** Prepares the lesson's state from `plan` and starts checking. */
  async start(plan: StartPlan): Promise<void> {
    await runStart(this.lesson, plan, this.client(), this.host.profile);
    this.progress = { startedAt: new Date().toISOString(), steps: {} };
    await this.host.progress.save(this.lesson.id, this.progress);
    this.checkViews.clear();
    if (this.lesson.start?.identity !== undefined) this.host.actAs?.(this.lesson.start.identity);
    this.changed();
    this.schedule();
  }

  /** Deletes what the lesson made (its namespaces, its cluster-scoped objects) and forgets its progress. */
  async reset(): Promise<void> {
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
    await resetLesson(this.lesson, this.client());
    this.progress = undefined;
    await this.host.progress.save(this.lesson.id, undefined);
    this.checkViews.clear();
    this.changed();
  }

  /** Does step `stepId` the way a learner would, and says what was sent. */
  async showMe(stepId: string): Promise<ShowMeResult> {
    const step = this.lesson.steps.find((s) => s.id === stepId);
    if (step === undefined) throw new Error(`no step ${stepId}`);
    const result = await showMe(step, stepIdentity(this.lesson, step), this.host);
    this.schedule();
    return result;
  }

  private client(): ApiClient {
    if (this.observer === undefined) throw new Error('the lesson is used before load()');
    return this.observer;
  }

  /**
   * Evaluates now, or once more after the evaluation in progress. The loop clears `evaluating` in the same
   * turn as it sees no request for another pass, so a change arriving as a pass ends is never lost.
   */
  private schedule(): void {
    if (!this.active) return;
    this.again = true;
    if (this.evaluating === undefined) this.evaluating = this.evaluateWhileAsked();
  }

  private async evaluateWhileAsked(): Promise<void> {
    // Yield first, so `evaluating` is assigned before the loop can end.
    await Promise.resolve();
    try {
      while (this.again && this.active) {
        this.again = false;
        try {
          await this.evaluate();
        } catch (error) {
          console.error('lesson check failed', error);
        }
      }
    } finally {
      this.evaluating = undefined;
    }
  }

  /** Resolves once no evaluation is running (tests wait on it after a change). */
  async settled(): Promise<void> {
    while (this.evaluating !== undefined) await this.evaluating;
  }

  private async evaluate(): Promise<void> {
    const progress = this.progress;
    if (progress?.startedAt === undefined) return;
    const since = Date.parse(progress.startedAt);
    for (const step of this.lesson.steps) {
      if (progress.steps[step.id] !== undefined) continue;
      const views = await this.evaluateStep(step, since);
      this.checkViews.set(step.id, views);
      if (!views.every((v) => v.state === 'pass')) {
        this.changed();
        return;
      }
      progress.steps[step.id] = new Date().toISOString();
      this.changed();
      await this.host.progress.save(this.lesson.id, progress);
    }
  }

  private async evaluateStep(step: LessonStep, since: number): Promise<CheckView[]> {
    const views: CheckView[] = [];
    for (const { check, expression } of this.compiled.get(step.id) ?? []) {
      const result = await this.read(check, since);
      if (result === undefined) {
        views.push({ description: check.description, state: 'waiting', detail: 'reading…' });
        continue;
      }
      const outcome = evaluateDynamic(expression, result.values);
      if (outcome.status === 'ok' && outcome.value === true)
        views.push({ description: check.description, state: 'pass' });
      else if (outcome.status === 'ok')
        views.push({
          description: check.description,
          state: 'fail',
          ...(result.problem !== undefined ? { detail: result.problem } : {}),
        });
      else
        views.push({
          description: check.description,
          state: result.problem !== undefined ? 'fail' : 'error',
          detail:
            result.problem ??
            (outcome.status === 'error' ? outcome.message : 'the check ran out of its cost budget'),
        });
    }
    return views;
  }

  private async read(check: LessonCheck, since: number): Promise<ReadResult | undefined> {
    const read = check.read;
    if ('object' in read) return objectResult(read.object, await this.cache(read.object, read.as));
    if ('list' in read) return listResult(read.list, await this.cache(read.list, read.as));
    if ('http' in read)
      return httpResult(await this.host.clientFor(read.as ?? 'admin', false), read.http.path);
    if ('requests' in read) return requestsResult(this.host.requests.entries(), since);
    if ('watch' in read) return eventsResult(this.host.inspector.events(), since);
    if ('trace' in read)
      return traceResult(
        this.client(),
        lastWrite(this.host.requests.entries(), since, read.trace.pathContains),
      );
    return accessResult(this.client(), this.host.profile, read.access);
  }

  private async cache(
    read: Parameters<typeof collectionOf>[0],
    as: string | undefined,
  ): Promise<CollectionCache> {
    const { ref, query } = collectionOf(read);
    const key = JSON.stringify([as ?? 'admin', ref, query]);
    let cache = this.caches.get(key);
    if (cache === undefined) {
      const client = as === undefined ? this.client() : await this.host.clientFor(as, false);
      cache = new CollectionCache(client, ref, query, () => this.schedule());
      this.caches.set(key, cache);
    }
    return cache;
  }
}

export type { StartPlan, ShowMeResult };
