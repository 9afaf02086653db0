/**
 * The course's tests: an in-process API server set up as the browser host
 * sets up its own (open sandbox API, bootstrap tokens, an advertised
 * address), the engine's host over it (clients per built-in identity, the
 * request journal, a client-driven Watch inspector, progress kept by the
 * sandbox), and `completeLesson`, which starts a lesson and completes every
 * step twice: once by "Show me", once (after "Reset lesson") by the
 * learner's own requests, which differ from the solution where the step
 * allows, so the checks accept what they should.
 */

import { expect } from 'vitest';
import { createClient, type ApiClient } from '../../src/client/index';
import { compiledNamesFor, runKubectl, splitWords, type KubeConfig } from '../../src/kubectl/index';
import { ClientWatchInspector } from '../../src/lessons/inspector';
import { RequestJournal, recordingFetch } from '../../src/lessons/journal';
import type { LessonDocument } from '../../src/lessons/format';
import type { LessonHost } from '../../src/lessons/host';
import { sandboxProgress } from '../../src/lessons/progress';
import { LessonRun } from '../../src/lessons/run';
import { namingProfile, type ProfileName } from '../../src/machinery/naming';
import { createApiServer, type ApiServer } from '../../src/server/index';
import { createMemoryStorage } from '../../src/storage/memory/memory-storage';

const origin = 'http://sandbox.test';

export interface LessonServer {
  api: ApiServer;
  host: LessonHost & { inspector: ClientWatchInspector };
  /** A client recorded in the learner's request log, as `identity`. */
  learner(identity?: string): Promise<ApiClient>;
  /**
   * Runs a command line (`kubectl …`, as a lesson's Terminal link types it) with the app's kubectl, as
   * `as` (default admin), recorded in the learner's request log as the Terminal's requests are; resolves with its
   * output, and fails on a non-zero exit unless `allowFailure` (a step may ask for a refusal).
   */
  kubectl(line: string, options?: { as?: string; allowFailure?: boolean }): Promise<string>;
  close(): Promise<void>;
}

export async function startLessonServer(profile: ProfileName = 'orch'): Promise<LessonServer> {
  const api = createApiServer({
    storage: createMemoryStorage(),
    profile,
    openSandboxApi: true,
    authentication: { bootstrapTokens: true },
    advertisedURL: origin,
  });
  await api.ready;
  const identities = await api.identities();
  const journal = new RequestJournal();
  const inspector = new ClientWatchInspector();
  const transport = (identity: string) => {
    const token = identity === 'anonymous' ? undefined : identities.find((i) => i.name === identity)?.token;
    if (identity !== 'anonymous' && token === undefined) throw new Error(`no token for identity ${identity}`);
    return (request: Request): Promise<Response> => {
      if (token === undefined || request.headers.has('authorization')) return api.fetch(request);
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${token}`);
      return api.fetch(new Request(request, { headers }));
    };
  };
  const clientFor = (identity: string, recorded: boolean) =>
    Promise.resolve(
      createClient({
        baseUrl: origin,
        fetch: recorded ? recordingFetch(journal, transport(identity)) : transport(identity),
      }),
    );
  const observer = await clientFor('admin', false);
  const host = {
    profile: namingProfile(profile),
    clientFor,
    requests: journal,
    inspector,
    progress: sandboxProgress(observer),
  };
  return {
    api,
    host,
    learner: (identity = 'admin') => clientFor(identity, true),
    async kubectl(line, { as: identity = 'admin', allowFailure = false } = {}) {
      const [head, ...args] = splitWords(line);
      if (head !== 'kubectl') throw new Error(`not a kubectl command: ${line}`);
      const token = identities.find((i) => i.name === identity)?.token;
      const config: KubeConfig = {
        clusters: [{ name: 'sandbox', cluster: { server: origin } }],
        users: [{ name: identity, user: token === undefined ? {} : { token } }],
        contexts: [{ name: identity, context: { cluster: 'sandbox', user: identity, namespace: 'default' } }],
        'current-context': identity,
      };
      let out = '';
      let err = '';
      const code = await runKubectl(args, {
        // Built for the server's naming profile, as the browser Terminal's kubectl is (decision 0063).
        names: compiledNamesFor(namingProfile(profile)),
        stdout: (text) => void (out += text),
        stderr: (text) => void (err += text),
        stdin: async () => '',
        files: { read: async () => undefined, list: async () => undefined },
        kubeconfig: { load: async () => config, save: async () => undefined, describe: () => 'the test' },
        transport: () => recordingFetch(journal, (request) => api.fetch(request)),
        env: () => undefined,
        now: () => new Date(),
      });
      if (code !== 0 && !allowFailure) throw new Error(`${line} exited ${code}: ${err}${out}`);
      return out + err;
    },
    async close() {
      inspector.stop();
      await api.close();
    },
  };
}

/** Resolves once `condition` holds for the run's state, re-checked on every change of it. */
export function until(run: LessonRun, condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (condition()) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(run.state().steps, null, 1)}`));
    }, ms);
    const unsubscribe = run.subscribe(() => {
      if (!condition()) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}

/** The learner's own way through each step: step id to what they do. */
export type LearnerSteps = Record<string, (server: LessonServer) => Promise<void>>;

/** Starts the lesson and completes every step by "Show me", then resets it and completes every step the learner's way. */
export async function completeLesson(
  server: LessonServer,
  lesson: LessonDocument,
  learnerSteps: LearnerSteps,
  options: {
    /**
     * Runs after Reset, before the learner's way: sandbox settings a step turns on stay on after a Reset
     * (it never turns settings off), so a test turns them off here for the learner to turn on again.
     */
    beforeLearner?: (server: LessonServer) => Promise<void>;
  } = {},
): Promise<void> {
  expect(Object.keys(learnerSteps).sort(), 'one learner way per step').toEqual(
    lesson.steps.map((s) => s.id).sort(),
  );
  const run = new LessonRun(lesson, server.host);
  await run.load();
  run.activate();
  try {
    // A fresh start (nothing to replace), then every step by Show me.
    const plan = await run.plan();
    expect(plan.replace, 'nothing to replace on a first start').toEqual([]);
    await run.start(plan);
    for (const [index, step] of lesson.steps.entries()) {
      expect(run.state().steps[index]?.done, `step ${step.id} is not done before Show me`).toBe(false);
      const result = await run.showMe(step.id);
      expect(result.error, `Show me of ${step.id}: ${String(result.error?.message)}`).toBeUndefined();
      await until(run, () => run.state().steps[index]?.done === true, `step ${step.id} done by Show me`);
    }
    expect(run.state().done).toBe(true);
    // Reset: what the lesson made goes, progress is forgotten; then the learner's own way.
    await run.reset();
    expect(run.state().started).toBe(false);
    expect(run.state().steps.every((s) => !s.done)).toBe(true);
    server.host.inspector.stop();
    await options.beforeLearner?.(server);
    await run.start(await run.plan());
    for (const [index, step] of lesson.steps.entries()) {
      expect(run.state().steps[index]?.done, `step ${step.id} is not done before the learner acts`).toBe(
        false,
      );
      await learnerSteps[step.id]!(server);
      await until(run, () => run.state().steps[index]?.done === true, `step ${step.id} done by the learner`);
    }
    expect(run.state().done).toBe(true);
    await run.settled();
    const saved = await server.host.progress.all();
    expect(Object.keys(saved[lesson.id]?.steps ?? {}).sort()).toEqual(lesson.steps.map((s) => s.id).sort());
  } finally {
    run.stop();
  }
}

/** The command a step's first Terminal link types, if it has one. */
export function terminalCommand(step: LessonDocument['steps'][number]): string | undefined {
  return step.open?.find((link) => link.view === 'terminal')?.params?.['command'];
}

/**
 * Starts the lesson and completes each step by typing its Terminal link's command (with the app's kubectl, as
 * the Terminal runs it) where it has one, by "Show me" elsewhere; then resets it. Resolves with the steps a
 * command completed.
 */
export async function completeByTerminal(server: LessonServer, lesson: LessonDocument): Promise<string[]> {
  const run = new LessonRun(lesson, server.host);
  await run.load();
  run.activate();
  const typed: string[] = [];
  try {
    await run.start(await run.plan());
    for (const [index, step] of lesson.steps.entries()) {
      const command = terminalCommand(step);
      if (command !== undefined) {
        // As the step's identity (the step offers to switch to it); a refusal may be what the step asks for.
        await server.kubectl(command, {
          as: step.identity ?? lesson.start?.identity ?? 'admin',
          allowFailure: true,
        });
        typed.push(step.id);
      } else {
        const result = await run.showMe(step.id);
        expect(result.error, `Show me of ${step.id}: ${String(result.error?.message)}`).toBeUndefined();
      }
      await until(
        run,
        () => run.state().steps[index]?.done === true,
        `step ${step.id} done by ${command ?? 'Show me'}`,
      );
    }
    await run.reset();
  } finally {
    server.host.inspector.stop();
    run.stop();
  }
  return typed;
}
